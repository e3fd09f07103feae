// The provider prompt leaves out a blank system prompt (Anthropic refuses a
// whitespace-only text block) and keeps a real one first.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { toPrompt } from "./conversation.ts";

describe("toPrompt", () => {
  test("a system prompt comes first", () => {
    assert.deepEqual(toPrompt("Be brief.", [{ role: "user", content: "hi" }]), [
      { role: "system", content: "Be brief." },
      { role: "user", content: [{ type: "text", text: "hi" }] },
    ]);
  });
  test("a blank system prompt is left out", () => {
    for (const blank of ["", " \n\n\t"]) {
      assert.deepEqual(toPrompt(blank, [{ role: "user", content: "hi" }]), [
        { role: "user", content: [{ type: "text", text: "hi" }] },
      ]);
    }
  });
});
