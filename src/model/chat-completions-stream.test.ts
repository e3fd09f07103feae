// Reading a streamed Chat Completions answer as the provider interface's parts.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { ChatStreamReader, chatUsage } from "./chat-completions-stream.ts";

/** Every part of `events` (chunk objects or raw data lines), fed in pieces of `size` characters. */
function read(events: (object | string)[], size = Infinity): LanguageModelV4StreamPart[] {
  const text = events.map((e) => `data: ${typeof e === "string" ? e : JSON.stringify(e)}\n\n`)
    .join("");
  const reader = new ChatStreamReader();
  const out: LanguageModelV4StreamPart[] = [];
  const step = Number.isFinite(size) ? size : text.length;
  for (let i = 0; i < text.length; i += step) out.push(...reader.push(text.slice(i, i + step)));
  out.push(...reader.end());
  return out;
}

const delta = (d: object, finish?: string) => ({
  choices: [{ index: 0, delta: d, ...(finish ? { finish_reason: finish } : {}) }],
});

describe("ChatStreamReader", () => {
  test("text, then the finish with usage (cached tokens included)", () => {
    const parts = read([
      delta({ role: "assistant", content: "he" }),
      delta({ content: "llo" }),
      delta({}, "stop"),
      {
        choices: [],
        usage: {
          prompt_tokens: 10,
          completion_tokens: 2,
          prompt_tokens_details: { cached_tokens: 4 },
        },
      },
      "[DONE]",
    ]);
    assert.deepEqual(parts.slice(0, 4), [
      { type: "text-start", id: "txt-0" },
      { type: "text-delta", id: "txt-0", delta: "he" },
      { type: "text-delta", id: "txt-0", delta: "llo" },
      { type: "text-end", id: "txt-0" },
    ]);
    const finish = parts[4] as Extract<LanguageModelV4StreamPart, { type: "finish" }>;
    assert.deepEqual(finish.finishReason, { unified: "stop", raw: "stop" });
    assert.equal(finish.usage.inputTokens.total, 10);
    assert.equal(finish.usage.inputTokens.cacheRead, 4);
    assert.equal(finish.usage.inputTokens.noCache, 6);
    assert.equal(finish.usage.outputTokens.total, 2);
  });
  test("the same parts whatever the pieces the answer arrives in", () => {
    const events = [
      delta({ reasoning_content: "hmm" }),
      delta({ content: "ok" }),
      delta({
        tool_calls: [{ index: 0, id: "c1", function: { name: "read", arguments: '{"pa' } }],
      }),
      delta({ tool_calls: [{ index: 0, function: { arguments: 'th":"a"}' } }] }, "tool_calls"),
      "[DONE]",
    ];
    const whole = read(events);
    for (const size of [1, 3, 17]) assert.deepEqual(read(events, size), whole, `pieces of ${size}`);
    assert.deepEqual(whole.map((p) => p.type), [
      "reasoning-start",
      "reasoning-delta",
      "reasoning-end",
      "text-start",
      "text-delta",
      "tool-input-start",
      "tool-input-delta",
      "tool-input-delta",
      "text-end",
      "tool-input-end",
      "tool-call",
      "finish",
    ]);
    assert.deepEqual(whole.find((p) => p.type === "tool-call"), {
      type: "tool-call",
      toolCallId: "c1",
      toolName: "read",
      input: '{"path":"a"}',
    });
  });
  test("Ollama's `reasoning`, CRLF lines and comments", () => {
    const reader = new ChatStreamReader();
    const parts = [
      ...reader.push(": keep-alive\r\n\r\n"),
      ...reader.push('data: {"choices":[{"index":0,"delta":{"reasoning":"r"}}]}\r'),
      ...reader.push('\n\r\ndata: {"choices":[{"index":0,"delta":{"content":"t"}}]}\r\n\r\n'),
      ...reader.end(),
    ];
    assert.deepEqual(parts.filter((p) => p.type.endsWith("-delta")), [
      { type: "reasoning-delta", id: "reasoning-0", delta: "r" },
      { type: "text-delta", id: "txt-0", delta: "t" },
    ]);
  });
  test("several calls by index; a piece without index or id continues the last call", () => {
    const parts = read([
      delta({
        tool_calls: [
          { index: 0, id: "a", function: { name: "ls", arguments: "{}" } },
          { index: 1, id: "b", function: { name: "read", arguments: '{"path"' } },
        ],
      }),
      delta({ tool_calls: [{ function: { arguments: ':"x"}' } }] }, "tool_calls"),
    ]);
    assert.deepEqual(
      parts.filter((p) => p.type === "tool-call").map((p) => [p.toolCallId, p.input]),
      [
        ["a", "{}"],
        ["b", '{"path":"x"}'],
      ],
    );
  });
  test("a call without an id gets one; arguments as an object; empty arguments are {}", () => {
    const parts = read([
      delta({
        tool_calls: [
          { index: 0, function: { name: "ls", arguments: { path: "." } } },
          { index: 1, function: { name: "todo" } },
        ],
      }, "tool_calls"),
    ]);
    const calls = parts.filter((p) => p.type === "tool-call");
    assert.equal(calls.length, 2);
    assert.match(calls[0].toolCallId, /^call_/);
    assert.notEqual(calls[0].toolCallId, calls[1].toolCallId);
    assert.equal(calls[0].input, '{"path":"."}');
    assert.equal(calls[1].input, "{}");
  });
  test("an error chunk and a chunk that is not JSON are error parts", () => {
    const parts = read([{ error: { message: "overloaded", code: 503 } }, "{oops"]);
    const errors = parts.filter((p) => p.type === "error");
    assert.deepEqual(errors[0], {
      type: "error",
      error: { error: { message: "overloaded", code: 503 } },
    });
    assert.equal((errors[1].error as Error).name, "AI_JSONParseError");
    assert.match((errors[1].error as Error).message, /not JSON: \{oops/);
  });
  test("no finish reason is `other`; a length stop is `length`", () => {
    const none = read([delta({ content: "x" })]).at(-1);
    assert.deepEqual((none as { finishReason: unknown }).finishReason, {
      unified: "other",
      raw: undefined,
    });
    const cut = read([delta({ content: "x" }, "length")]).at(-1);
    assert.deepEqual((cut as { finishReason: unknown }).finishReason, {
      unified: "length",
      raw: "length",
    });
  });
});

describe("chatUsage", () => {
  test("reasoning tokens are output tokens; no usage is all unknown", () => {
    const u = chatUsage({
      prompt_tokens: 5,
      completion_tokens: 9,
      completion_tokens_details: { reasoning_tokens: 4 },
    });
    assert.deepEqual(u.outputTokens, { total: 9, text: 5, reasoning: 4 });
    assert.equal(chatUsage(undefined).inputTokens.total, undefined);
  });
});

describe("an event past the limit", () => {
  test("is one error part and is not kept; the events after it are read", () => {
    const reader = new ChatStreamReader();
    const piece = "x".repeat(1024 * 1024);
    const out = [...reader.push('data: {"choices":[{"index":0,"delta":{"content":"a')];
    for (let i = 0; i < 9; i++) out.push(...reader.push(piece));
    out.push(
      ...reader.push('"}}]}\n\ndata: {"choices":[{"index":0,"delta":{"content":"b"}}]}\n\n'),
    );
    out.push(...reader.end());
    const errors = out.filter((p) => p.type === "error");
    assert.equal(errors.length, 1);
    assert.match((errors[0].error as Error).message, /over 8 MiB; it was not read/);
    assert.deepEqual(out.filter((p) => p.type === "text-delta").map((p) => p.delta), ["b"]);
  });
  test("many small events in one large piece are all read", () => {
    const event = 'data: {"choices":[{"index":0,"delta":{"content":"' + "y".repeat(1000) +
      '"}}]}\n\n';
    const reader = new ChatStreamReader();
    const out = [...reader.push(event.repeat(10_000)), ...reader.end()];
    assert.equal(out.filter((p) => p.type === "error").length, 0);
    assert.equal(out.filter((p) => p.type === "text-delta").length, 10_000);
  });
});
