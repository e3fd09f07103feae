// streamTurn and the retry wrapper against the AI SDK's mock model (no network).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { convertArrayToReadableStream, MockLanguageModelV4 } from "ai/test";
import { callModelWithRetries, ModelCallError } from "./retries.ts";
import { streamTurn, type TurnOutputLimitError, type TurnRequest } from "./turn.ts";
import { IdleTimeoutError } from "../model/retry.ts";

const usage = {
  inputTokens: { total: 12, noCache: 12, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 4, text: 4, reasoning: undefined },
};

// deno-lint-ignore no-explicit-any
function streamOf(parts: any[]) {
  return {
    stream: convertArrayToReadableStream([{ type: "stream-start", warnings: [] }, ...parts]),
  };
}

function request(model: MockLanguageModelV4, extra: Partial<TurnRequest> = {}): TurnRequest {
  return {
    model,
    system: "sys",
    messages: [{ role: "user", content: "go" }],
    tools: [{
      name: "read",
      description: "Read",
      inputSchema: { type: "object", properties: { path: { type: "string" } } },
    }],
    providerOptions: {},
    signal: new AbortController().signal,
    idleTimeoutMs: 5000,
    onText: () => {},
    ...extra,
  };
}

describe("streamTurn", () => {
  test("streams text, collects tool calls and usage, returns the assistant messages", async () => {
    const model = new MockLanguageModelV4({
      doStream: streamOf([
        { type: "text-start", id: "t" },
        { type: "text-delta", id: "t", delta: "Hel" },
        { type: "text-delta", id: "t", delta: "lo" },
        { type: "text-end", id: "t" },
        { type: "tool-call", toolCallId: "c1", toolName: "read", input: '{"path":"a"}' },
        { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_use" }, usage },
      ]),
    });
    const deltas: string[] = [];
    const out = await streamTurn(request(model, { onText: (d) => deltas.push(d) }));
    assert.deepEqual(deltas, ["Hel", "lo"]);
    assert.equal(out.text, "Hello");
    assert.deepEqual(out.toolCalls, [{ id: "c1", name: "read", input: { path: "a" } }]);
    assert.deepEqual(out.usage, { input: 12, output: 4, cacheRead: 0, cacheWrite: 0 });
    assert.equal(out.finishReason, "tool-calls");
    assert.equal(out.messages.length, 1);
    assert.equal(out.messages[0].role, "assistant");
    // The system prompt and the tool definitions reached the model.
    const call = model.doStreamCalls[0];
    assert.deepEqual(call.prompt[0], { role: "system", content: "sys" });
    assert.deepEqual(call.tools?.map((t) => t.name), ["read"]);
  });

  test("cache reads and writes are reported; the tool choice is auto unless forced", async () => {
    const cachedUsage = {
      inputTokens: { total: 100, noCache: 10, cacheRead: 80, cacheWrite: 10 },
      outputTokens: { total: 4, text: 4, reasoning: undefined },
    };
    const parts = [{
      type: "finish",
      finishReason: { unified: "stop", raw: "end" },
      usage: cachedUsage,
    }];
    const model = new MockLanguageModelV4({ doStream: () => Promise.resolve(streamOf(parts)) });
    const out = await streamTurn(request(model));
    assert.deepEqual(out.usage, { input: 100, output: 4, cacheRead: 80, cacheWrite: 10 });
    await streamTurn(request(model, { controls: { forceTool: "read" } }));
    assert.deepEqual(model.doStreamCalls[0].toolChoice, { type: "auto" });
    assert.deepEqual(model.doStreamCalls[1].toolChoice, { type: "tool", toolName: "read" });
  });

  test("a narrowed force offers that tool alone with an automatic choice", async () => {
    const model = new MockLanguageModelV4({
      doStream: () =>
        Promise.resolve(streamOf([{
          type: "finish",
          finishReason: { unified: "stop", raw: "end" },
          usage: { inputTokens: { total: 1 }, outputTokens: { total: 1 } },
        }])),
    });
    const two = {
      tools: [
        { name: "read", description: "Read", inputSchema: { type: "object" as const } },
        { name: "submit_result", description: "Submit", inputSchema: { type: "object" as const } },
      ],
    };
    await streamTurn(
      request(model, { ...two, controls: { forceTool: "submit_result", narrow: true } }),
    );
    await streamTurn(request(model, { ...two, reasoning: "low", maxOutputTokens: 4096 }));
    assert.deepEqual(model.doStreamCalls[0].toolChoice, { type: "auto" });
    assert.deepEqual(model.doStreamCalls[0].tools?.map((t) => t.name), ["submit_result"]);
    assert.deepEqual(model.doStreamCalls[1].tools?.map((t) => t.name), ["read", "submit_result"]);
    assert.equal(model.doStreamCalls[1].reasoning, "low");
    assert.equal(model.doStreamCalls[1].maxOutputTokens, 4096);
  });

  test("a turn whose output passes the cap fails and stops reading", async () => {
    let pulled = 0;
    const model = new MockLanguageModelV4({
      doStream: () =>
        Promise.resolve({
          stream: new ReadableStream({
            pull(controller) {
              pulled++;
              if (pulled === 1) controller.enqueue({ type: "text-start", id: "t" });
              else controller.enqueue({ type: "text-delta", id: "t", delta: "x".repeat(400) });
            },
          }),
        }),
    });
    await assert.rejects(
      streamTurn(request(model, { controls: { maxOutputChars: 1000 } })),
      (err: TurnOutputLimitError) => {
        assert.equal(err.name, "TurnOutputLimitError");
        assert.match(err.message, /the model's turn passed .* MiB of output/);
        return true;
      },
    );
    assert.ok(pulled < 10, `stopped reading (pulled ${pulled} parts)`);
  });

  test("Anthropic breakpoints mark the last tool, the system prompt and the ends of the turns", async () => {
    const parts = [{ type: "finish", finishReason: { unified: "stop", raw: "end" }, usage }];
    const model = new MockLanguageModelV4({ doStream: () => Promise.resolve(streamOf(parts)) });
    await streamTurn(request(model, {
      breakpoints: true,
      messages: [
        { role: "user", content: "go" },
        { role: "assistant", content: "thinking" },
        { role: "user", content: "again" },
      ],
    }));
    const call = model.doStreamCalls[0];
    const cc = { anthropic: { cacheControl: { type: "ephemeral" } } };
    assert.deepEqual((call.tools?.at(-1) as { providerOptions?: unknown }).providerOptions, cc);
    assert.deepEqual(call.prompt.map((m) => m.providerOptions), [cc, cc, undefined, cc]);
    await streamTurn(request(model));
    assert.equal(model.doStreamCalls[1].prompt[0].providerOptions, undefined, "off by default");
  });

  test("a call of an unknown tool comes back marked invalid", async () => {
    const model = new MockLanguageModelV4({
      doStream: streamOf([
        { type: "tool-call", toolCallId: "c1", toolName: "write", input: "{}" },
        { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_use" }, usage },
      ]),
    });
    const out = await streamTurn(request(model));
    assert.equal(out.toolCalls[0].name, "write");
    assert.ok(out.toolCalls[0].invalid);
  });

  test("a provider error is thrown", async () => {
    const model = new MockLanguageModelV4({
      doStream: () => Promise.reject(Object.assign(new Error("boom"), { statusCode: 500 })),
    });
    await assert.rejects(streamTurn(request(model)), /boom/);
  });

  test("a stream that goes quiet ends with an idle timeout", async () => {
    const model = new MockLanguageModelV4({
      doStream: () =>
        Promise.resolve({
          stream: new ReadableStream({
            start(c) {
              c.enqueue({ type: "stream-start", warnings: [] });
            },
          }),
        }),
    });
    await assert.rejects(streamTurn(request(model, { idleTimeoutMs: 50 })), IdleTimeoutError);
  });
});

describe("callModelWithRetries", () => {
  const target = { model: "p/m", baseURL: "http://x/v1" };
  const policy = { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 10 };

  test("retries retryable errors, then succeeds", async () => {
    let n = 0;
    const retries: number[] = [];
    const r = await callModelWithRetries(() => {
      n++;
      if (n < 3) return Promise.reject(Object.assign(new Error("busy"), { statusCode: 503 }));
      return Promise.resolve("ok");
    }, { policy, signal: new AbortController().signal, target, onRetry: (a) => retries.push(a) });
    assert.equal(r, "ok");
    assert.deepEqual(retries, [1, 2]);
  });

  test("gives up after the retries with a named error", async () => {
    let n = 0;
    await assert.rejects(
      callModelWithRetries(() => {
        n++;
        return Promise.reject(Object.assign(new Error("busy"), { statusCode: 503 }));
      }, { policy, signal: new AbortController().signal, target }),
      (err: Error) => {
        assert.ok(err instanceof ModelCallError);
        assert.equal(
          err.message,
          "model call failed: p/m at http://x/v1: HTTP 503: busy (gave up after 3 attempts)",
        );
        return true;
      },
    );
    assert.equal(n, 3);
  });

  test("does not retry a bad request", async () => {
    let n = 0;
    await assert.rejects(
      callModelWithRetries(() => {
        n++;
        return Promise.reject(Object.assign(new Error("bad"), { statusCode: 400 }));
      }, { policy, signal: new AbortController().signal, target }),
      ModelCallError,
    );
    assert.equal(n, 1);
  });
});
