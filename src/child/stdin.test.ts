// Unit tests for reading the envelope: the first line when a parent watches,
// all of stdin otherwise, characters split across reads, and the parent's end
// noticed after the envelope.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readEnvelope } from "./stdin.ts";

/** Chunks handed out one read at a time; `null` is the end, an Error a failure. */
function reads(...chunks: (string | Uint8Array | null | Error)[]) {
  const enc = new TextEncoder();
  return {
    readChunk: (): Promise<Uint8Array | null> => {
      const c = chunks.shift();
      if (c === undefined || c === null) return Promise.resolve(null);
      if (c instanceof Error) return Promise.reject(c);
      return Promise.resolve(typeof c === "string" ? enc.encode(c) : c);
    },
  };
}

const tick = () => new Promise((r) => setTimeout(r, 5));

describe("readEnvelope", () => {
  test("watching: the first line, whatever the chunking", async () => {
    const r = reads('{"a":', '1}\n{"ignored":true}', null);
    let gone = 0;
    const text = await readEnvelope({ watchParent: true, onParentGone: () => gone++, ...r });
    assert.equal(text, '{"a":1}');
    await tick();
    assert.equal(gone, 1, "the pipe's end after the envelope means the parent is gone");
  });

  test("watching: a read error after the envelope also means the parent is gone", async () => {
    let gone = 0;
    await readEnvelope({
      watchParent: true,
      onParentGone: () => gone++,
      ...reads("{}\n", new Error("EIO")),
    });
    await tick();
    assert.equal(gone, 1);
  });

  test("not watching: all of stdin, newlines included", async () => {
    let gone = 0;
    const text = await readEnvelope({
      watchParent: false,
      onParentGone: () => gone++,
      ...reads("{\n", '"a": 1\n', "}", null),
    });
    assert.equal(text, '{\n"a": 1\n}');
    await tick();
    assert.equal(gone, 0);
  });

  test("a character split between reads arrives whole", async () => {
    const bytes = new TextEncoder().encode('{"s":"é✓"}\n');
    const text = await readEnvelope({
      watchParent: true,
      onParentGone: () => {},
      ...reads(bytes.subarray(0, 7), bytes.subarray(7, 9), bytes.subarray(9), null),
    });
    assert.equal(text, '{"s":"é✓"}');
  });

  test("an end before the newline gives what came (the envelope check names the problem)", async () => {
    const text = await readEnvelope({
      watchParent: true,
      onParentGone: () => {},
      ...reads('{"a":', null),
    });
    assert.equal(text, '{"a":');
  });

  test("a read error before the envelope is complete rejects", async () => {
    await assert.rejects(
      readEnvelope({ watchParent: true, onParentGone: () => {}, ...reads("{", new Error("EIO")) }),
      /EIO/,
    );
  });
});

describe("readEnvelope: the control channel", () => {
  test("lines after the envelope are control messages, in the same chunk or later", async () => {
    const got: unknown[] = [];
    let gone = 0;
    const text = await readEnvelope({
      watchParent: true,
      onParentGone: () => gone++,
      onControl: (m) => got.push(m),
      ...reads(
        '{"v":1}\n{"type":"grant","reqId":"a"}\n{"type":"de',
        'ny","reqId":"b"}\nnoise\n',
        '{"type":"cancel"}\n',
        null,
      ),
    });
    assert.equal(text, '{"v":1}');
    await tick();
    assert.deepEqual(got, [
      { type: "grant", reqId: "a" },
      { type: "deny", reqId: "b", reason: "the run's budget is spent" },
      { type: "cancel" },
    ]);
    assert.equal(gone, 1);
  });

  test("not watching: no control messages, all of stdin is the envelope", async () => {
    const got: unknown[] = [];
    const text = await readEnvelope({
      watchParent: false,
      onParentGone: () => {},
      onControl: (m) => got.push(m),
      ...reads('{"v":1}\n{"type":"grant","reqId":"a"}\n', null),
    });
    assert.equal(text, '{"v":1}\n{"type":"grant","reqId":"a"}\n');
    assert.deepEqual(got, []);
  });
});
