/**
 * One model turn: sends the conversation and the tool definitions, streams
 * the text back as it arrives, and returns the assistant's messages, the tool
 * calls it made (not executed: the loop runs tools itself) and the token
 * usage. Failed calls are retried by {@link callModelWithRetries} according
 * to the retry policy; a call that sends nothing for `idleTimeoutMs` counts
 * as failed. The only module that calls the AI SDK's `streamText`.
 *
 * @module
 */
import {
  jsonSchema,
  type LanguageModel,
  type ModelMessage,
  streamText,
  tool,
  type ToolSet,
} from "ai";
import {
  classifyModelError,
  describeModelFailure,
  IdleTimeoutError,
  retryDelayMs,
  type RetryPolicy,
} from "../model/retry.ts";
import { MAX_OUTPUT_TOKENS, type ProviderOptions } from "../model/thinking.ts";
import type { JsonSchemaObject } from "../tools/types.ts";

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
  messages: ModelMessage[];
  toolCalls: ToolCall[];
  text: string;
  usage: { input: number; output: number };
  finishReason: string;
}

export interface TurnRequest {
  model: LanguageModel;
  system: string;
  messages: ModelMessage[];
  tools: readonly ToolDefinition[];
  providerOptions: ProviderOptions;
  signal: AbortSignal;
  idleTimeoutMs: number;
  onText: (delta: string) => void;
}

/** The SDK tool set for a list of definitions (no `execute`: calls come back to us). */
export function toToolSet(defs: readonly ToolDefinition[]): ToolSet {
  const set: ToolSet = {};
  for (const d of defs) {
    set[d.name] = tool({ description: d.description, inputSchema: jsonSchema(d.inputSchema) });
  }
  return set;
}

/** Runs one model call; throws the SDK's error (or {@link IdleTimeoutError}) on failure. */
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
  let streamError: unknown;
  try {
    arm();
    const result = streamText({
      model: req.model,
      instructions: req.system,
      messages: req.messages,
      tools: toToolSet(req.tools),
      providerOptions: req.providerOptions,
      maxOutputTokens: MAX_OUTPUT_TOKENS,
      maxRetries: 0,
      abortSignal: attempt.signal,
      onError: ({ error }) => {
        streamError ??= error;
      },
    });
    const toolCalls: ToolCall[] = [];
    let text = "";
    const usage = { input: 0, output: 0 };
    let finishReason = "unknown";
    for await (const part of result.fullStream) {
      arm();
      switch (part.type) {
        case "text-delta":
          if (part.text) {
            text += part.text;
            req.onText(part.text);
          }
          break;
        case "tool-call": {
          // deno-lint-ignore no-explicit-any
          const p = part as any;
          toolCalls.push({
            id: p.toolCallId,
            name: p.toolName,
            input: p.input,
            ...(p.invalid
              ? { invalid: p.error?.message ? String(p.error.message) : "invalid tool call" }
              : {}),
          });
          break;
        }
        case "finish-step":
          usage.input += part.usage.inputTokens ?? 0;
          usage.output += part.usage.outputTokens ?? 0;
          finishReason = part.finishReason;
          break;
        case "error":
          streamError ??= part.error;
          break;
        case "abort":
          streamError ??= idleError ?? req.signal.reason ?? new Error("aborted");
          break;
      }
    }
    if (idleError) throw idleError;
    if (streamError) throw streamError;
    const response = await result.response;
    return { messages: response.messages, toolCalls, text, usage, finishReason };
  } catch (err) {
    if (req.signal.aborted) throw req.signal.reason;
    if (idleError) throw idleError;
    throw streamError ?? err;
  } finally {
    if (idle) clearTimeout(idle);
    req.signal.removeEventListener("abort", onOuterAbort);
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
