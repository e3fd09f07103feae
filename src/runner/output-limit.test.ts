import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { MAX_SUMMARY_BYTES, MAX_SUMMARY_LINES, truncateTail } from "./output-limit.ts";

describe("truncateTail", () => {
  test("short text is untouched", () => {
    assert.deepEqual(truncateTail("a\nb"), { text: "a\nb", truncated: false });
  });
  test("over the line limit keeps the last lines", () => {
    const text = Array.from({ length: MAX_SUMMARY_LINES + 10 }, (_, i) => `line ${i}`).join("\n");
    const r = truncateTail(text);
    assert.equal(r.truncated, true);
    const lines = r.text.split("\n");
    assert.match(lines[0], /10 lines cut/);
    assert.equal(lines.length, MAX_SUMMARY_LINES + 1);
    assert.equal(lines.at(-1), `line ${MAX_SUMMARY_LINES + 9}`);
  });
  test("over the byte limit keeps the tail on a line boundary and whole characters", () => {
    const text = "é".repeat(MAX_SUMMARY_BYTES) + "\nthe end";
    const r = truncateTail(text);
    assert.equal(r.truncated, true);
    assert.ok(r.text.endsWith("the end"));
    assert.ok(Buffer.byteLength(r.text) <= MAX_SUMMARY_BYTES + 100);
    assert.ok(!r.text.includes("\uFFFD"));
  });
  test("small custom limits", () => {
    assert.deepEqual(truncateTail("a\nb\nc", { maxBytes: 100, maxLines: 2 }), {
      text: "[… 1 line cut; full output saved …]\nb\nc",
      truncated: true,
    });
  });
});
