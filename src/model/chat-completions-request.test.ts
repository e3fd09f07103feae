// The Chat Completions request body: messages, tools, settings and options.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import { argumentsText, chatMessages, chatRequestBody } from "./chat-completions-request.ts";

const at = { providerName: "local", includeUsage: true };

describe("chatMessages", () => {
  test("system, one user text as a string, several as parts", () => {
    const prompt: LanguageModelV4Prompt = [
      { role: "system", content: "Be brief." },
      { role: "user", content: [{ type: "text", text: "hi" }] },
      { role: "user", content: [{ type: "text", text: "a" }, { type: "text", text: "b" }] },
    ];
    assert.deepEqual(chatMessages(prompt), [
      { role: "system", content: "Be brief." },
      { role: "user", content: "hi" },
      { role: "user", content: [{ type: "text", text: "a" }, { type: "text", text: "b" }] },
    ]);
  });
  test("an assistant's text, reasoning and tool calls; content null beside calls", () => {
    const prompt: LanguageModelV4Prompt = [
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "think" },
          { type: "tool-call", toolCallId: "c1", toolName: "read", input: { path: "a" } },
          { type: "tool-call", toolCallId: "c2", toolName: "ls", input: '{"path":"."}' },
        ],
      },
      { role: "assistant", content: [{ type: "text", text: "done" }] },
    ];
    assert.deepEqual(chatMessages(prompt), [
      {
        role: "assistant",
        content: null,
        reasoning_content: "think",
        tool_calls: [
          { id: "c1", type: "function", function: { name: "read", arguments: '{"path":"a"}' } },
          { id: "c2", type: "function", function: { name: "ls", arguments: '{"path":"."}' } },
        ],
      },
      { role: "assistant", content: "done" },
    ]);
  });
  test("one tool message per result: text as it is, JSON as JSON text", () => {
    const prompt: LanguageModelV4Prompt = [{
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "c1",
          toolName: "read",
          output: { type: "text", value: "x" },
        },
        {
          type: "tool-result",
          toolCallId: "c2",
          toolName: "ls",
          output: { type: "error-text", value: "no such folder" },
        },
        {
          type: "tool-result",
          toolCallId: "c3",
          toolName: "t",
          output: { type: "json", value: { a: 1 } },
        },
      ],
    }];
    assert.deepEqual(chatMessages(prompt), [
      { role: "tool", tool_call_id: "c1", content: "x" },
      { role: "tool", tool_call_id: "c2", content: "no such folder" },
      { role: "tool", tool_call_id: "c3", content: '{"a":1}' },
    ]);
  });
  test("a part the format cannot carry is an error naming it", () => {
    const prompt = [{
      role: "user",
      content: [{ type: "file", mediaType: "image/png", data: { type: "data", data: "" } }],
    }] as unknown as LanguageModelV4Prompt;
    assert.throws(() => chatMessages(prompt), /cannot carry a file part/);
  });
});

describe("argumentsText", () => {
  test("JSON text stays, other text and values become JSON", () => {
    assert.equal(argumentsText('{"a":1}'), '{"a":1}');
    assert.equal(argumentsText("not json"), '"not json"');
    assert.equal(argumentsText({ a: 1 }), '{"a":1}');
    assert.equal(argumentsText(undefined), "{}");
  });
});

describe("chatRequestBody", () => {
  const prompt: LanguageModelV4Prompt = [{ role: "user", content: [{ type: "text", text: "hi" }] }];
  const tool = {
    type: "function" as const,
    name: "submit_result",
    description: "Submit.",
    inputSchema: { type: "object" as const, properties: {} },
  };
  test("settings, the provider's effort and other options, tools and the stream fields", () => {
    const body = chatRequestBody("m", {
      prompt,
      maxOutputTokens: 100,
      temperature: 0.2,
      topP: 0.9,
      providerOptions: { local: { reasoningEffort: "low", keep_alive: "5m" }, other: { x: 1 } },
      tools: [tool],
      toolChoice: { type: "tool", toolName: "submit_result" },
    }, at);
    assert.deepEqual(body, {
      model: "m",
      max_tokens: 100,
      temperature: 0.2,
      top_p: 0.9,
      keep_alive: "5m",
      reasoning_effort: "low",
      messages: [{ role: "user", content: "hi" }],
      tools: [{
        type: "function",
        function: { name: "submit_result", description: "Submit.", parameters: tool.inputSchema },
      }],
      tool_choice: { type: "function", function: { name: "submit_result" } },
      stream: true,
      stream_options: { include_usage: true },
    });
  });
  test("an automatic choice by name; no tools, no tool fields", () => {
    assert.equal(
      chatRequestBody("m", { prompt, tools: [tool], toolChoice: { type: "auto" } }, at).tool_choice,
      "auto",
    );
    const bare = chatRequestBody("m", { prompt, toolChoice: { type: "auto" } }, at);
    assert.equal("tools" in bare || "tool_choice" in bare, false);
  });
  test("no stream_options once the server refused them; top_k is never sent", () => {
    const body = chatRequestBody("m", { prompt, ...{ topK: 5 } }, { ...at, includeUsage: false });
    assert.equal("stream_options" in body, false);
    assert.equal("top_k" in body, false);
    assert.equal(body.stream, true);
  });
  test("the portable reasoning option when the provider names no effort", () => {
    assert.equal(chatRequestBody("m", { prompt, reasoning: "high" }, at).reasoning_effort, "high");
    assert.equal(
      chatRequestBody("m", { prompt, reasoning: "provider-default" }, at).reasoning_effort,
      undefined,
    );
    assert.equal(
      chatRequestBody("m", {
        prompt,
        reasoning: "high",
        providerOptions: { local: { reasoningEffort: "low" } },
      }, at).reasoning_effort,
      "low",
    );
  });
});
