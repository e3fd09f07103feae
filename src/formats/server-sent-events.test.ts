import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { MAX_EVENT_BYTES, sseEvents, sseParser, TOO_LONG } from "./server-sent-events.ts";

describe("sseParser", () => {
  test("events end at a blank line, split anywhere, with CR LF or CR", () => {
    const p = sseParser();
    assert.deepEqual(p.push("data: one\r"), []);
    assert.deepEqual(p.push("\n\r\nda"), ["one"]);
    // A CR at the end may be half of a CR LF: it ends its line once more arrives.
    assert.deepEqual(p.push("ta:two\rdata: lines\r\r"), []);
    assert.deepEqual(p.push("data: three\n\n"), ["two\nlines", "three"]);
  });

  test("comments, other fields and events without data are skipped", () => {
    const p = sseParser();
    assert.deepEqual(p.push(": ping\n\nevent: x\nid: 3\n\nretry: 10\ndata\n\n"), [""]);
  });
});

describe("sseEvents", () => {
  test("an event the body ends in the middle of is dropped", async () => {
    async function* body() {
      const e = new TextEncoder();
      yield e.encode('data: {"a":1}\n\ndata: {"b":');
    }
    const out: string[] = [];
    for await (const d of sseEvents(body())) out.push(d);
    assert.deepEqual(out, ['{"a":1}']);
  });

  test("a character split between chunks is decoded whole", async () => {
    const bytes = new TextEncoder().encode("data: é\n\n");
    async function* body() {
      yield bytes.subarray(0, 7);
      yield bytes.subarray(7);
    }
    const out: string[] = [];
    for await (const d of sseEvents(body())) out.push(d);
    assert.deepEqual(out, ["é"]);
  });
});

describe("an event over the limit", () => {
  test("is one TOO_LONG, kept by no one; the events after it are read", () => {
    const p = sseParser(10);
    assert.deepEqual(p.push("data: 0123456789abc"), [TOO_LONG]);
    assert.deepEqual(p.push("more of it\ndata: still\n\ndata: ok\n\n"), ["ok"]);
    assert.deepEqual(p.push("data: 01234\ndata: 56789\n\n"), [TOO_LONG]);
  });
  test("sseEvents fails on it, naming the limit", async () => {
    async function* body() {
      yield new TextEncoder().encode("data: " + "x".repeat(MAX_EVENT_BYTES + 1));
    }
    await assert.rejects(
      (async () => {
        for await (const _ of sseEvents(body())) { /* none */ }
      })(),
      new RegExp(`^Error: an event is over ${MAX_EVENT_BYTES} bytes$`),
    );
  });
});
