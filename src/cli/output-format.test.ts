// Unit tests for choosing the output form of `xcsh run`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { outputFormat } from "./output-format.ts";

test("--json is json; --output-format names one of three forms", () => {
  assert.deepEqual(outputFormat(undefined, undefined), { ok: true, value: "text" });
  assert.deepEqual(outputFormat(undefined, true), { ok: true, value: "json" });
  assert.deepEqual(outputFormat("json", true), { ok: true, value: "json" });
  assert.deepEqual(outputFormat("stream-json", false), { ok: true, value: "stream-json" });
  assert.deepEqual(outputFormat("text", undefined), { ok: true, value: "text" });
});

test("other values and contradictions are refused with one line naming the flag", () => {
  const yaml = outputFormat("yaml", undefined);
  assert.deepEqual(yaml, {
    ok: false,
    message: `--output-format: expected text, json, stream-json, got "yaml"`,
  });
  const both = outputFormat("stream-json", true);
  assert.equal(both.ok, false);
  assert.match((both as { message: string }).message, /^--json means --output-format json/);
});
