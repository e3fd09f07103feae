// The OpenAI-compatible chat model against a real HTTP server on 127.0.0.1:
// what it sends, what it reads back, and how a failed call fails.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { APICallError, type LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { chatCompletionsModel, errorMessage } from "./chat-completions.ts";

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;
let handler: Handler = () => {};
let server: Server;
let base = "";
const seen: { headers: IncomingMessage["headers"]; url: string; body: unknown }[] = [];

before(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8").on("data", (d: string) => (body += d)).on("end", () => {
      seen.push({ headers: req.headers, url: req.url ?? "", body: body ? JSON.parse(body) : null });
      handler(req, body, res);
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`;
});
after(() => new Promise<void>((done) => server.close(() => done())));

const prompt = [{ role: "user" as const, content: [{ type: "text" as const, text: "hi" }] }];

async function parts(stream: ReadableStream<LanguageModelV4StreamPart>) {
  const out: LanguageModelV4StreamPart[] = [];
  const reader = stream.getReader();
  for (;;) {
    const next = await reader.read();
    if (next.done) return out;
    out.push(next.value);
  }
}

async function failure(p: PromiseLike<unknown>): Promise<APICallError> {
  try {
    await p;
  } catch (err) {
    assert.ok(APICallError.isInstance(err), `an APICallError, got ${err}`);
    return err as APICallError;
  }
  throw new Error("the call did not fail");
}

describe("chatCompletionsModel", () => {
  test("posts the body to {baseURL}/chat/completions with the key, and streams the answer", async () => {
    handler = (_req, _body, res) => {
      res.writeHead(200, {
        "content-type": "text/event-stream",
        "x-ratelimit-remaining-requests": "9",
      });
      res.write('data: {"choices":[{"index":0,"delta":{"content":"he"}}]}\n\n');
      setTimeout(() => {
        res.end(
          'data: {"choices":[{"index":0,"delta":{"content":"llo"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n',
        );
      }, 20);
    };
    const model = chatCompletionsModel({
      providerName: "local",
      baseURL: base,
      model: "m",
      apiKey: "k-1",
    });
    const { stream, response } = await model.doStream({ prompt, maxOutputTokens: 50 });
    const got = await parts(stream);
    const last = seen.at(-1)!;
    assert.equal(last.url, "/v1/chat/completions");
    assert.equal(last.headers.authorization, "Bearer k-1");
    assert.equal(last.headers["content-type"], "application/json");
    assert.deepEqual(last.body, {
      model: "m",
      max_tokens: 50,
      messages: [{ role: "user", content: "hi" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    assert.equal(response?.headers?.["x-ratelimit-remaining-requests"], "9");
    assert.equal(got[0].type, "stream-start");
    assert.equal(
      got.filter((p) => p.type === "text-delta").map((p) => p.delta).join(""),
      "hello",
    );
    assert.equal(got.at(-1)?.type, "finish");
  });
  test("no key, no Authorization header; usage left out once refused", async () => {
    handler = (_req, _body, res) => res.end("data: [DONE]\n\n");
    const model = chatCompletionsModel({
      providerName: "local",
      baseURL: base,
      model: "m",
      includeUsage: false,
    });
    await parts((await model.doStream({ prompt })).stream);
    const last = seen.at(-1)!;
    assert.equal(last.headers.authorization, undefined);
    assert.equal("stream_options" in (last.body as object), false);
  });
  test("an HTTP error names the body's message and keeps status, headers and body", async () => {
    const body = JSON.stringify({
      error: { message: "tool_choice is not supported", type: "invalid" },
    });
    handler = (_req, _body, res) => {
      res.writeHead(400, { "content-type": "application/json", "retry-after": "2" });
      res.end(body);
    };
    const model = chatCompletionsModel({ providerName: "local", baseURL: base, model: "m" });
    const err = await failure(model.doStream({ prompt }));
    assert.equal(err.message, "tool_choice is not supported");
    assert.equal(err.statusCode, 400);
    assert.equal(err.responseBody, body);
    assert.equal(err.responseHeaders?.["retry-after"], "2");
    assert.equal(err.isRetryable, false);
  });
  test("Ollama's error string; a body that is not JSON gives the status text; 5xx is retryable", async () => {
    handler = (_req, _body, res) => {
      res.writeHead(404);
      res.end('{"error":"model \\"x\\" not found, try pulling it first"}');
    };
    const model = chatCompletionsModel({ providerName: "ollama", baseURL: base, model: "x" });
    assert.equal(
      (await failure(model.doStream({ prompt }))).message,
      'model "x" not found, try pulling it first',
    );
    handler = (_req, _body, res) => {
      res.writeHead(503, "Service Unavailable");
      res.end("<html>busy</html>");
    };
    const busy = await failure(model.doStream({ prompt }));
    assert.equal(busy.message, "Service Unavailable");
    assert.equal(busy.isRetryable, true);
  });
  test("a server that cannot be reached is a retryable error saying so", async () => {
    const probe = createServer();
    await new Promise<void>((done) => probe.listen(0, "127.0.0.1", done));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((done) => probe.close(() => done()));
    const model = chatCompletionsModel({
      providerName: "local",
      baseURL: `http://127.0.0.1:${port}/v1`,
      model: "m",
    });
    const err = await failure(model.doStream({ prompt }));
    assert.match(err.message, /^Cannot connect to API: /);
    assert.equal(err.isRetryable, true);
    assert.equal(err.statusCode, undefined);
  });
  test("an aborted call ends with the abort's reason", async () => {
    handler = (_req, _body, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write('data: {"choices":[{"index":0,"delta":{"content":"x"}}]}\n\n');
    };
    const stop = new AbortController();
    const model = chatCompletionsModel({ providerName: "local", baseURL: base, model: "m" });
    const { stream } = await model.doStream({ prompt, abortSignal: stop.signal });
    const reader = stream.getReader();
    await reader.read(); // stream-start
    await reader.read(); // text-start
    const why = new Error("stopped by the test");
    stop.abort(why);
    await assert.rejects(
      (async () => {
        for (;;) if ((await reader.read()).done) return;
      })(),
      (e) => e === why,
    );
  });
});

describe("errorMessage", () => {
  test("the body's error message, Ollama's error string, else the status text", () => {
    assert.equal(errorMessage('{"error":{"message":"bad"}}', "Bad Request"), "bad");
    assert.equal(errorMessage('{"error":"gone"}', "Not Found"), "gone");
    assert.equal(errorMessage("<html>", "Bad Gateway"), "Bad Gateway");
    assert.equal(errorMessage("", ""), "the model server refused the call");
  });
});
