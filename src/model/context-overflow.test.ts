// Each provider's context-overflow answer, by its real status and text.

import { test } from "node:test";
import assert from "node:assert/strict";
import { isContextOverflow } from "./context-overflow.ts";

test("each provider's overflow error is recognised, wrapped or not", () => {
  const overflows = [
    { statusCode: 400, message: "prompt is too long: 208000 tokens > 200000 maximum" },
    {
      statusCode: 400,
      message: "input length and `max_tokens` exceed context limit: 188240 + 21333 > 200000, " +
        "decrease input length or `max_tokens` and try again",
    },
    {
      statusCode: 400,
      message: "This model's maximum context length is 128000 tokens. However, your messages " +
        "resulted in 130000 tokens. Please reduce the length of the messages.",
      responseBody: '{"error":{"code":"context_length_exceeded","param":"messages"}}',
    },
    {
      statusCode: 400,
      message:
        "Your input exceeds the context window of this model. Please adjust your input and try again.",
    },
    {
      statusCode: 400,
      message:
        "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
    },
    {
      statusCode: 400,
      message:
        "The decoder prompt (length 5000) is longer than the maximum model length of 4096. " +
        "Make sure that `max_model_len` is no smaller than the number of text tokens.",
    },
  ];
  for (const e of overflows) {
    assert.equal(isContextOverflow(e), true, e.message);
    assert.equal(isContextOverflow(new Error("wrapped", { cause: e })), true, e.message);
  }
});

test("other failures are not overflows", () => {
  assert.equal(
    isContextOverflow({ statusCode: 429, message: "prompt is too long: 1 tokens > 0 maximum" }),
    false,
  );
  assert.equal(
    isContextOverflow({ statusCode: 400, message: "tool_choice is not supported" }),
    false,
  );
  assert.equal(isContextOverflow({ statusCode: 500, message: "context_length_exceeded" }), false);
  assert.equal(isContextOverflow(new Error("network down")), false);
  assert.equal(isContextOverflow(undefined), false);
});
