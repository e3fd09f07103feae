/**
 * When a failed model call is tried again: retryable failures wait the
 * policy's delay (or what the server asked for) and go again until the
 * retries are spent; then one {@link ModelCallError} names the model, the
 * endpoint and the cause.
 *
 * @example
 * ```ts
 * import type { RetryPolicy } from "../model/retry.ts";
 * import { streamTurn, type TurnRequest } from "./turn.ts";
 *
 * declare const req: TurnRequest;
 * declare const policy: RetryPolicy;
 * const signal = new AbortController().signal;
 * const target = { model: "anthropic/claude-sonnet-4-5", baseURL: "https://api.anthropic.com/v1" };
 * const out = await callModelWithRetries(() => streamTurn(req), { policy, signal, target });
 * ```
 *
 * @module
 */
import {
  classifyModelError,
  describeModelFailure,
  retryDelayMs,
  type RetryPolicy,
} from "../model/retry.ts";
import { sleep } from "../process/abortable-sleep.ts";

/** Raised when a model call failed for good; the message names model and endpoint. */
export class ModelCallError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "ModelCallError";
  }
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
        throw new ModelCallError(message, err);
      }
      opts.onRetry?.(attempt + 1, delay, info.reason);
      await sleep(delay, opts.signal);
    }
  }
}
