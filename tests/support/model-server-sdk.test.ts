// The scripted model server as the real provider packages read it: OpenAI's
// Responses API through `@ai-sdk/openai`'s responses model, and the cache usage
// of every wire format through each provider's usage mapping. A failure here
// means the server's wire format drifted from what the SDK parses.

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { LanguageModelV4, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { type ModelServer, startModelServer, type Turn } from "./model-server.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

const TOOLS = [{
  type: "function" as const,
  name: "grep",
  description: "search",
  inputSchema: { type: "object" as const, properties: { pattern: { type: "string" } } },
}];

const prompt = (text: string) => [
  { role: "system" as const, content: "Be brief." },
  { role: "user" as const, content: [{ type: "text" as const, text }] },
];

async function drain(model: LanguageModelV4, text = "hi", options: Any = {}) {
  const { stream } = await model.doStream({ prompt: prompt(text), tools: TOOLS, ...options });
  const parts: LanguageModelV4StreamPart[] = [];
  const reader = stream.getReader();
  for (;;) {
    const next = await reader.read();
    if (next.done) break;
    parts.push(next.value);
  }
  const errors = parts.filter((p) => p.type === "error");
  assert.deepEqual(errors, [], "no error parts");
  const text_ = parts.filter((p) => p.type === "text-delta").map((p: Any) => p.delta).join("");
  const reasoning = parts.filter((p) => p.type === "reasoning-delta").map((p: Any) => p.delta)
    .join("");
  const calls = parts.filter((p) => p.type === "tool-call") as Any[];
  const finish = parts.find((p) => p.type === "finish") as Any;
  return { text: text_, reasoning, calls, finish };
}

let srv: ModelServer;
before(async () => {
  srv = await startModelServer();
});
after(async () => {
  await srv.close();
});

const KEY = { apiKey: "k" };
const models = (): Record<string, LanguageModelV4> => ({
  responses: createOpenAI({ baseURL: `${srv.url}/v1`, ...KEY }).responses("gpt-test"),
  openai: createOpenAICompatible({
    name: "local",
    baseURL: `${srv.url}/v1`,
    ...KEY,
    includeUsage: true,
  })("mock-small"),
  anthropic: createAnthropic({ baseURL: `${srv.url}/v1`, ...KEY })("claude-test"),
  google: createGoogleGenerativeAI({ baseURL: `${srv.url}/v1beta`, ...KEY })("gemini-test"),
});

describe("Responses API through @ai-sdk/openai", () => {
  test("streamed text, reasoning summary and a tool call", async () => {
    srv.script([{
      reasoning: "look first",
      text: "Searching",
      toolCalls: [{ id: "call_r1", name: "grep", args: { pattern: "foo" } }],
      usage: { input: 30, output: 7, cacheRead: 20 },
    }]);
    const out = await drain(models().responses);
    const req = srv.requests.at(-1)!;
    assert.equal(req.path, "/v1/responses");
    assert.equal(req.format, "responses");
    assert.equal(req.stream, true);
    assert.equal(req.method, "POST");
    assert.equal(JSON.parse(req.raw).model, "gpt-test");
    assert.equal(out.text, "Searching");
    assert.equal(out.reasoning, "look first");
    assert.equal(out.calls.length, 1);
    assert.equal(out.calls[0].toolCallId, "call_r1");
    assert.equal(out.calls[0].toolName, "grep");
    assert.deepEqual(JSON.parse(out.calls[0].input), { pattern: "foo" });
    assert.equal(out.finish.finishReason.unified, "tool-calls");
    assert.equal(out.finish.usage.inputTokens.total, 30);
    assert.equal(out.finish.usage.inputTokens.cacheRead, 20);
    assert.equal(out.finish.usage.outputTokens.total, 7);
  });

  test("a truncated turn finishes with length", async () => {
    srv.script([{ text: "cut", finish: "length" }]);
    const out = await drain(models().responses);
    assert.equal(out.text, "cut");
    assert.equal(out.finish.finishReason.unified, "length");
  });

  test("non-streaming answer", async () => {
    srv.script([{ text: "plain", toolCalls: [{ name: "grep", args: { pattern: "x" } }] }]);
    const r = await models().responses.doGenerate({ prompt: prompt("hi"), tools: TOOLS });
    const kinds = r.content.map((c) => c.type);
    assert.deepEqual(kinds, ["text", "tool-call"]);
    assert.equal((r.content[0] as Any).text, "plain");
    assert.equal(srv.requests.at(-1)!.stream, false);
  });

  test("faults reach the client as errors", async () => {
    for (const fault of ["malformed-sse", "disconnect", "500"] as const) {
      srv.script([{ fault } as Turn]);
      await assert.rejects(drain(models().responses), `fault ${fault}`);
    }
  });
});

describe("scripted cache usage, as each provider reports it", () => {
  for (const name of ["responses", "openai", "anthropic", "google"]) {
    test(name, async () => {
      srv.script([{ text: "ok", usage: { input: 100, output: 5, cacheRead: 80, cacheWrite: 0 } }]);
      const out = await drain(models()[name]);
      assert.equal(out.finish.usage.inputTokens.total, 100, "input counts cached tokens");
      assert.equal(out.finish.usage.inputTokens.cacheRead, 80);
      assert.equal(srv.requests.at(-1)!.usage?.cacheRead, 80);
    });
  }

  test("anthropic cache writes", async () => {
    srv.script([{ text: "ok", usage: { input: 100, output: 5, cacheWrite: 60 } }]);
    const out = await drain(models().anthropic);
    assert.equal(out.finish.usage.inputTokens.total, 100);
    assert.equal(out.finish.usage.inputTokens.cacheWrite, 60);
    assert.equal(out.finish.usage.inputTokens.noCache, 40);
  });
});

describe("computed cache usage", () => {
  test("anthropic reads only what an earlier breakpoint wrote", async () => {
    const server = await startModelServer({ cache: "computed", respond: () => ({ text: "ok" }) });
    try {
      const model = createAnthropic({ baseURL: `${server.url}/v1`, ...KEY })("claude-test");
      const cc = { anthropic: { cacheControl: { type: "ephemeral" } } };
      const marked = (text: string) => [
        { role: "system" as const, content: "A long stable system prompt. ".repeat(50) },
        {
          role: "user" as const,
          content: [{ type: "text" as const, text }],
          providerOptions: cc,
        },
      ];
      const run = async (p: Any) => {
        const { stream } = await model.doStream({ prompt: p });
        const reader = stream.getReader();
        let finish: Any;
        for (;;) {
          const n = await reader.read();
          if (n.done) break;
          if (n.value.type === "finish") finish = n.value;
        }
        return finish.usage.inputTokens;
      };
      const first = await run(marked("question one"));
      assert.equal(first.cacheRead, 0);
      assert.ok(first.cacheWrite > 0, "the first request writes its prefix");
      const again = await run(marked("question one"));
      assert.equal(again.cacheRead, again.total, "the same prompt is read whole");
      const other = await run(marked("question two"));
      assert.equal(other.cacheRead, 0, "no breakpoint before the change: nothing to read");
      const moved = await run([
        { role: "system" as const, content: "A long stable system prompt. ".repeat(50) },
        { role: "user" as const, content: [{ type: "text" as const, text: "question one" }] },
        { role: "assistant" as const, content: [{ type: "text" as const, text: "an answer" }] },
        {
          role: "user" as const,
          content: [{ type: "text" as const, text: "question three" }],
          providerOptions: cc,
        },
      ]);
      assert.equal(moved.cacheRead, first.total, "a breakpoint's marker is not content");
      const bare = await run(prompt("question one"));
      assert.equal(bare.cacheRead, 0, "no breakpoints: nothing cached");
    } finally {
      await server.close();
    }
  });

  test("openai caches prefixes by prompt_cache_key", async () => {
    const server = await startModelServer({ cache: "computed", respond: () => ({ text: "ok" }) });
    try {
      const model = createOpenAI({ baseURL: `${server.url}/v1`, ...KEY }).responses("gpt-test");
      const opts = (key: string) => ({ providerOptions: { openai: { promptCacheKey: key } } });
      const a = await drain(model, "same", opts("task-1"));
      assert.equal(a.finish.usage.inputTokens.cacheRead, 0);
      const b = await drain(model, "same", opts("task-1"));
      assert.equal(b.finish.usage.inputTokens.cacheRead, b.finish.usage.inputTokens.total);
      const c = await drain(model, "same", opts("task-2"));
      assert.equal(c.finish.usage.inputTokens.cacheRead, 0, "another key, another cache");
      assert.equal(server.requests[0].body.prompt_cache_key, "task-1");
    } finally {
      await server.close();
    }
  });
});
