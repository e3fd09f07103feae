/**
 * One model turn: sends the conversation and the tool definitions, streams
 * the text back as it arrives, and returns the assistant's messages, the tool
 * calls it made (not executed: the loop runs tools itself) and the token
 * usage (cache reads and writes included). A call that sends nothing for
 * `idleTimeoutMs` counts as failed; `retries.ts` decides whether it is tried
 * again. One turn's output (text, reasoning and tool arguments) is capped at
 * {@link MAX_TURN_OUTPUT_CHARS}: past it the call stops with a
 * {@link TurnOutputLimitError} (not retried) instead of growing memory.
 *
 * Speaks the provider interface (`LanguageModelV4` of `@ai-sdk/provider`)
 * directly: the conversation becomes the provider prompt
 * (`conversation.ts`), and the stream parts become the assistant message. The AI SDK's `ai` package is
 * not loaded: importing it costs a child a large share of its start-up.
 * Reasoning, text and tool-call parts keep their provider metadata, which
 * goes back as provider options on the next call (Anthropic's thinking
 * signatures, Gemini's thought signatures).
 *
 * @module
 */
import type { LanguageModelV4StreamPart, SharedV4ProviderOptions } from "@ai-sdk/provider";
import { IdleTimeoutError } from "../model/retry.ts";
import { type Effort, MAX_OUTPUT_TOKENS, type ProviderOptions } from "../model/capabilities.ts";
import {
  type LanguageModel,
  type Message,
  parseToolCall,
  type PartMetadata,
  type ReasoningPart,
  type TextPart,
  type ToolCall,
  type ToolCallPart,
  type ToolDefinition,
  toPrompt,
  toProviderTools,
  withOptions,
} from "./conversation.ts";
import { withAnthropicBreakpoints } from "./cache-breakpoints.ts";

/** Token counts of one turn; `input` includes the cached input tokens. */
export interface TurnUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export interface TurnOutput {
  messages: Message[];
  toolCalls: ToolCall[];
  text: string;
  usage: TurnUsage;
  finishReason: string;
  /** The answer's HTTP headers, when the provider package passes them on (rate limits). */
  headers?: Record<string, string>;
}

/** Most characters one model turn may produce (text, reasoning and tool arguments). */
export const MAX_TURN_OUTPUT_CHARS = 1024 * 1024;

/** Raised when a turn's output passes {@link MAX_TURN_OUTPUT_CHARS}. */
export class TurnOutputLimitError extends Error {
  constructor(limit: number) {
    super(
      `the model's turn passed ${limit / (1024 * 1024)} MiB of output (text, reasoning and ` +
        "tool arguments); the call was stopped",
    );
    this.name = "TurnOutputLimitError";
  }
}

/** Where one turn's output is capped, and a forced tool choice. */
export interface TurnControls {
  /** Makes the model call this tool (the provider's tool choice). */
  forceTool?: string;
  /** Forces `forceTool` by offering it alone with an automatic choice, for a
   * model that refuses a forced choice (Anthropic while thinking). */
  narrow?: boolean;
  /** Overrides {@link MAX_TURN_OUTPUT_CHARS} (tests). */
  maxOutputChars?: number;
}

export interface TurnRequest {
  model: LanguageModel;
  system: string;
  messages: Message[];
  tools: readonly ToolDefinition[];
  providerOptions: ProviderOptions;
  /** The SDK's portable reasoning option (`capabilities.ts` decides it). */
  reasoning?: Effort;
  /** Output tokens to allow; {@link MAX_OUTPUT_TOKENS} when unset. */
  maxOutputTokens?: number;
  signal: AbortSignal;
  idleTimeoutMs: number;
  onText: (delta: string) => void;
  /** Called at the answer's first part from the provider (the `stream-start` the SDK adds aside). */
  onAnswer?: () => void;
  controls?: TurnControls;
  /** Mark Anthropic cache breakpoints (`cache-breakpoints.ts`). */
  breakpoints?: boolean;
  /** Sampling settings the agent file asks for, sent as the call's own settings. */
  sampling?: { temperature?: number; topP?: number; topK?: number };
}

function tokens(v: unknown): number {
  if (typeof v === "number") return v;
  const total = (v as { total?: unknown } | undefined)?.total;
  return typeof total === "number" ? total : 0;
}

/** Cached input tokens of one kind, when the provider reports them. */
function cached(v: unknown, kind: "cacheRead" | "cacheWrite"): number {
  const n = (v as Record<string, unknown> | undefined)?.[kind];
  return typeof n === "number" ? n : 0;
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
    let prompt = toPrompt(req.system, req.messages);
    const force = req.controls?.forceTool;
    const narrow = force !== undefined && req.controls?.narrow === true;
    let tools = toProviderTools(narrow ? req.tools.filter((t) => t.name === force) : req.tools);
    if (req.breakpoints) ({ prompt, tools } = withAnthropicBreakpoints(prompt, tools));
    const { stream, response } = await unlessAborted(
      req.model.doStream({
        prompt,
        tools,
        toolChoice: force && !narrow ? { type: "tool", toolName: force } : { type: "auto" },
        providerOptions: req.providerOptions as SharedV4ProviderOptions,
        ...(req.reasoning ? { reasoning: req.reasoning } : {}),
        maxOutputTokens: req.maxOutputTokens ?? MAX_OUTPUT_TOKENS,
        ...req.sampling,
        abortSignal: attempt.signal,
      }),
      attempt.signal,
    );
    reader = stream.getReader();
    const content: Array<TextPart | ReasoningPart | ToolCallPart> = [];
    const open = new Map<string, TextPart | ReasoningPart>();
    const toolCalls: ToolCall[] = [];
    let text = "";
    const usage: TurnUsage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
    const maxChars = req.controls?.maxOutputChars ?? MAX_TURN_OUTPUT_CHARS;
    let produced = 0;
    const count = (delta: string | undefined) => {
      produced += delta?.length ?? 0;
      if (produced > maxChars) throw new TurnOutputLimitError(maxChars);
    };
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
    let answering = false;
    for (;;) {
      const next = await unlessAborted(reader.read(), attempt.signal);
      if (next.done) break;
      arm();
      const part = next.value;
      if (!answering && part.type !== "stream-start") {
        answering = true;
        req.onAnswer?.();
      }
      switch (part.type) {
        case "text-start":
          open.delete(`text:${part.id}`);
          block("text", part.id, part.providerMetadata);
          break;
        case "text-delta":
          count(part.delta);
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
          count(part.delta);
          block("reasoning", part.id, part.providerMetadata).text += part.delta;
          break;
        case "reasoning-end":
          block("reasoning", part.id, part.providerMetadata);
          open.delete(`reasoning:${part.id}`);
          break;
        case "tool-input-delta":
          count(part.delta);
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
          usage.cacheRead += cached(part.usage?.inputTokens, "cacheRead");
          usage.cacheWrite += cached(part.usage?.inputTokens, "cacheWrite");
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
    const headers = response?.headers as Record<string, string> | undefined;
    return { messages, toolCalls, text, usage, finishReason, ...(headers ? { headers } : {}) };
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
