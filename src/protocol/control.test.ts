// Unit tests for the control channel's reader: each known message of this
// version, anything else ignored, and lines split across chunks.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { controlLine, lineSplitter, newRequestId, parseControlLine } from "./control.ts";

describe("parseControlLine", () => {
  test("grant, deny and cancel", () => {
    assert.deepEqual(parseControlLine('{"type":"grant","reqId":"r1"}'), {
      type: "grant",
      reqId: "r1",
    });
    assert.deepEqual(parseControlLine('{"type":"deny","reqId":"r1","reason":"spent\\nmore"}'), {
      type: "deny",
      reqId: "r1",
      reason: "spent",
    });
    assert.deepEqual(parseControlLine('{"type":"deny","reqId":"r1"}'), {
      type: "deny",
      reqId: "r1",
      reason: "the run's budget is spent",
    });
    assert.deepEqual(parseControlLine('{"type":"pace_grant","reqId":"r2"}'), {
      type: "pace_grant",
      reqId: "r2",
    });
    assert.equal(parseControlLine('{"type":"pace_grant"}'), undefined);
    assert.deepEqual(parseControlLine('{"type":"exhausted","reason":"spent"}'), {
      type: "exhausted",
      reason: "spent",
    });
    assert.deepEqual(parseControlLine('{"type":"exhausted"}'), {
      type: "exhausted",
      reason: "the run's budget is spent",
    });
    assert.deepEqual(parseControlLine('{"type":"cancel"}'), { type: "cancel" });
    assert.deepEqual(parseControlLine('{"type":"cancel","reason":"user"}'), {
      type: "cancel",
      reason: "user",
    });
  });

  test("anything else is not a control message", () => {
    for (
      const line of [
        "",
        "grant r1",
        "{",
        "[]",
        "null",
        '{"type":"grant"}',
        '{"type":"grant","reqId":7}',
        '{"type":"grant","reqId":""}',
        `{"type":"grant","reqId":"${"x".repeat(200)}"}`,
        '{"type":"deny"}',
        '{"type":"pause"}',
        '{"reqId":"r1"}',
        // A rate_limit of another version, or without its fields, is ignored.
        '{"type":"rate_limit","version":2,"provider":"p","key":"k","pauseUntil":1}',
        '{"type":"rate_limit","provider":"p","key":"k","pauseUntil":1}',
        '{"type":"rate_limit","version":1,"key":"k","pauseUntil":1}',
        '{"type":"rate_limit","version":1,"provider":"p","pauseUntil":1}',
        '{"type":"rate_limit","version":1,"provider":"p","key":"k"}',
        '{"type":"rate_limit","version":1,"provider":"p","key":"k","pauseUntil":"1"}',
        `{"type":"rate_limit","version":1,"provider":"${
          "p".repeat(300)
        }","key":"k","pauseUntil":1}`,
      ]
    ) assert.equal(parseControlLine(line), undefined, line);
  });

  test("rate_limit: a sibling's pause, numbers and names only", () => {
    assert.deepEqual(
      parseControlLine(
        '{"type":"rate_limit","version":1,"provider":"p","key":"k1","model":"m",' +
          '"pauseUntil":5,"apiKey":"sk-secret","extra":true}',
      ),
      { type: "rate_limit", version: 1, provider: "p", key: "k1", model: "m", pauseUntil: 5 },
    );
    assert.deepEqual(
      parseControlLine('{"type":"rate_limit","version":1,"provider":"p","key":"k","pauseUntil":5}'),
      { type: "rate_limit", version: 1, provider: "p", key: "k", pauseUntil: 5 },
    );
    // A provider without a key: the empty fingerprint.
    assert.deepEqual(
      parseControlLine('{"type":"rate_limit","version":1,"provider":"p","key":"","pauseUntil":5}'),
      { type: "rate_limit", version: 1, provider: "p", key: "", pauseUntil: 5 },
    );
  });

  test("a written line reads back", () => {
    const m = { type: "deny" as const, reqId: "abc", reason: "no" };
    const line = controlLine(m);
    assert.ok(line.endsWith("\n"));
    assert.deepEqual(parseControlLine(line), m);
  });
});

describe("lineSplitter", () => {
  test("lines across chunks, an unfinished line waits", () => {
    const lines: string[] = [];
    const feed = lineSplitter((l) => lines.push(l));
    feed('{"a"');
    assert.deepEqual(lines, []);
    feed(':1}\n{"b":2}\n{"c"');
    assert.deepEqual(lines, ['{"a":1}', '{"b":2}']);
    feed("}\n");
    assert.deepEqual(lines, ['{"a":1}', '{"b":2}', '{"c"}']);
  });
});

test("request ids differ", () => {
  const ids = new Set(Array.from({ length: 100 }, newRequestId));
  assert.equal(ids.size, 100);
  for (const id of ids) assert.ok(id.length >= 32);
});
