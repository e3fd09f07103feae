/**
 * One model turn: sends the conversation and the tool definitions, streams
 * the text back as it arrives, and returns the assistant's messages, the tool
 * calls it made (not executed: the loop runs tools itself) and the token
 * usage. Failed calls are retried by {@link callModelWithRetries} according
 * to the retry policy; a call that sends nothing for `idleTimeoutMs` counts
 * as failed.
 *
 * Speaks the provider interface (`LanguageModelV4` of `@ai-sdk/provider`)
 * directly: the conversation becomes the provider prompt here, and the
 * stream parts become the assistant message. The AI SDK's `ai` package is
 * not loaded: importing it costs a child a large share of its start-up.
 * Reasoning, text and tool-call parts keep their provider metadata, which
 * goes back as provider options on the next call (Anthropic's thinking
 * signatures, Gemini's thought signatures).
 *
 * @module
 */
import type {
  LanguageModelV4,
  LanguageModelV4FunctionTool,
  LanguageModelV4Message,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  SharedV4ProviderOptions,
} from "@ai-sdk/provider";
import {
  classifyModelError,
  describeModelFailure,
  IdleTimeoutError,
  retryDelayMs,
  type RetryPolicy,
} from "../model/retry.ts";
import { MAX_OUTPUT_TOKENS, type ProviderOptions } from "../model/thinking.ts";
import type { JsonSchemaObject } from "../tools/types.ts";

/** The language model a child talks to. */
export type LanguageModel = LanguageModelV4;

/** Provider-specific data on a part: metadata coming back, options going out. */
export type PartMetadata = SharedV4ProviderOptions;

export interface TextPart {
  type: "text";
  text: string;
  providerOptions?: PartMetadata;
}

export interface ReasoningPart {
  type: "reasoning";
  text: string;
  providerOptions?: PartMetadata;
}

export interface ToolCallPart {
  type: "tool-call";
  toolCallId: string;
  toolName: string;
  /** The parsed arguments (an object). */
  input: unknown;
  providerOptions?: PartMetadata;
}

export interface ToolResultPart {
  type: "tool-result";
  toolCallId: string;
  toolName: string;
  output: { type: "text"; value: string } | { type: "error-text"; value: string };
}

/** One message of the conversation the loop keeps between turns. */
export type Message =
  | { role: "user"; content: string }
  | { role: "assistant"; content: string | Array<TextPart | ReasoningPart | ToolCallPart> }
  | { role: "tool"; content: ToolResultPart[] };

/** A tool as the model sees it. */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: JsonSchemaObject;
}

/** A tool call the model made. `invalid` says why it cannot be run. */
export interface ToolCall {
  id: string;
  name: string;
  input: unknown;
  invalid?: string;
}

export interface TurnOutput {
  messages: Message[];
  toolCalls: ToolCall[];
  text: string;
  usage: { input: number; output: number };
  finishReason: string;
}

export interface TurnRequest {
  model: LanguageModel;
  system: string;
  messages: Message[];
  tools: readonly ToolDefinition[];
  providerOptions: ProviderOptions;
  signal: AbortSignal;
  idleTimeoutMs: number;
  onText: (delta: string) => void;
}

/** The provider's tool list for a list of definitions (calls come back to us). */
export function toProviderTools(defs: readonly ToolDefinition[]): LanguageModelV4FunctionTool[] {
  return defs.map((d) => ({
    type: "function",
    name: d.name,
    description: d.description,
    inputSchema: d.inputSchema as LanguageModelV4FunctionTool["inputSchema"],
  }));
}

function withOptions<T extends object>(part: T, options: PartMetadata | undefined): T {
  return options ? { ...part, providerOptions: options } : part;
}

/**
 * The provider prompt for a conversation: the system prompt first, user text,
 * assistant parts with their provider options (empty text without options
 * dropped), and tool results (consecutive tool messages merged).
 */
export function toPrompt(system: string, messages: readonly Message[]): LanguageModelV4Prompt {
  const prompt: LanguageModelV4Prompt = [{ role: "system", content: system }];
  for (const m of messages) {
    switch (m.role) {
      case "user":
        prompt.push({ role: "user", content: [{ type: "text", text: m.content }] });
        break;
      case "assistant": {
        if (typeof m.content === "string") {
          prompt.push({ role: "assistant", content: [{ type: "text", text: m.content }] });
          break;
        }
        const content: Extract<LanguageModelV4Message, { role: "assistant" }>["content"] = [];
        for (const p of m.content) {
          switch (p.type) {
            case "text":
              if (p.text !== "" || p.providerOptions) {
                content.push(withOptions({ type: "text", text: p.text }, p.providerOptions));
              }
              break;
            case "reasoning":
              content.push(withOptions({ type: "reasoning", text: p.text }, p.providerOptions));
              break;
            case "tool-call":
              content.push(withOptions({
                type: "tool-call",
                toolCallId: p.toolCallId,
                toolName: p.toolName,
                input: p.input,
              }, p.providerOptions));
              break;
          }
        }
        prompt.push({ role: "assistant", content });
        break;
      }
      case "tool": {
        const parts = m.content.map((p) => ({
          type: "tool-result" as const,
          toolCallId: p.toolCallId,
          toolName: p.toolName,
          output: { type: p.output.type, value: p.output.value },
        }));
        const last = prompt.at(-1);
        if (last?.role === "tool") last.content.push(...parts);
        else if (parts.length > 0) prompt.push({ role: "tool", content: parts });
        break;
      }
    }
  }
  return prompt;
}

/** Parses JSON, refusing `__proto__` keys and `constructor.prototype` (prototype poisoning). */
function parseJsonSafely(text: string): unknown {
  return JSON.parse(text, function (key, value) {
    if (
      key === "__proto__" ||
      (key === "constructor" && value && typeof value === "object" && "prototype" in value)
    ) {
      throw new SyntaxError(`forbidden key '${key}'`);
    }
    return value;
  });
}

/**
 * A tool call as the stream delivered it (`input` is JSON text) checked
 * against the offered tools: unknown names and input that is not JSON come
 * back with `invalid` set, for the loop to report to the model.
 */
export function parseToolCall(
  part: { toolCallId: string; toolName: string; input: string },
  offered: readonly ToolDefinition[],
): ToolCall {
  const call: ToolCall = { id: part.toolCallId, name: part.toolName, input: part.input };
  const text = typeof part.input === "string" ? part.input : JSON.stringify(part.input ?? {});
  let parseError: string | undefined;
  try {
    call.input = text.trim() === "" ? {} : parseJsonSafely(text);
  } catch (err) {
    parseError = err instanceof Error ? err.message : String(err);
  }
  if (!offered.some((d) => d.name === part.toolName)) {
    call.invalid = `Model tried to call unavailable tool '${part.toolName}'. Available tools: ${
      offered.map((d) => d.name).join(", ")
    }.`;
  } else if (parseError !== undefined) {
    call.invalid = `input is not valid JSON: ${parseError}`;
  }
  return call;
}

function tokens(v: unknown): number {
  if (typeof v === "number") return v;
  const total = (v as { total?: unknown } | undefined)?.total;
  return typeof total === "number" ? total : 0;
}

/** An `error` stream part's payload as an Error the retry policy can classify. */
function streamError(error: unknown): unknown {
  if (error instanceof Error || typeof error !== "object" || error === null) return error;
  // deno-lint-ignore no-explicit-any
  const outer = error as any;
  const details = outer.error && typeof outer.error === "object" ? outer.error : outer;
  if (typeof details.message !== "string") return error;
  const http = (v: unknown) =>
    typeof v === "number" && Number.isInteger(v) && v >= 100 && v <= 599 ? v : undefined;
  let statusCode = http(details.statusCode) ?? http(outer.statusCode) ?? http(details.status) ??
    http(outer.status) ?? http(details.code) ?? http(outer.code);
  if (statusCode === undefined) {
    const m = details.message.trim().toLowerCase();
    if (m === "overloaded" || m === "overloaded error" || m === "model overloaded") {
      statusCode = 503;
    } else if (m === "internal server error") statusCode = 500;
    else if (m === "service unavailable") statusCode = 503;
  }
  const err = new Error(details.message);
  err.name = "AI_StreamProviderError";
  return statusCode === undefined ? err : Object.assign(err, { statusCode });
}

/** Resolves with `promise`, or rejects as soon as `signal` aborts. */
function unlessAborted<T>(promise: PromiseLike<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    Promise.resolve(promise).then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}

/** Runs one model call; throws the provider's error (or {@link IdleTimeoutError}) on failure. */
export async function streamTurn(req: TurnRequest): Promise<TurnOutput> {
  const attempt = new AbortController();
  const onOuterAbort = () => attempt.abort(req.signal.reason);
  if (req.signal.aborted) throw req.signal.reason;
  req.signal.addEventListener("abort", onOuterAbort, { once: true });
  let idle: ReturnType<typeof setTimeout> | undefined;
  let idleError: IdleTimeoutError | undefined;
  const arm = () => {
    if (idle) clearTimeout(idle);
    idle = setTimeout(() => {
      idleError = new IdleTimeoutError(req.idleTimeoutMs);
      attempt.abort(idleError);
    }, req.idleTimeoutMs);
  };
  let failure: unknown;
  let reader: ReadableStreamDefaultReader<LanguageModelV4StreamPart> | undefined;
  let drained = false;
  try {
    arm();
    const { stream } = await unlessAborted(
      req.model.doStream({
        prompt: toPrompt(req.system, req.messages),
        tools: toProviderTools(req.tools),
        toolChoice: { type: "auto" },
        providerOptions: req.providerOptions as SharedV4ProviderOptions,
        maxOutputTokens: MAX_OUTPUT_TOKENS,
        abortSignal: attempt.signal,
      }),
      attempt.signal,
    );
    reader = stream.getReader();
    const content: Array<TextPart | ReasoningPart | ToolCallPart> = [];
    const open = new Map<string, TextPart | ReasoningPart>();
    const toolCalls: ToolCall[] = [];
    let text = "";
    const usage = { input: 0, output: 0 };
    let finishReason = "unknown";
    // Text and reasoning blocks by stream id; metadata of a later part wins.
    const block = (
      kind: "text" | "reasoning",
      id: string,
      meta?: PartMetadata,
    ): TextPart | ReasoningPart => {
      const key = `${kind}:${id}`;
      let p = open.get(key);
      if (!p) {
        const created: TextPart | ReasoningPart = kind === "text"
          ? { type: "text", text: "" }
          : { type: "reasoning", text: "" };
        open.set(key, created);
        content.push(created);
        p = created;
      }
      if (meta) p.providerOptions = meta;
      return p;
    };
    for (;;) {
      const next = await unlessAborted(reader.read(), attempt.signal);
      if (next.done) break;
      arm();
      const part = next.value;
      switch (part.type) {
        case "text-start":
          open.delete(`text:${part.id}`);
          block("text", part.id, part.providerMetadata);
          break;
        case "text-delta":
          block("text", part.id, part.providerMetadata).text += part.delta;
          if (part.delta) {
            text += part.delta;
            req.onText(part.delta);
          }
          break;
        case "text-end":
          block("text", part.id, part.providerMetadata);
          open.delete(`text:${part.id}`);
          break;
        case "reasoning-start":
          open.delete(`reasoning:${part.id}`);
          block("reasoning", part.id, part.providerMetadata);
          break;
        case "reasoning-delta":
          block("reasoning", part.id, part.providerMetadata).text += part.delta;
          break;
        case "reasoning-end":
          block("reasoning", part.id, part.providerMetadata);
          open.delete(`reasoning:${part.id}`);
          break;
        case "tool-call": {
          if (part.providerExecuted) break;
          const call = parseToolCall(part, req.tools);
          toolCalls.push(call);
          const input = call.input;
          content.push(withOptions({
            type: "tool-call",
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            // The history needs an object even when the model sent none.
            input: input !== null && typeof input === "object" && !Array.isArray(input)
              ? input
              : {},
          }, part.providerMetadata));
          break;
        }
        case "finish": {
          usage.input += tokens(part.usage?.inputTokens);
          usage.output += tokens(part.usage?.outputTokens);
          const fr = part.finishReason as unknown;
          finishReason = typeof fr === "string"
            ? fr
            : (fr as { unified?: string } | undefined)?.unified ?? "unknown";
          break;
        }
        case "error":
          failure ??= streamError(part.error) ?? new Error("the model stream reported an error");
          break;
      }
    }
    drained = true;
    if (idleError) throw idleError;
    if (failure !== undefined) throw failure;
    const kept = content.filter((p) => p.type !== "text" || p.text !== "" || p.providerOptions);
    const messages: Message[] = kept.length > 0 ? [{ role: "assistant", content: kept }] : [];
    return { messages, toolCalls, text, usage, finishReason };
  } catch (err) {
    if (req.signal.aborted) throw req.signal.reason;
    if (idleError) throw idleError;
    throw failure ?? err;
  } finally {
    if (idle) clearTimeout(idle);
    req.signal.removeEventListener("abort", onOuterAbort);
    // Stop reading what is left (closes the connection of a failed attempt).
    if (reader && !drained) reader.cancel().catch(() => {});
  }
}

/** Raised when a model call failed for good; the message names model and endpoint. */
export class ModelCallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ModelCallError";
  }
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Runs `call` until it succeeds, the error is not retryable, or the policy's
 * retries are spent; then throws a {@link ModelCallError}.
 */
export async function callModelWithRetries<T>(
  call: () => Promise<T>,
  opts: {
    policy: RetryPolicy;
    signal: AbortSignal;
    target: { model: string; baseURL: string };
    onRetry?: (attempt: number, delayMs: number, reason: string) => void;
  },
): Promise<T> {
  for (let attempt = 0;; attempt++) {
    try {
      return await call();
    } catch (err) {
      if (opts.signal.aborted) throw opts.signal.reason;
      const info = classifyModelError(err);
      const delay = info.retryable && attempt < opts.policy.maxRetries
        ? retryDelayMs(attempt, info, opts.policy, Math.random())
        : undefined;
      if (delay === undefined) {
        let message = describeModelFailure(info, opts.target, attempt + 1);
        if (info.retryable && info.retryAfterMs !== undefined && attempt < opts.policy.maxRetries) {
          message += ` (the server asked to wait ${Math.ceil(info.retryAfterMs / 1000)} s)`;
        }
        throw new ModelCallError(message);
      }
      opts.onRetry?.(attempt + 1, delay, info.reason);
      await sleep(delay, opts.signal);
    }
  }
}
