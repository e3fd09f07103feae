/**
 * The strict model server's pairing rules: every tool call a request replays
 * is answered by its result right after it, and no result answers a call
 * that is not there. The real APIs refuse a conversation that breaks this
 * with HTTP 400; this module answers the same status, error shape and text,
 * so a test sees what a user would.
 *
 * One rule per wire format (the server's format names):
 * - `anthropic` (Messages API): an assistant message's `tool_use` blocks are
 *   each answered by a `tool_result` block in the next message, a user
 *   message; a `tool_result` answers a `tool_use` of the message before it.
 *   Source: Anthropic's tool-use guide ("tool_result blocks must immediately
 *   follow their corresponding tool_use blocks"; the error texts are the
 *   API's own, as reported verbatim in anthropics/claude-code issues #1237
 *   and #13460).
 * - `responses` (OpenAI Responses API): every `function_call` item has a
 *   `function_call_output` item with its `call_id` after it, and every
 *   output follows its call. Source: OpenAI's function-calling guide; error
 *   texts as the API answers them (openai/codex issue #93, vercel/ai issue
 *   #8216, `param: "input"`).
 * - `openai` (chat completions): an assistant message with `tool_calls` is
 *   followed by one `tool` message per call id before any other message; a
 *   `tool` message answers a call of the assistant message before the run of
 *   tool messages. Source: the chat completions reference (`tool_call_id`:
 *   "Tool call that this message is responding to") and the API's error
 *   texts (microsoft/promptflow pull request #3130, miurla/morphic issue #136;
 *   "preceeding" is the API's spelling).
 * - `google` (Gemini generateContent): a model content with `functionCall`
 *   parts is followed by a content with as many `functionResponse` parts; a
 *   content of `functionResponse` parts follows a function call turn.
 *   Source: Gemini's function-calling guide; error texts as the API answers
 *   them (google-gemini/gemini-cli issues #4217 and #16415).
 *
 * Pure: a parsed request body in, a refusal or `undefined` out.
 *
 * @example
 * ```ts
 * pairingRefusal("responses", { input: [{ type: "function_call", call_id: "c1", name: "read", arguments: "{}" }] });
 * // { status: 400, body: { error: { message: "No tool output found for function call c1.", ... } } }
 * ```
 *
 * @module
 */

/** The wire formats of the test model server. */
export type PairingFormat = "openai" | "responses" | "anthropic" | "google";

/** What the server answers instead of a turn. */
export interface Refusal {
  status: 400;
  body: unknown;
}

// deno-lint-ignore no-explicit-any
type Any = any;

function list(v: unknown): Any[] {
  return Array.isArray(v) ? v : [];
}

function anthropicError(message: string): Refusal {
  return {
    status: 400,
    body: { type: "error", error: { type: "invalid_request_error", message } },
  };
}

function openAIError(message: string, param: string | null): Refusal {
  return {
    status: 400,
    body: { error: { message, type: "invalid_request_error", param, code: null } },
  };
}

function googleError(message: string): Refusal {
  return { status: 400, body: { error: { code: 400, message, status: "INVALID_ARGUMENT" } } };
}

function anthropicRule(body: Any): Refusal | undefined {
  const messages = list(body?.messages);
  for (const [i, m] of messages.entries()) {
    const blocks = list(m?.content);
    if (m?.role === "assistant") {
      const calls = blocks.filter((b) => b?.type === "tool_use").map((b) => String(b.id));
      if (calls.length === 0) continue;
      const next = messages[i + 1];
      const answered = new Set(
        next?.role === "user"
          ? list(next.content).filter((b) => b?.type === "tool_result").map((b) =>
            String(b.tool_use_id)
          )
          : [],
      );
      const missing = calls.filter((id) => !answered.has(id));
      if (missing.length > 0) {
        return anthropicError(
          `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately ` +
            `after: ${missing.join(", ")}. Each \`tool_use\` block must have a corresponding ` +
            "`tool_result` block in the next message.",
        );
      }
    } else {
      const before = messages[i - 1];
      const offered = new Set(
        before?.role === "assistant"
          ? list(before.content).filter((b) => b?.type === "tool_use").map((b) => String(b.id))
          : [],
      );
      for (const [j, b] of blocks.entries()) {
        if (b?.type === "tool_result" && !offered.has(String(b.tool_use_id))) {
          return anthropicError(
            `messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` ` +
              `blocks: ${b.tool_use_id}. Each \`tool_result\` block must have a corresponding ` +
              "`tool_use` block in the previous message.",
          );
        }
      }
    }
  }
  return undefined;
}

function responsesRule(body: Any): Refusal | undefined {
  const input = list(body?.input);
  // Items kept by OpenAI (`store: true`) come back as references this server cannot see into.
  if (input.some((item) => item?.type === "item_reference")) return undefined;
  const called = new Set<string>();
  for (const item of input) {
    if (item?.type === "function_call") called.add(String(item.call_id));
    else if (item?.type === "function_call_output" && !called.has(String(item.call_id))) {
      return openAIError(
        `No tool call found for function call output with call_id ${item.call_id}.`,
        "input",
      );
    }
  }
  const answered = new Set(
    input.filter((item) => item?.type === "function_call_output").map((item) =>
      String(item.call_id)
    ),
  );
  for (const id of called) {
    if (!answered.has(id)) {
      return openAIError(`No tool output found for function call ${id}.`, "input");
    }
  }
  return undefined;
}

function chatRule(body: Any): Refusal | undefined {
  const messages = list(body?.messages);
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (m?.role === "tool") {
      return openAIError(
        "Invalid parameter: messages with role 'tool' must be a response to a preceeding " +
          "message with 'tool_calls'.",
        `messages.[${i}].role`,
      );
    }
    const calls = m?.role === "assistant" ? list(m.tool_calls).map((c) => String(c?.id)) : [];
    if (calls.length === 0) continue;
    const open = new Set(calls);
    let j = i + 1;
    for (; j < messages.length && messages[j]?.role === "tool"; j++) {
      const id = String(messages[j].tool_call_id);
      if (!open.has(id)) {
        return openAIError(
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding " +
            "message with 'tool_calls'.",
          `messages.[${j}].role`,
        );
      }
      open.delete(id);
    }
    if (open.size > 0) {
      return openAIError(
        "An assistant message with 'tool_calls' must be followed by tool messages responding " +
          "to each 'tool_call_id'. The following tool_call_ids did not have response messages: " +
          [...open].join(", "),
        `messages.[${i}].role`,
      );
    }
    i = j - 1;
  }
  return undefined;
}

function googleRule(body: Any): Refusal | undefined {
  const contents = list(body?.contents);
  const count = (c: Any, key: string) =>
    list(c?.parts).filter((p) => p?.[key] !== undefined).length;
  for (const [i, c] of contents.entries()) {
    const calls = c?.role === "model" ? count(c, "functionCall") : 0;
    if (calls > 0 && count(contents[i + 1], "functionResponse") !== calls) {
      return googleError(
        "Please ensure that the number of function response parts is equal to the number of " +
          "function call parts of the function call turn.",
      );
    }
    const responses = count(c, "functionResponse");
    const before = contents[i - 1];
    if (responses > 0 && !(before?.role === "model" && count(before, "functionCall") > 0)) {
      return googleError(
        "Please ensure that function response turn comes immediately after a function call turn.",
      );
    }
  }
  return undefined;
}

/**
 * The refusal the real API of `format` answers to `body` when a tool call and
 * its result are not paired, or `undefined` when they all are.
 */
export function pairingRefusal(format: PairingFormat, body: unknown): Refusal | undefined {
  switch (format) {
    case "anthropic":
      return anthropicRule(body);
    case "responses":
      return responsesRule(body);
    case "openai":
      return chatRule(body);
    case "google":
      return googleRule(body);
  }
}
