import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { rejectsToolChoice } from "./tool-choice.ts";

describe("rejectsToolChoice", () => {
  test("a 400 naming tool_choice in its message or body", () => {
    assert.equal(
      rejectsToolChoice({ statusCode: 400, message: "tool_choice not supported" }),
      true,
    );
    assert.equal(
      rejectsToolChoice({
        statusCode: 400,
        message: "Bad Request",
        responseBody: '{"error":"toolChoice"}',
      }),
      true,
    );
    assert.equal(rejectsToolChoice({ statusCode: 400, message: "Tool choice is invalid" }), true);
  });

  test("other failures are not", () => {
    assert.equal(rejectsToolChoice({ statusCode: 400, message: "max_tokens too large" }), false);
    assert.equal(rejectsToolChoice({ statusCode: 500, message: "tool_choice" }), false);
    assert.equal(rejectsToolChoice(new Error("tool_choice")), false);
    assert.equal(rejectsToolChoice(undefined), false);
    assert.equal(rejectsToolChoice("tool_choice"), false);
  });
});
