import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { refusedParameter } from "./refused-parameter.ts";

describe("refusedParameter", () => {
  test("a 400 naming tool_choice in its message or body", () => {
    assert.equal(
      refusedParameter({ statusCode: 400, message: "tool_choice not supported" }),
      "tool_choice",
    );
    assert.equal(
      refusedParameter({
        statusCode: 400,
        message: "Bad Request",
        responseBody: '{"error":"toolChoice"}',
      }),
      "tool_choice",
    );
    assert.equal(
      refusedParameter({ statusCode: 400, message: "Tool choice is invalid" }),
      "tool_choice",
    );
    // Anthropic's words for a forced tool under thinking name tool_choice first.
    assert.equal(
      refusedParameter({
        statusCode: 400,
        message: "Thinking may not be enabled when tool_choice forces tool use.",
      }),
      "tool_choice",
    );
  });

  test("Ollama's refusals of a reasoning effort", () => {
    assert.equal(
      refusedParameter({
        statusCode: 400,
        message: `invalid reasoning value: 'minimal' (must be "high", "medium", "low", or "none")`,
      }),
      "reasoning_effort",
    );
    assert.equal(
      refusedParameter({ statusCode: 400, message: '"llama3.2" does not support thinking' }),
      "reasoning_effort",
    );
    assert.equal(
      refusedParameter({
        statusCode: 400,
        message: "Unrecognized request argument: reasoning_effort",
      }),
      "reasoning_effort",
    );
  });

  test("the other optional parameters", () => {
    const of = (message: string) => refusedParameter({ statusCode: 400, message });
    assert.equal(of("parallel_tool_calls is not supported"), "parallel_tool_calls");
    assert.equal(of("Unknown field stream_options"), "stream_options");
    assert.equal(of("'strict' is not permitted"), "strict");
  });

  test("other failures are not", () => {
    assert.equal(refusedParameter({ statusCode: 400, message: "max_tokens too large" }), undefined);
    assert.equal(refusedParameter({ statusCode: 500, message: "tool_choice" }), undefined);
    assert.equal(refusedParameter(new Error("tool_choice")), undefined);
    assert.equal(refusedParameter(undefined), undefined);
    assert.equal(refusedParameter("tool_choice"), undefined);
  });
});
