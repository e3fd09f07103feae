/**
 * Scripted local model server for tests.
 *
 * What this module decides:
 * - One HTTP server on 127.0.0.1 (port 0) speaks four wire formats:
 *   `POST /v1/chat/completions` (OpenAI chat completions), `POST /v1/responses`
 *   (OpenAI Responses, `wire-responses.ts`), `POST /v1/messages` (Anthropic
 *   Messages), all with the base URL `${url}/v1`, and Gemini's
 *   `POST /v1beta/models/{model}:generateContent` (JSON) and
 *   `POST /v1beta/models/{model}:streamGenerateContent?alt=sse` (SSE), base URL
 *   `${url}/v1beta`. `GET /v1/models` and `GET /v1beta/models` list a few fake
 *   model ids; any other path answers 404 JSON.
 * - Answers come from a queue of scripted `Turn`s, one per model request. When the
 *   queue is empty the optional `respond` callback is asked; when there is none the
 *   server answers HTTP 500 "model server: no scripted turn left" so that a test
 *   which makes more model calls than it scripted fails loudly.
 * - Every model request is recorded (method, path, query, lower-cased headers,
 *   raw and parsed body, format, stream flag) BEFORE it is answered, fault turns
 *   included; the usage it was answered with is added once it is known. `GET /v1/models`
 *   and unknown paths are not recorded and never consume a turn.
 * - `peakInFlight()` is the most model requests answered at the same time since
 *   the server started or since the last `resetPeak()`, which starts the count
 *   again from the requests being answered at that moment.
 * - `stream: true` in the request body selects SSE (for Gemini the
 *   `:streamGenerateContent` method does, and it needs `?alt=sse`). Text, reasoning
 *   and tool-call arguments are each split across two deltas so clients must
 *   reassemble them; Gemini sends each function call whole, as the real API does,
 *   and has no call ids (the client makes its own).
 * - Usage: a turn's `usage.input` counts every input token, cached ones included;
 *   `cacheRead` / `cacheWrite` (default 0) are reported the way each format does
 *   (Anthropic `cache_read_input_tokens` / `cache_creation_input_tokens` beside an
 *   `input_tokens` that excludes them, OpenAI `prompt_tokens_details.cached_tokens`,
 *   Responses `input_tokens_details.cached_tokens`, Gemini
 *   `cachedContentTokenCount`). With the server option `cache: "computed"`, a turn
 *   without `usage` gets input and cache counts computed from the request
 *   (`prompt-cache.ts`: Anthropic honours `cache_control` breakpoints, the others
 *   cache every prefix automatically). A request reads the cache as it was when
 *   the request arrived; what it writes is readable once its answer starts.
 * - Fault turns simulate provider failures: 500, 400 with a given message (a
 *   request the provider refuses), 429 + retry-after, a stall that
 *   never answers, a malformed SSE body, and a stream cut off mid-way. Error bodies
 *   take each provider's shape (Gemini: `{error: {code, message, status}}`).
 *
 * - Strict by default: a request the real API would refuse (`strict-rules.ts`:
 *   unknown fields, efforts per model, a forced tool choice with thinking,
 *   budgets at or above `max_tokens`, too many cache breakpoints, signatures
 *   and encrypted reasoning not sent back unchanged, tool-call ids and tool
 *   names each API refuses, blank text blocks, a tool loop without its
 *   leading thinking block, strict-schema limits, …) is answered with the
 *   provider's 400 and its error text, and uses no turn. Thinking signatures
 *   (Anthropic), encrypted reasoning (Responses, when `include` asks for it)
 *   and thought signatures (Gemini 3 function calls) are opaque tokens issued
 *   per answer. `lenient: "why"` turns the rules off. `POST /api/show`
 *   answers the Ollama-shaped models of `strict.ollama` (404 for others).
 * - With `rateLimits`, requests are limited per API key as the real APIs
 *   limit them (`rate-limits.ts`): every answer carries the provider's
 *   rate-limit headers, and a request over a limit gets the provider's 429
 *   and uses no turn. `limited()` counts what was admitted and refused.
 *
 * Only `node:` built-ins are used so the module runs the same under Bun and Deno.
 */

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { type CacheUsage, PromptCache } from "./prompt-cache.ts";
import { type ResponsesAnswer, responsesEvents, responsesJson } from "./wire-responses.ts";
import { pairingRefusal } from "./strict-pairing.ts";
import {
  contextWindowRefusal,
  type ContextWindowRule,
  type OllamaModel,
  type StrictOptions,
  strictRefusal,
  StrictState,
} from "./strict-rules.ts";
import { promptTokens } from "./prompt-cache.ts";
import { type LimitCounts, RateLimiter, type RateLimitRules, requestKey } from "./rate-limits.ts";

/** A tool call the scripted model makes. `args` that is a string is sent verbatim
 * as the arguments text (lets a test send broken JSON); anything else is
 * JSON-encoded. `id` defaults to `call_<n>` (n counts up across the server); the
 * Gemini format sends no ids, so `id` is ignored there. */
export type ScriptedToolCall = { id?: string; name: string; args: unknown };

/** One scripted model answer, or one simulated failure. */
export type Turn =
  | {
    text?: string;
    toolCalls?: ScriptedToolCall[];
    reasoning?: string;
    /** Anthropic: a `redacted_thinking` block (opaque data that must come back unchanged). */
    redactedThinking?: boolean;
    /** `input` counts every input token, the cached ones included. */
    usage?: TurnUsage;
    /** Gemini: `length` is `MAX_TOKENS`, anything else `STOP`. */
    finish?: "stop" | "tool_calls" | "length";
    /** Wait this long before answering (a slow model). */
    delayMs?: number;
    /** Before any delay, hold the answer (at most 10 s) until this many requests
     * with this option are held together, then let them all go on: a test can
     * make requests overlap without relying on timing. */
    holdTogether?: number;
  }
  | { fault: "500" } // HTTP 500 with a JSON error body
  | { fault: "400"; message: string } // HTTP 400 (a request the provider refuses) with this message
  | { fault: "429"; retryAfter: number } // HTTP 429 with retry-after header (seconds)
  | { fault: "stall" } // accept the request and never respond (until server close)
  | { fault: "malformed-sse" } // 200 text/event-stream with garbage / broken JSON data lines
  | { fault: "disconnect" }; // stream starts, sends a partial chunk, then destroys the socket

/** Token counts a turn reports. */
export interface TurnUsage {
  input: number;
  output: number;
  /** Input tokens read from the prompt cache (part of `input`). */
  cacheRead?: number;
  /** Input tokens written to the prompt cache (part of `input`; Anthropic only). */
  cacheWrite?: number;
}

/** One request as the server saw it. */
export interface RecordedRequest {
  /** HTTP method, e.g. `POST`. */
  method: string;
  /** URL path without the query string, e.g. `/v1/messages` or
   * `/v1beta/models/gemini-test:streamGenerateContent`. */
  path: string;
  /** The query string without `?`, e.g. `alt=sse`; "" when there is none. */
  query: string;
  /** Header names lower-cased; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** Parsed JSON body, or the raw text when it was not valid JSON. */
  // deno-lint-ignore no-explicit-any
  body: any;
  /** The body exactly as received. */
  raw: string;
  /** `openai` is chat completions, `responses` OpenAI's Responses API. */
  format: "openai" | "anthropic" | "google" | "responses";
  /** `body.stream === true`; for Gemini, the `:streamGenerateContent` method. */
  stream: boolean;
  /** The usage the answer reported (set when an answer, not a fault, was sent). */
  usage?: Required<TurnUsage>;
}

export interface ModelServer {
  /** e.g. `http://127.0.0.1:PORT`; the OpenAI and Anthropic base URL is `${url}/v1`,
   * Gemini's `${url}/v1beta`. */
  url: string;
  /** Every model request, in arrival order. */
  requests: RecordedRequest[];
  /** Replace the queue of turns. */
  script(turns: Turn[]): void;
  /** Append to the queue of turns. */
  push(...turns: Turn[]): void;
  /** Turns still queued. */
  remaining(): number;
  /** The most model requests that were being answered at the same time (since
   * the start, or since the last `resetPeak()`). */
  peakInFlight(): number;
  /** Counts the peak afresh: it becomes the number of requests being answered now.
   * One server can then serve tests that each read their own peak. */
  resetPeak(): void;
  /** The model of each `POST /api/show` (Ollama), in arrival order. */
  shown: string[];
  /** Sets the context window requests are refused past (strict mode), for the
   * tests that follow; undefined: the options' own (none by default). */
  limitWindow(rule: ContextWindowRule | undefined): void;
  /** With `rateLimits`: model requests admitted and refused with a 429. */
  limited(): LimitCounts;
  /** Stop listening and end every open connection, stalled ones included. */
  close(): Promise<void>;
}

/** Options for {@link startModelServer}. */
export interface ModelServerOptions {
  /** Initial queue. */
  turns?: Turn[];
  /** Asked when the queue is empty. `index` is the 0-based number of the model
   * request (its position in `requests`). A throw becomes an HTTP 500;
   * undefined means nothing to answer, as when there is no `respond`. */
  respond?: (req: RecordedRequest, index: number) => Turn | undefined;
  /** `computed`: a turn without `usage` reports input and cache tokens counted
   * from the request (`prompt-cache.ts`) instead of the fixed default. */
  cache?: "computed";
  /** What the strict rules (`strict-rules.ts`) know beyond their defaults:
   * Ollama-shaped models, a verified OpenAI organisation. */
  strict?: StrictOptions;
  /** Turns the strict rules off; the value says why the test needs that. */
  lenient?: string;
  /** Limits per API key, with the real headers and 429s (`rate-limits.ts`). */
  rateLimits?: RateLimitRules;
}

type Format = RecordedRequest["format"];
type AnswerTurn = Exclude<Turn, { fault: string }>;

const DEFAULT_USAGE: TurnUsage = { input: 10, output: 5 };
/** The longest a `holdTogether` turn waits for company. */
const HOLD_MAX_MS = 10_000;
const MODEL_IDS = ["mock-small", "mock-large", "mock-reasoner"];
/** `/v1beta/models/{model}:{method}`; the model may not contain `/` or `:`. */
const GEMINI_PATH = /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

/** Start a server. Resolves once it is listening. */
export async function startModelServer(opts: ModelServerOptions = {}): Promise<ModelServer> {
  let queue: Turn[] = [...(opts.turns ?? [])];
  const requests: RecordedRequest[] = [];
  // Open sockets and unfinished responses, so close() can end stalled requests and
  // keep-alive connections instead of waiting for them forever.
  const sockets = new Set<Socket>();
  const openResponses = new Set<ServerResponse>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let toolCallCounter = 0;
  let inFlight = 0;
  let peak = 0;
  let messageCounter = 0;
  let closed = false;
  // holdTogether: requests held now, and how many groups were let go.
  let held = 0;
  let released = 0;

  const nextToolCallId = () => `call_${++toolCallCounter}`;
  const promptCache = new PromptCache();
  // Opaque tokens issued (signatures, encrypted reasoning) that must come back unchanged.
  const strictState = new StrictState();
  const strict = opts.lenient === undefined;
  const ollamaModels: Record<string, OllamaModel> = opts.strict?.ollama ?? {};
  const shown: string[] = [];
  let windowRule: ContextWindowRule | undefined;
  const limiter = opts.rateLimits ? new RateLimiter(opts.rateLimits) : undefined;

  const server: Server = createServer((req, res) => {
    openResponses.add(res);
    res.on("close", () => openResponses.delete(res));
    handle(req, res).catch((err) => {
      // A bug in the server itself: answer if still possible, never crash the test run.
      if (!res.headersSent) {
        sendJson(res, 500, { error: { message: `model server: internal error: ${String(err)}` } });
      } else {
        res.destroy();
      }
    });
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawUrl = req.url ?? "/";
    const q = rawUrl.indexOf("?");
    const path = q === -1 ? rawUrl : rawUrl.slice(0, q);
    const query = q === -1 ? "" : rawUrl.slice(q + 1);
    const method = req.method ?? "GET";

    if (method === "GET" && path === "/v1/models") {
      sendJson(res, 200, {
        object: "list",
        data: MODEL_IDS.map((id) => ({ id, object: "model", created: 0, owned_by: "xcsh-tests" })),
      });
      return;
    }
    if (method === "GET" && path === "/v1beta/models") {
      sendJson(res, 200, {
        models: MODEL_IDS.map((id) => ({
          name: `models/${id}`,
          displayName: id,
          supportedGenerationMethods: ["generateContent"],
        })),
      });
      return;
    }

    if (method === "POST" && path === "/api/show") {
      // Ollama's model card: its capabilities say whether it can think and call tools.
      let model = "";
      try {
        model = String(JSON.parse(await readBody(req)).model ?? "");
      } catch { /* an unreadable body names no model */ }
      shown.push(model);
      const known = ollamaModels[model];
      if (!known) sendJson(res, 404, { error: `model '${model}' not found` });
      else {
        sendJson(res, 200, {
          modelfile: "",
          parameters: "",
          template: "",
          details: { format: "gguf", family: model.split(/[.:]/)[0] },
          model_info: known.contextLength === undefined
            ? {}
            : { [`${model.split(/[.:]/)[0]}.context_length`]: known.contextLength },
          capabilities: known.capabilities,
        });
      }
      return;
    }

    let format: Format | undefined;
    let googleModel: string | undefined;
    let googleStream = false;
    const gemini = GEMINI_PATH.exec(path);
    if (method === "POST" && path === "/v1/chat/completions") format = "openai";
    else if (method === "POST" && path === "/v1/responses") format = "responses";
    else if (method === "POST" && path === "/v1/messages") format = "anthropic";
    else if (method === "POST" && gemini) {
      format = "google";
      googleModel = decodeURIComponent(gemini[1]);
      googleStream = gemini[2] === "streamGenerateContent";
    }
    if (!format) {
      await readBody(req); // drain, so the connection stays usable
      const message = `model server: no route for ${method} ${path}`;
      if (path.startsWith("/v1beta/")) sendError(res, "google", 404, "not_found", message);
      else sendJson(res, 404, { error: { message, type: "not_found" } });
      return;
    }

    const raw = await readBody(req);
    let body: unknown;
    let parsed = true;
    try {
      body = JSON.parse(raw);
    } catch {
      body = raw;
      parsed = false;
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
    }
    const stream = format === "google" ? googleStream : parsed && typeof body === "object" &&
      body !== null && (body as { stream?: unknown }).stream === true;
    const recorded: RecordedRequest = { method, path, query, headers, body, raw, format, stream };
    inFlight++;
    peak = Math.max(peak, inFlight);
    res.on("close", () => inFlight--);
    // Record first: a test inspecting `requests` after a fault must see the request.
    requests.push(recorded);
    const index = requests.length - 1;

    if (!parsed) {
      sendError(res, format, 400, "invalid_request_error", "model server: body is not valid JSON");
      return;
    }
    if (format === "google" && stream && !new URLSearchParams(query).has("alt", "sse")) {
      // Without alt=sse the real API answers one JSON array, which no client here
      // expects: fail loudly instead of guessing.
      sendError(
        res,
        format,
        400,
        "invalid_request_error",
        "model server: streamGenerateContent needs ?alt=sse",
      );
      return;
    }

    const model = googleModel ??
      (typeof (body as { model?: unknown }).model === "string"
        ? (body as { model: string }).model
        : "mock-model");

    // What the real API refuses is refused before any turn is used.
    const refusal = strict
      ? strictRefusal(format, body, model, strictState, opts.strict ?? {})
      : undefined;
    const window = windowRule ?? opts.strict?.contextWindow;
    const overflow = strict && !refusal && window
      ? contextWindowRefusal(format, body, window, promptTokens(format, body))
      : undefined;
    if (overflow) {
      sendError(res, format, overflow.status, "invalid_request_error", overflow.message, {}, {
        param: overflow.param ?? null,
        code: overflow.code ?? null,
      });
      return;
    }
    if (refusal) {
      sendError(res, format, refusal.status, "invalid_request_error", refusal.message, {}, {
        param: refusal.param ?? null,
        code: refusal.code ?? null,
      });
      return;
    }
    // Unpaired tool calls and results: refused as the real API refuses them.
    const unpaired = strict ? pairingRefusal(format, body) : undefined;
    if (unpaired) return sendJson(res, unpaired.status, unpaired.body);

    // Over a limit: the provider's 429, no turn used. Admitted: its headers on the answer.
    if (limiter) {
      const decision = limiter.admit(
        format,
        requestKey(headers, query),
        model,
        promptTokens(format, body),
      );
      if (!decision.ok) return sendJson(res, decision.status, decision.body, decision.headers);
      for (const [k, v] of Object.entries(decision.headers)) res.setHeader(k, v);
      res.on("close", decision.release);
    }

    // Computed cache counts: read as the cache is on arrival, written when the answer starts.
    const cached = opts.cache === "computed" ? promptCache.lookup(format, body) : undefined;
    let turn: Turn | undefined = queue.shift();
    if (!turn && opts.respond) {
      try {
        turn = opts.respond(recorded, index);
      } catch (err) {
        sendError(res, format, 500, "api_error", `model server: respond() threw: ${String(err)}`);
        return;
      }
    }
    if (!turn) {
      sendError(res, format, 500, "api_error", "model server: no scripted turn left");
      return;
    }

    if ("fault" in turn) {
      runFault(turn, res, format, model);
      return;
    }
    if (turn.holdTogether) {
      const until = Date.now() + HOLD_MAX_MS;
      const group = released;
      if (++held >= turn.holdTogether) {
        released++;
        held = 0;
      }
      while (released === group && Date.now() < until && !closed) {
        await new Promise<void>((resolve) => {
          const t = setTimeout(() => {
            timers.delete(t);
            resolve();
          }, 5);
          timers.add(t);
        });
      }
      if (released === group) held--;
      if (res.destroyed) return;
    }
    if (turn.delayMs) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(() => {
          timers.delete(t);
          resolve();
        }, turn.delayMs);
        timers.add(t);
      });
      if (res.destroyed) return;
    }
    const usage = usageFor(turn, cached);
    recorded.usage = usage;
    const answered: AnswerTurn = { ...turn, usage };
    if (format === "responses") {
      const answer = responsesAnswer(answered, model, usage);
      const include = (body as { include?: unknown }).include;
      if (
        answer.reasoning !== undefined && Array.isArray(include) &&
        include.includes("reasoning.encrypted_content")
      ) {
        answer.encrypted = strictState.token("encrypted-reasoning");
        strictState.encrypted.set(`rs_${answer.id}`, answer.encrypted);
      }
      if (stream) {
        startSse(res);
        for (const e of responsesEvents(answer)) res.write(sse((e as { type: string }).type, e));
        res.end();
      } else sendJson(res, 200, responsesJson(answer));
    } else if (format === "openai") {
      const includeUsage = (body as { stream_options?: { include_usage?: unknown } })
        .stream_options?.include_usage === true;
      if (stream) openAIStream(res, answered, model, includeUsage);
      else openAIJson(res, answered, model);
    } else if (format === "anthropic") {
      if (stream) anthropicStream(res, answered, model);
      else anthropicJson(res, answered, model);
    } else {
      if (stream) googleStreamAnswer(res, answered, model);
      else googleJson(res, answered, model);
    }
  }

  // ---- usage --------------------------------------------------------------------

  function usageFor(
    turn: AnswerTurn,
    cached: { usage: CacheUsage; commit(): void } | undefined,
  ): Required<TurnUsage> {
    if (turn.usage) return { cacheRead: 0, cacheWrite: 0, ...turn.usage };
    if (!cached) return { ...DEFAULT_USAGE, cacheRead: 0, cacheWrite: 0 };
    cached.commit();
    return { ...cached.usage, output: DEFAULT_USAGE.output };
  }

  function responsesAnswer(turn: AnswerTurn, model: string, usage: Required<TurnUsage>) {
    const answer: ResponsesAnswer = {
      id: String(++messageCounter),
      model,
      text: turn.text,
      reasoning: turn.reasoning,
      calls: resolveCalls(turn),
      usage,
      truncated: turn.finish === "length",
      pieces: halves,
    };
    return answer;
  }

  // ---- faults -------------------------------------------------------------------

  function runFault(
    turn: Extract<Turn, { fault: string }>,
    res: ServerResponse,
    f: Format,
    m: string,
  ) {
    switch (turn.fault) {
      case "500":
        sendError(res, f, 500, "api_error", "model server: scripted internal error");
        return;
      case "400":
        sendError(res, f, 400, "invalid_request_error", turn.message);
        return;
      case "429":
        sendError(res, f, 429, "rate_limit_error", "model server: scripted rate limit", {
          "retry-after": String(turn.retryAfter),
        });
        return;
      case "stall":
        // Never answer. The response stays in `openResponses` until the client gives
        // up (socket closes) or close() destroys it.
        return;
      case "malformed-sse": {
        startSse(res);
        if (f === "openai") {
          res.write(`data: {"id":"chatcmpl-bad","object":"chat.completion.chunk","choices":[{\n\n`);
          res.write("data: this is not json\n\n");
          res.write('data: {"choices": [{"delta": {"content": "unterminated}]}\n\n');
        } else if (f === "responses") {
          res.write('event: response.created\ndata: {"type":"response.created","response":{\n\n');
          res.write("event: response.output_text.delta\ndata: this is not json\n\n");
          res.write('event: response.completed\ndata: {"type": "response.completed"\n\n');
        } else if (f === "google") {
          res.write('data: {"candidates": [{"content": {"role": "model", "parts": [{\n\n');
          res.write("data: this is not json\n\n");
          res.write(
            'data: {"candidates": [{"content": {"parts": [{"text": "unterminated}]}}]}\n\n',
          );
        } else {
          res.write(`event: message_start\ndata: {"type":"message_start","message":{\n\n`);
          res.write("event: content_block_delta\ndata: not json at all\n\n");
          res.write('event: message_stop\ndata: {"type": "message_stop"\n\n');
        }
        res.end();
        return;
      }
      case "disconnect": {
        // One complete event, then half an event, then the socket goes away, so
        // the client has already started reading a stream when it breaks.
        startSse(res);
        const first = f === "openai"
          ? sse(undefined, openAIChunk(`chatcmpl-${++messageCounter}`, m, { role: "assistant" }))
          : f === "google"
          ? sse(undefined, googleChunk(`resp_${++messageCounter}`, m, []))
          : f === "responses"
          ? responsesEvents(
            responsesAnswer({}, m, { ...DEFAULT_USAGE, cacheRead: 0, cacheWrite: 0 }),
          )
            .slice(0, 1).map((e) => sse("response.created", e)).join("")
          : sse("message_start", anthropicMessageStart(`msg_${++messageCounter}`, m));
        const partial = f === "openai"
          ? 'data: {"id":"chatcmpl-cut","object":"chat.completion.chunk","choices":[{"index":0,"del'
          : f === "google"
          ? 'data: {"candidates":[{"content":{"role":"model","parts":[{"te'
          : f === "responses"
          ? 'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","ite'
          : 'event: content_block_delta\ndata: {"type":"content_block_delta","ind';
        res.write(first);
        res.write(partial, () => {
          // Give the bytes a moment to reach the client before cutting the socket.
          const t = setTimeout(() => {
            timers.delete(t);
            (res.socket ?? res).destroy();
          }, 20);
          timers.add(t);
        });
        return;
      }
    }
  }

  // ---- OpenAI chat completions -------------------------------------------------

  function openAIFinish(turn: AnswerTurn): string {
    return turn.finish ?? (turn.toolCalls?.length ? "tool_calls" : "stop");
  }

  function openAIUsage(turn: AnswerTurn) {
    const u = turn.usage ?? DEFAULT_USAGE;
    return {
      prompt_tokens: u.input,
      completion_tokens: u.output,
      total_tokens: u.input + u.output,
      ...(u.cacheRead ? { prompt_tokens_details: { cached_tokens: u.cacheRead } } : {}),
    };
  }

  function resolveCalls(turn: AnswerTurn) {
    return (turn.toolCalls ?? []).map((c) => ({
      id: c.id ?? nextToolCallId(),
      name: c.name,
      args: typeof c.args === "string" ? c.args : JSON.stringify(c.args ?? {}),
    }));
  }

  function openAIJson(res: ServerResponse, turn: AnswerTurn, model: string) {
    const calls = resolveCalls(turn);
    // deno-lint-ignore no-explicit-any
    const message: Record<string, any> = { role: "assistant", content: turn.text ?? null };
    if (turn.reasoning !== undefined) message.reasoning_content = turn.reasoning;
    if (calls.length) {
      message.tool_calls = calls.map((c) => ({
        id: c.id,
        type: "function",
        function: { name: c.name, arguments: c.args },
      }));
    }
    sendJson(res, 200, {
      id: `chatcmpl-${++messageCounter}`,
      object: "chat.completion",
      created: nowSeconds(),
      model,
      choices: [{ index: 0, message, finish_reason: openAIFinish(turn), logprobs: null }],
      usage: openAIUsage(turn),
    });
  }

  function openAIStream(res: ServerResponse, turn: AnswerTurn, model: string, usage: boolean) {
    const id = `chatcmpl-${++messageCounter}`;
    const calls = resolveCalls(turn);
    startSse(res);
    const write = (delta: object, finish: string | null = null) =>
      res.write(sse(undefined, openAIChunk(id, model, delta, finish)));

    write({ role: "assistant", content: "" });
    for (const part of halves(turn.reasoning)) write({ reasoning_content: part });
    for (const part of halves(turn.text)) write({ content: part });
    calls.forEach((c, index) => {
      const [a, b] = splitInTwo(c.args);
      // First fragment carries id, type and name; the second only the index.
      write({
        tool_calls: [{
          index,
          id: c.id,
          type: "function",
          function: { name: c.name, arguments: a },
        }],
      });
      write({ tool_calls: [{ index, function: { arguments: b } }] });
    });
    write({}, openAIFinish(turn));
    if (usage) {
      res.write(sse(undefined, {
        id,
        object: "chat.completion.chunk",
        created: nowSeconds(),
        model,
        choices: [],
        usage: openAIUsage(turn),
      }));
    }
    res.write("data: [DONE]\n\n");
    res.end();
  }

  // ---- Anthropic Messages ------------------------------------------------------

  function anthropicStop(turn: AnswerTurn): string {
    if (turn.finish === "length") return "max_tokens";
    if (turn.finish === "tool_calls") return "tool_use";
    if (turn.finish === "stop") return "end_turn";
    return turn.toolCalls?.length ? "tool_use" : "end_turn";
  }

  function anthropicInput(args: string): unknown {
    try {
      return JSON.parse(args);
    } catch {
      return args; // broken JSON on purpose: hand it over as-is
    }
  }

  /** An opaque signature for a thinking text, remembered so it must come back with it. */
  function sign(thinking: string): string {
    const signature = strictState.token("thinking-signature");
    strictState.thinking.set(signature, thinking);
    return signature;
  }

  /** Opaque redacted-thinking data, remembered so it must come back unchanged. */
  function redact(): string {
    const data = strictState.token("redacted-thinking");
    strictState.redacted.add(data);
    return data;
  }

  function anthropicJson(res: ServerResponse, turn: AnswerTurn, model: string) {
    const u = turn.usage ?? DEFAULT_USAGE;
    const content: object[] = [];
    if (turn.reasoning !== undefined) {
      content.push({ type: "thinking", thinking: turn.reasoning, signature: sign(turn.reasoning) });
    }
    if (turn.redactedThinking) content.push({ type: "redacted_thinking", data: redact() });
    if (turn.text !== undefined) content.push({ type: "text", text: turn.text });
    for (const c of resolveCalls(turn)) {
      content.push({ type: "tool_use", id: c.id, name: c.name, input: anthropicInput(c.args) });
    }
    sendJson(res, 200, {
      id: `msg_${++messageCounter}`,
      type: "message",
      role: "assistant",
      model,
      content,
      stop_reason: anthropicStop(turn),
      stop_sequence: null,
      usage: anthropicUsage(u),
    });
  }

  function anthropicStream(res: ServerResponse, turn: AnswerTurn, model: string) {
    const u = turn.usage ?? DEFAULT_USAGE;
    const calls = resolveCalls(turn);
    startSse(res);
    const ev = (type: string, data: object) => res.write(sse(type, { type, ...data }));

    res.write(
      sse("message_start", anthropicMessageStart(`msg_${++messageCounter}`, model, u)),
    );
    ev("ping", {});
    let index = 0;
    if (turn.reasoning !== undefined) {
      ev("content_block_start", { index, content_block: { type: "thinking", thinking: "" } });
      for (const part of halves(turn.reasoning)) {
        ev("content_block_delta", { index, delta: { type: "thinking_delta", thinking: part } });
      }
      ev("content_block_delta", {
        index,
        delta: { type: "signature_delta", signature: sign(turn.reasoning) },
      });
      ev("content_block_stop", { index });
      index++;
    }
    if (turn.redactedThinking) {
      ev("content_block_start", {
        index,
        content_block: { type: "redacted_thinking", data: redact() },
      });
      ev("content_block_stop", { index });
      index++;
    }
    if (turn.text !== undefined) {
      ev("content_block_start", { index, content_block: { type: "text", text: "" } });
      for (const part of halves(turn.text)) {
        ev("content_block_delta", { index, delta: { type: "text_delta", text: part } });
      }
      ev("content_block_stop", { index });
      index++;
    }
    for (const c of calls) {
      ev("content_block_start", {
        index,
        content_block: { type: "tool_use", id: c.id, name: c.name, input: {} },
      });
      for (const part of splitInTwo(c.args)) {
        ev("content_block_delta", {
          index,
          delta: { type: "input_json_delta", partial_json: part },
        });
      }
      ev("content_block_stop", { index });
      index++;
    }
    ev("message_delta", {
      delta: { stop_reason: anthropicStop(turn), stop_sequence: null },
      usage: anthropicUsage(u),
    });
    ev("message_stop", {});
    res.end();
  }

  // ---- Gemini generateContent ---------------------------------------------------

  function googleFinish(turn: AnswerTurn): string {
    // Gemini ends tool calls with STOP too; the client looks at the parts.
    return turn.finish === "length" ? "MAX_TOKENS" : "STOP";
  }

  function googleUsage(turn: AnswerTurn) {
    const u = turn.usage ?? DEFAULT_USAGE;
    return {
      promptTokenCount: u.input,
      candidatesTokenCount: u.output,
      totalTokenCount: u.input + u.output,
      ...(u.cacheRead ? { cachedContentTokenCount: u.cacheRead } : {}),
    };
  }

  /** `functionCall` parts: no ids; args as an object, or verbatim when not JSON.
   * Gemini 3 models sign the first call of a turn (`thoughtSignature`). */
  function googleCallParts(turn: AnswerTurn, model: string): object[] {
    return (turn.toolCalls ?? []).map((c, i) => {
      let args: unknown = c.args ?? {};
      if (typeof c.args === "string") {
        try {
          args = JSON.parse(c.args);
        } catch {
          args = c.args; // broken JSON on purpose: the client takes a string as-is
        }
      }
      if (i > 0 || /^gemini-[12]\./.test(model)) return { functionCall: { name: c.name, args } };
      const thoughtSignature = strictState.token("thought-signature");
      strictState.thoughts.add(thoughtSignature);
      return { functionCall: { name: c.name, args }, thoughtSignature };
    });
  }

  function googleJson(res: ServerResponse, turn: AnswerTurn, model: string) {
    const parts: object[] = [];
    if (turn.reasoning !== undefined) parts.push({ text: turn.reasoning, thought: true });
    if (turn.text !== undefined) parts.push({ text: turn.text });
    parts.push(...googleCallParts(turn, model));
    sendJson(res, 200, {
      candidates: [{
        content: { role: "model", parts },
        finishReason: googleFinish(turn),
        index: 0,
      }],
      usageMetadata: googleUsage(turn),
      modelVersion: model,
      responseId: `resp_${++messageCounter}`,
    });
  }

  function googleStreamAnswer(res: ServerResponse, turn: AnswerTurn, model: string) {
    const id = `resp_${++messageCounter}`;
    // One part per chunk; the last chunk also carries finishReason and usage, as
    // the real API's does.
    const chunks: object[][] = [];
    for (const part of halves(turn.reasoning)) chunks.push([{ text: part, thought: true }]);
    for (const part of halves(turn.text)) chunks.push([{ text: part }]);
    const calls = googleCallParts(turn, model);
    if (calls.length) chunks.push(calls);
    if (!chunks.length) chunks.push([]);
    startSse(res);
    chunks.forEach((parts, i) => {
      const last = i === chunks.length - 1;
      res.write(sse(
        undefined,
        googleChunk(
          id,
          model,
          parts,
          last ? { finishReason: googleFinish(turn), usageMetadata: googleUsage(turn) } : undefined,
        ),
      ));
    });
    res.end();
  }

  // ---- plumbing ----------------------------------------------------------------

  function startSse(res: ServerResponse) {
    res.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
    });
    // Send the headers now so a client sees the stream begin before any event.
    res.flushHeaders();
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === "string") {
    throw new Error("model server: could not read the listening port");
  }

  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    script(turns: Turn[]) {
      queue = [...turns];
    },
    push(...turns: Turn[]) {
      queue.push(...turns);
    },
    remaining() {
      return queue.length;
    },
    peakInFlight() {
      return peak;
    },
    resetPeak() {
      peak = inFlight;
    },
    shown,
    limitWindow(rule) {
      windowRule = rule;
    },
    limited() {
      return { ...(limiter?.counts ?? { allowed: 0, refused: 0 }) };
    },
    close() {
      if (closed) return Promise.resolve();
      closed = true;
      return new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        server.close(() => resolve());
        // Stalled requests and idle keep-alive sockets would otherwise keep
        // server.close() waiting forever. Destroy the sockets, not the responses:
        // Bun's `res.destroy()` on a response whose headers were never sent
        // answers "200, empty body" instead of cutting the connection.
        for (const socket of sockets) socket.destroy();
        for (const res of openResponses) (res.socket ?? res).destroy();
        server.closeAllConnections?.();
      });
    },
  };
}

// ---- helpers (pure) ------------------------------------------------------------

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  extra: Record<string, string> = {},
) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(text)),
    ...extra,
  });
  res.end(text);
}

/** An error body in the shape each provider uses, so SDK error parsing works. */
function sendError(
  res: ServerResponse,
  format: Format,
  status: number,
  type: string,
  message: string,
  extra: Record<string, string> = {},
  fields: { param?: string | null; code?: string | null } = {},
) {
  let body: object;
  if (format === "anthropic") body = { type: "error", error: { type, message } };
  else if (format === "google") {
    body = { error: { code: status, message, status: GOOGLE_STATUS[status] ?? "UNKNOWN" } };
  } else {
    body = {
      error: {
        message,
        type,
        param: fields.param ?? null,
        code: fields.code ?? (status === 429 ? "rate_limit_exceeded" : null),
      },
    };
  }
  sendJson(res, status, body, extra);
}

/** google.rpc.Code names for the HTTP statuses the server answers with. */
const GOOGLE_STATUS: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
};

/** One SSE event: `event: X\n` (Anthropic only) then `data: {...}\n\n`. */
function sse(event: string | undefined, data: unknown): string {
  return `${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`;
}

function openAIChunk(id: string, model: string, delta: object, finish: string | null = null) {
  return {
    id,
    object: "chat.completion.chunk",
    created: nowSeconds(),
    model,
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
  };
}

/** One streamed Gemini response chunk; the last one carries finishReason and usage. */
function googleChunk(
  id: string,
  model: string,
  parts: object[],
  end?: { finishReason: string; usageMetadata: object },
) {
  return {
    candidates: [{
      content: { role: "model", parts },
      index: 0,
      ...(end ? { finishReason: end.finishReason } : {}),
    }],
    ...(end ? { usageMetadata: end.usageMetadata } : {}),
    modelVersion: model,
    responseId: id,
  };
}

/** Anthropic's usage: `input_tokens` leaves out the tokens read from or written to the cache. */
function anthropicUsage(u: TurnUsage) {
  const read = u.cacheRead ?? 0;
  const write = u.cacheWrite ?? 0;
  return {
    input_tokens: Math.max(0, u.input - read - write),
    output_tokens: u.output,
    ...(read || write ? { cache_read_input_tokens: read, cache_creation_input_tokens: write } : {}),
  };
}

function anthropicMessageStart(id: string, model: string, u?: TurnUsage) {
  return {
    type: "message_start",
    message: {
      id,
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...anthropicUsage(u ?? { input: 0, output: 0 }), output_tokens: 0 },
    },
  };
}

/** Split at the middle; always two parts (the second may be empty for "" / 1 char). */
function splitInTwo(s: string): [string, string] {
  let mid = Math.ceil(s.length / 2);
  // Never cut a surrogate pair in half: each fragment must be valid UTF-16.
  const before = s.charCodeAt(mid - 1);
  if (before >= 0xd800 && before <= 0xdbff) mid++;
  return [s.slice(0, mid), s.slice(mid)];
}

/** Non-empty halves of an optional string: 0, 1 or 2 deltas. */
function halves(s: string | undefined): string[] {
  if (s === undefined || s === "") return [];
  return splitInTwo(s).filter((p) => p !== "");
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
