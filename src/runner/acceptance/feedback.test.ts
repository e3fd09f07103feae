import { test } from "node:test";
import assert from "node:assert/strict";
import { checkFeedback } from "./feedback.ts";

test("the child is told the failed checks' names and output, not the passed or skipped", () => {
  const text = checkFeedback([
    { name: "build", ok: false, output: "exit code 2" },
    { name: "lint", ok: true, output: "fine" },
    { name: "marker", ok: false, skipped: true, output: "not run" },
  ], 1);
  assert.match(text, /^Your result was not accepted: 1 acceptance check failed\./);
  assert.match(text, /## build\nexit code 2/);
  assert.doesNotMatch(text, /lint|marker/);
  assert.doesNotMatch(text, /last round/);
  assert.match(checkFeedback([{ name: "a", ok: false, output: "x" }], 0), /last round/);
});
