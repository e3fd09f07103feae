// Tests for the scripted model server, using plain fetch (no AI SDK) so that a
// failure here points at the server, not at a provider package.

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { type ModelServer, startModelServer } from "./model-server.ts";

type SseEvent = { event?: string; data: string };

/** Split an SSE body into events (blank-line separated; `event:` and `data:` fields). */
function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.split("\n\n")) {
    if (block.trim() === "") continue;
    const ev: SseEvent = { data: "" };
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith("event:")) ev.event = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
    }
    ev.data = data.join("\n");
    events.push(ev);
  }
  return events;
}

function post(url: string, body: unknown, init: RequestInit = {}): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": "test-key" },
    body: JSON.stringify(body),
    ...init,
  });
}

const openaiBody = (extra: object = {}) => ({
  model: "mock-small",
  messages: [{ role: "user", content: "hi" }],
  ...extra,
});
const anthropicBody = (extra: object = {}) => ({
  model: "mock-large",
  max_tokens: 100,
  messages: [{ role: "user", content: "hi" }],
  ...extra,
});
const googleBody = (extra: object = {}) => ({
  contents: [{ role: "user", parts: [{ text: "hi" }] }],
  systemInstruction: { parts: [{ text: "be brief" }] },
  generationConfig: { maxOutputTokens: 100 },
  ...extra,
});

describe("model server", () => {
  let srv: ModelServer;
  let chat: string;
  let messages: string;
  let gen: string;
  let streamGen: string;

  before(async () => {
    srv = await startModelServer();
    chat = `${srv.url}/v1/chat/completions`;
    messages = `${srv.url}/v1/messages`;
    gen = `${srv.url}/v1beta/models/gemini-test:generateContent`;
    streamGen = `${srv.url}/v1beta/models/gemini-test:streamGenerateContent?alt=sse`;
  });
  after(async () => {
    await srv.close();
  });
  /** Each wire format's streaming route with a body for it. */
  // Gemini streams by its method: a `stream` field would be an unknown one.
  const streamingRoutes = () =>
    [[chat, openaiBody], [messages, anthropicBody], [
      streamGen,
      (_: object) => googleBody(),
    ]] as const;

  describe("openai format", () => {
    test("non-streaming text answer", async () => {
      srv.script([{ text: "Hello there", usage: { input: 7, output: 3 } }]);
      const res = await post(chat, openaiBody());
      assert.equal(res.status, 200);
      const json = await res.json();
      assert.equal(json.object, "chat.completion");
      assert.equal(json.model, "mock-small");
      assert.equal(json.choices[0].message.role, "assistant");
      assert.equal(json.choices[0].message.content, "Hello there");
      assert.equal(json.choices[0].finish_reason, "stop");
      assert.equal(json.usage.prompt_tokens, 7);
      assert.equal(json.usage.completion_tokens, 3);
      assert.equal(srv.remaining(), 0);
    });

    test("non-streaming tool call with auto id and finish tool_calls", async () => {
      srv.script([{ toolCalls: [{ name: "read", args: { path: "a.txt" } }] }]);
      const json = await (await post(chat, openaiBody())).json();
      const msg = json.choices[0].message;
      assert.equal(msg.content, null);
      assert.equal(msg.tool_calls.length, 1);
      assert.match(msg.tool_calls[0].id, /^call_\d+$/);
      assert.equal(msg.tool_calls[0].type, "function");
      assert.equal(msg.tool_calls[0].function.name, "read");
      assert.deepEqual(JSON.parse(msg.tool_calls[0].function.arguments), { path: "a.txt" });
      assert.equal(json.choices[0].finish_reason, "tool_calls");
    });

    test("streaming text, reasoning and a tool call reassembled from chunks", async () => {
      srv.script([{
        reasoning: "think first",
        text: "Let me look",
        toolCalls: [{ id: "call_fixed", name: "grep", args: { pattern: "foo", path: "src" } }],
      }]);
      const res = await post(chat, openaiBody({ stream: true }));
      assert.equal(res.status, 200);
      assert.match(res.headers.get("content-type") ?? "", /^text\/event-stream/);
      const events = parseSse(await res.text());
      assert.equal(events.at(-1)?.data, "[DONE]");
      const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data));
      for (const c of chunks) assert.equal(c.object, "chat.completion.chunk");

      let text = "";
      let reasoning = "";
      const calls: { id?: string; name?: string; args: string }[] = [];
      let argFragments = 0;
      let finish: string | null = null;
      for (const c of chunks) {
        const choice = c.choices[0];
        if (choice.finish_reason) finish = choice.finish_reason;
        const d = choice.delta;
        if (d.content) text += d.content;
        if (d.reasoning_content) reasoning += d.reasoning_content;
        for (const tc of d.tool_calls ?? []) {
          const slot = calls[tc.index] ??= { args: "" };
          if (tc.id) slot.id = tc.id;
          if (tc.function?.name) slot.name = tc.function.name;
          if (tc.function?.arguments !== undefined) {
            slot.args += tc.function.arguments;
            argFragments++;
          }
        }
      }
      assert.equal(text, "Let me look");
      assert.equal(reasoning, "think first");
      assert.equal(calls.length, 1);
      assert.equal(calls[0].id, "call_fixed");
      assert.equal(calls[0].name, "grep");
      assert.equal(argFragments, 2, "arguments arrive in two fragments");
      assert.deepEqual(JSON.parse(calls[0].args), { pattern: "foo", path: "src" });
      assert.equal(finish, "tool_calls");
      assert.ok(!chunks.some((c) => c.usage), "no usage chunk unless include_usage");
    });

    test("streaming with include_usage sends a usage chunk before [DONE]", async () => {
      srv.script([{ text: "ok", usage: { input: 11, output: 2 }, finish: "length" }]);
      const res = await post(
        chat,
        openaiBody({ stream: true, stream_options: { include_usage: true } }),
      );
      const events = parseSse(await res.text());
      assert.equal(events.at(-1)?.data, "[DONE]");
      const usageChunk = JSON.parse(events.at(-2)!.data);
      assert.deepEqual(usageChunk.choices, []);
      assert.equal(usageChunk.usage.prompt_tokens, 11);
      assert.equal(usageChunk.usage.completion_tokens, 2);
      const finishChunk = JSON.parse(events.at(-3)!.data);
      assert.equal(finishChunk.choices[0].finish_reason, "length");
    });
  });

  describe("anthropic format", () => {
    test("non-streaming text, thinking and tool_use blocks", async () => {
      srv.script([{
        reasoning: "hmm",
        text: "Calling a tool",
        toolCalls: [{ name: "ls", args: { path: "." } }],
        usage: { input: 20, output: 9 },
      }]);
      const res = await post(messages, anthropicBody());
      assert.equal(res.status, 200);
      const json = await res.json();
      assert.equal(json.type, "message");
      assert.equal(json.role, "assistant");
      assert.deepEqual(json.content.map((b: { type: string }) => b.type), [
        "thinking",
        "text",
        "tool_use",
      ]);
      assert.equal(json.content[0].thinking, "hmm");
      assert.equal(json.content[1].text, "Calling a tool");
      assert.match(json.content[2].id, /^call_\d+$/);
      assert.equal(json.content[2].name, "ls");
      assert.deepEqual(json.content[2].input, { path: "." });
      assert.equal(json.stop_reason, "tool_use");
      assert.deepEqual(json.usage, { input_tokens: 20, output_tokens: 9 });
    });

    test("non-streaming finish mapping: end_turn and max_tokens", async () => {
      srv.script([{ text: "a" }, { text: "b", finish: "length" }]);
      assert.equal((await (await post(messages, anthropicBody())).json()).stop_reason, "end_turn");
      assert.equal(
        (await (await post(messages, anthropicBody())).json()).stop_reason,
        "max_tokens",
      );
    });

    test("streaming events with text, thinking and a reassembled tool call", async () => {
      srv.script([{
        reasoning: "let me think",
        text: "Hello world",
        toolCalls: [{ id: "toolu_1", name: "bash", args: { command: "echo hi" } }],
        usage: { input: 30, output: 12 },
      }]);
      const res = await post(messages, anthropicBody({ stream: true }));
      assert.equal(res.status, 200);
      assert.match(res.headers.get("content-type") ?? "", /^text\/event-stream/);
      const events = parseSse(await res.text());
      for (const e of events) {
        const data = JSON.parse(e.data);
        assert.equal(data.type, e.event, "event: name matches data.type");
      }
      const names = events.map((e) => e.event);
      assert.equal(names[0], "message_start");
      assert.equal(names.at(-2), "message_delta");
      assert.equal(names.at(-1), "message_stop");

      const blocks: { type: string; id?: string; name?: string; acc: string; deltas: number }[] =
        [];
      let stopReason = "";
      let usage: { input_tokens?: number; output_tokens?: number } = {};
      let open = 0;
      for (const e of events) {
        const d = JSON.parse(e.data);
        if (d.type === "message_start") assert.equal(d.message.usage.input_tokens, 30);
        if (d.type === "content_block_start") {
          open++;
          blocks[d.index] = { ...d.content_block, acc: "", deltas: 0 };
        }
        if (d.type === "content_block_stop") open--;
        if (d.type === "content_block_delta") {
          const b = blocks[d.index];
          if (d.delta.type === "text_delta") b.acc += d.delta.text;
          if (d.delta.type === "thinking_delta") b.acc += d.delta.thinking;
          if (d.delta.type === "input_json_delta") {
            b.acc += d.delta.partial_json;
            b.deltas++;
          }
        }
        if (d.type === "message_delta") {
          stopReason = d.delta.stop_reason;
          usage = d.usage;
        }
      }
      assert.equal(open, 0, "every block was stopped");
      assert.deepEqual(blocks.map((b) => b.type), ["thinking", "text", "tool_use"]);
      assert.equal(blocks[0].acc, "let me think");
      assert.equal(blocks[1].acc, "Hello world");
      assert.equal(blocks[2].id, "toolu_1");
      assert.equal(blocks[2].name, "bash");
      assert.equal(blocks[2].deltas, 2, "partial_json arrives in two fragments");
      assert.deepEqual(JSON.parse(blocks[2].acc), { command: "echo hi" });
      assert.equal(stopReason, "tool_use");
      assert.equal(usage.output_tokens, 12);
    });
  });

  describe("google format", () => {
    test("non-streaming text, thought and functionCall parts", async () => {
      srv.script([{
        reasoning: "hmm",
        text: "Calling a tool",
        toolCalls: [{ id: "ignored", name: "ls", args: { path: "." } }],
        usage: { input: 20, output: 9 },
      }]);
      const res = await post(gen, googleBody());
      assert.equal(res.status, 200);
      assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
      const json = await res.json();
      assert.equal(json.candidates.length, 1);
      const cand = json.candidates[0];
      assert.equal(cand.content.role, "model");
      // A Gemini 3 model signs its first function call with an opaque token.
      const signature = cand.content.parts[2].thoughtSignature;
      assert.equal(typeof signature, "string");
      assert.deepEqual(cand.content.parts, [
        { text: "hmm", thought: true },
        { text: "Calling a tool" },
        { functionCall: { name: "ls", args: { path: "." } }, thoughtSignature: signature },
      ]);
      // Tool calls end with STOP too; Gemini has no call ids.
      assert.equal(cand.finishReason, "STOP");
      assert.deepEqual(json.usageMetadata, {
        promptTokenCount: 20,
        candidatesTokenCount: 9,
        totalTokenCount: 29,
      });
      assert.equal(json.modelVersion, "gemini-test");
      const rec = srv.requests.at(-1)!;
      assert.equal(rec.format, "google");
      assert.equal(rec.stream, false);
      assert.equal(rec.path, "/v1beta/models/gemini-test:generateContent");
      assert.equal(rec.query, "");
      assert.deepEqual(rec.body.systemInstruction, { parts: [{ text: "be brief" }] });
    });

    test("non-streaming finish mapping: STOP and MAX_TOKENS", async () => {
      srv.script([{ text: "a" }, { text: "b", finish: "length" }]);
      const a = await (await post(gen, googleBody())).json();
      assert.equal(a.candidates[0].finishReason, "STOP");
      assert.deepEqual(a.candidates[0].content.parts, [{ text: "a" }]);
      const b = await (await post(gen, googleBody())).json();
      assert.equal(b.candidates[0].finishReason, "MAX_TOKENS");
    });

    test("streaming text and thoughts in two chunks each; finish and usage at the end", async () => {
      srv.script([{
        reasoning: "let me think",
        text: "Hello world",
        usage: { input: 30, output: 12 },
      }]);
      const res = await post(streamGen, googleBody());
      assert.equal(res.status, 200);
      assert.match(res.headers.get("content-type") ?? "", /^text\/event-stream/);
      const events = parseSse(await res.text());
      assert.ok(events.every((e) => e.event === undefined), "no event: lines");
      assert.ok(!events.some((e) => e.data === "[DONE]"), "no [DONE] sentinel");
      const chunks = events.map((e) => JSON.parse(e.data));
      let text = "";
      let thought = "";
      let textChunks = 0;
      let thoughtChunks = 0;
      for (const c of chunks) {
        assert.equal(c.candidates[0].content.role, "model");
        for (const p of c.candidates[0].content.parts) {
          if (p.thought) {
            thought += p.text;
            thoughtChunks++;
          } else {
            text += p.text;
            textChunks++;
          }
        }
      }
      assert.equal(thought, "let me think");
      assert.equal(text, "Hello world");
      assert.equal(thoughtChunks, 2);
      assert.equal(textChunks, 2);
      const last = chunks.at(-1);
      assert.equal(last.candidates[0].finishReason, "STOP");
      assert.deepEqual(last.usageMetadata, {
        promptTokenCount: 30,
        candidatesTokenCount: 12,
        totalTokenCount: 42,
      });
      for (const c of chunks.slice(0, -1)) {
        assert.equal(c.candidates[0].finishReason, undefined);
        assert.equal(c.usageMetadata, undefined);
      }
      const rec = srv.requests.at(-1)!;
      assert.equal(rec.format, "google");
      assert.equal(rec.stream, true);
      assert.equal(rec.path, "/v1beta/models/gemini-test:streamGenerateContent");
      assert.equal(rec.query, "alt=sse");
    });

    test("streaming tool calls arrive whole, without ids, and end with STOP", async () => {
      srv.script([{
        toolCalls: [
          { name: "grep", args: { pattern: "foo", path: "src" } },
          { name: "bash", args: '{"command": "echo' },
        ],
      }]);
      const res = await post(streamGen, googleBody());
      const chunks = parseSse(await res.text()).map((e) => JSON.parse(e.data));
      assert.equal(chunks.length, 1);
      const signature = chunks[0].candidates[0].content.parts[0].thoughtSignature;
      assert.equal(typeof signature, "string");
      assert.deepEqual(chunks[0].candidates[0].content.parts, [
        {
          functionCall: { name: "grep", args: { pattern: "foo", path: "src" } },
          thoughtSignature: signature,
        },
        // Arguments that are not JSON are sent as the string itself.
        { functionCall: { name: "bash", args: '{"command": "echo' } },
      ]);
      assert.equal(chunks[0].candidates[0].finishReason, "STOP");
      assert.equal(chunks[0].usageMetadata.totalTokenCount, 15);
    });

    test("an empty turn streams one chunk with no parts", async () => {
      srv.script([{ finish: "length" }]);
      const chunks = parseSse(await (await post(streamGen, googleBody())).text())
        .map((e) => JSON.parse(e.data));
      assert.equal(chunks.length, 1);
      assert.deepEqual(chunks[0].candidates[0].content.parts, []);
      assert.equal(chunks[0].candidates[0].finishReason, "MAX_TOKENS");
    });

    test("streamGenerateContent without alt=sse is a 400, and consumes no turn", async () => {
      srv.script([{ text: "kept" }]);
      const res = await post(streamGen.replace("?alt=sse", ""), googleBody());
      assert.equal(res.status, 400);
      const json = await res.json();
      assert.equal(json.error.status, "INVALID_ARGUMENT");
      assert.match(json.error.message, /alt=sse/);
      assert.equal(srv.remaining(), 1);
      srv.script([]);
    });

    test("faults answer Google's error shape", async () => {
      srv.script([{ fault: "500" }, { fault: "429", retryAfter: 2 }]);
      const a = await post(streamGen, googleBody());
      assert.equal(a.status, 500);
      assert.deepEqual(await a.json(), {
        error: { code: 500, message: "model server: scripted internal error", status: "INTERNAL" },
      });
      const b = await post(gen, googleBody());
      assert.equal(b.status, 429);
      assert.equal(b.headers.get("retry-after"), "2");
      const bj = await b.json();
      assert.equal(bj.error.code, 429);
      assert.equal(bj.error.status, "RESOURCE_EXHAUSTED");
      assert.equal(typeof bj.error.message, "string");
    });

    test("unknown /v1beta paths are 404 in Google's shape; GET /v1beta/models lists models", async () => {
      const start = srv.requests.length;
      const missing = await post(`${srv.url}/v1beta/models/gemini-test:countTokens`, googleBody());
      assert.equal(missing.status, 404);
      const mj = await missing.json();
      assert.equal(mj.error.status, "NOT_FOUND");
      assert.match(mj.error.message, /no route/);
      const models = await (await fetch(`${srv.url}/v1beta/models`)).json();
      assert.match(models.models[0].name, /^models\//);
      assert.equal(srv.requests.length, start);
    });
  });

  describe("faults", () => {
    test("500 answers a JSON error body", async () => {
      srv.script([{ fault: "500" }, { fault: "500" }]);
      const a = await post(chat, openaiBody());
      assert.equal(a.status, 500);
      assert.equal(typeof (await a.json()).error.message, "string");
      const b = await post(messages, anthropicBody());
      assert.equal(b.status, 500);
      const bj = await b.json();
      assert.equal(bj.type, "error");
      assert.equal(bj.error.type, "api_error");
    });

    test("429 carries a retry-after header", async () => {
      srv.script([{ fault: "429", retryAfter: 3 }]);
      const res = await post(messages, anthropicBody({ stream: true }));
      assert.equal(res.status, 429);
      assert.equal(res.headers.get("retry-after"), "3");
      assert.equal((await res.json()).error.type, "rate_limit_error");
    });

    test("stall never answers; an AbortController timeout ends the wait", async () => {
      srv.script([{ fault: "stall" }]);
      const before = srv.requests.length;
      const ctrl = new AbortController();
      const timer = setTimeout(() => ctrl.abort(), 300);
      try {
        await assert.rejects(post(chat, openaiBody({ stream: true }), { signal: ctrl.signal }));
      } finally {
        clearTimeout(timer);
      }
      assert.equal(srv.requests.length, before + 1, "the stalled request was recorded");
    });

    test("malformed SSE: 200 event-stream whose data lines are not all valid JSON", async () => {
      for (const [url, body] of streamingRoutes()) {
        srv.script([{ fault: "malformed-sse" }]);
        const res = await post(url, body({ stream: true }));
        assert.equal(res.status, 200);
        assert.match(res.headers.get("content-type") ?? "", /^text\/event-stream/);
        const events = parseSse(await res.text());
        assert.ok(events.length > 0);
        const broken = events.filter((e) => {
          try {
            JSON.parse(e.data);
            return false;
          } catch {
            return true;
          }
        });
        assert.ok(broken.length > 0, "at least one event is not valid JSON");
        assert.ok(!events.some((e) => e.data === "[DONE]"));
      }
    });

    test("disconnect: the stream starts, then reading the body rejects", async () => {
      for (const [url, body] of streamingRoutes()) {
        srv.script([{ fault: "disconnect" }]);
        const res = await post(url, body({ stream: true }));
        assert.equal(res.status, 200);
        await assert.rejects(res.text());
      }
    });
  });

  describe("queue and recording", () => {
    test("empty queue answers 500 'no scripted turn left'", async () => {
      srv.script([]);
      const a = await post(chat, openaiBody());
      assert.equal(a.status, 500);
      assert.match((await a.json()).error.message, /model server: no scripted turn left/);
      const b = await post(messages, anthropicBody({ stream: true }));
      assert.equal(b.status, 500);
      assert.match((await b.json()).error.message, /model server: no scripted turn left/);
      const c = await post(streamGen, googleBody());
      assert.equal(c.status, 500);
      const cj = await c.json();
      assert.match(cj.error.message, /model server: no scripted turn left/);
      assert.equal(cj.error.status, "INTERNAL");
    });

    test("push appends, script replaces, remaining counts", async () => {
      srv.script([{ text: "one" }]);
      srv.push({ text: "two" }, { text: "three" });
      assert.equal(srv.remaining(), 3);
      srv.script([{ text: "only" }]);
      assert.equal(srv.remaining(), 1);
      const json = await (await post(chat, openaiBody())).json();
      assert.equal(json.choices[0].message.content, "only");
      assert.equal(srv.remaining(), 0);
    });

    test("requests are recorded with parsed body, lower-cased headers, format and stream", async () => {
      srv.script([{ text: "a" }, { fault: "500" }]);
      const start = srv.requests.length;
      await (await post(chat, openaiBody({ stream: true }), {
        headers: { "Content-Type": "application/json", "Authorization": "Bearer sk-test" },
      })).text();
      await (await post(messages, anthropicBody(), {
        headers: { "content-type": "application/json", "X-Api-Key": "k", "Anthropic-Version": "v" },
      })).text();
      const [a, b] = srv.requests.slice(start);
      assert.equal(a.path, "/v1/chat/completions");
      assert.equal(a.format, "openai");
      assert.equal(a.stream, true);
      assert.equal(a.headers["authorization"], "Bearer sk-test");
      assert.deepEqual(a.body.messages, [{ role: "user", content: "hi" }]);
      assert.equal(b.path, "/v1/messages");
      assert.equal(b.format, "anthropic");
      assert.equal(b.stream, false);
      assert.equal(b.headers["x-api-key"], "k");
      assert.equal(b.headers["anthropic-version"], "v");
      assert.equal(b.body.max_tokens, 100);
    });

    test("GET /v1/models lists models; unknown paths are 404 JSON and not recorded", async () => {
      const start = srv.requests.length;
      const models = await (await fetch(`${srv.url}/v1/models`)).json();
      assert.equal(models.object, "list");
      assert.ok(models.data.length > 0);
      assert.equal(typeof models.data[0].id, "string");
      const missing = await fetch(`${srv.url}/v1/nope`);
      assert.equal(missing.status, 404);
      assert.match((await missing.json()).error.message, /no route/);
      assert.equal(srv.requests.length, start);
    });
  });
});

describe("model server options", () => {
  test("respond is asked when the queue is empty, with the request index", async () => {
    const seen: number[] = [];
    const srv = await startModelServer({
      turns: [{ text: "scripted" }],
      respond: (req, index) => {
        seen.push(index);
        return { text: `echo ${req.body.messages.at(-1).content}` };
      },
    });
    try {
      const url = `${srv.url}/v1/chat/completions`;
      const first = await (await post(url, openaiBody())).json();
      assert.equal(first.choices[0].message.content, "scripted");
      const second = await (await post(url, openaiBody())).json();
      assert.equal(second.choices[0].message.content, "echo hi");
      assert.deepEqual(seen, [1]);
    } finally {
      await srv.close();
    }
  });

  test("holdTogether answers only once that many requests are held", async () => {
    const srv = await startModelServer({
      respond: () => ({ text: "together", holdTogether: 3 }),
    });
    try {
      const url = `${srv.url}/v1/chat/completions`;
      const order: string[] = [];
      const ask = async (name: string) => {
        const r = await (await post(url, openaiBody())).json();
        order.push(`${name} ${r.choices[0].message.content}`);
      };
      const first = ask("a");
      // Two requests alone are held: neither is answered yet.
      const second = ask("b");
      while (srv.requests.length < 2) await new Promise((r) => setTimeout(r, 5));
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(order.length, 0, "nothing answered yet");
      await Promise.all([first, second, ask("c")]);
      assert.deepEqual(order.map((o) => o.split(" ")[1]), ["together", "together", "together"]);
      assert.equal(srv.peakInFlight(), 3);
    } finally {
      await srv.close();
    }
  });

  test("resetPeak counts afresh from the requests being answered now", async () => {
    const srv = await startModelServer({
      respond: () => ({ text: "together", holdTogether: 2 }),
    });
    try {
      const url = `${srv.url}/v1/chat/completions`;
      const ask = () => post(url, openaiBody()).then((r) => r.text());
      await Promise.all([ask(), ask()]);
      assert.equal(srv.peakInFlight(), 2);
      srv.resetPeak();
      assert.equal(srv.peakInFlight(), 0, "nothing is being answered now");
      srv.script([{ text: "alone" }]);
      await ask();
      assert.equal(srv.peakInFlight(), 1, "the two held together before are forgotten");
      // A request still being answered counts at once.
      srv.script([{ fault: "stall" }]);
      const stalled = post(url, openaiBody()).then(() => "resolved", () => "rejected");
      while (srv.requests.length < 4) await new Promise((r) => setTimeout(r, 10));
      srv.resetPeak();
      assert.equal(srv.peakInFlight(), 1);
      await srv.close();
      assert.equal(await stalled, "rejected");
    } finally {
      await srv.close();
    }
  });

  test("close() ends a stalled connection", async () => {
    const srv = await startModelServer({ turns: [{ fault: "stall" }] });
    // Settle into a value right away: Deno reports a rejection that has no handler
    // yet (while we wait below) as an uncaught error.
    const outcome = post(`${srv.url}/v1/messages`, anthropicBody()).then(
      (res) => `resolved ${res.status}`,
      () => "rejected",
    );
    // Wait until the server has the request, then close underneath it.
    while (srv.requests.length === 0) await new Promise((r) => setTimeout(r, 10));
    await srv.close();
    assert.equal(await outcome, "rejected");
  });
});
