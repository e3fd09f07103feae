/**
 * When a failed model call is worth repeating, how long to wait first, and
 * how to name the failure when giving up.
 *
 * Retried: HTTP 408, 409, 429 and 5xx, network failures, streams that break
 * off or arrive garbled (even after a 2xx status), and calls that stop answering (idle timeout). Not
 * retried: other 4xx (a bad key, an unknown model, a bad request) and local
 * argument errors. The wait honours `retry-after-ms` / `retry-after`
 * (seconds or an HTTP date) up to a cap; a longer demand ends the retries.
 * Otherwise it backs off exponentially. Pure.
 *
 * @example
 * ```ts
 * const info = classifyModelError({ name: "AI_APICallError", statusCode: 429,
 *   responseHeaders: { "retry-after": "2" }, message: "rate limited" });
 * // { retryable: true, status: 429, retryAfterMs: 2000, reason: "HTTP 429: rate limited" }
 * retryDelayMs(0, info, DEFAULT_RETRY_POLICY); // 2000
 * ```
 *
 * @module
 */

export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** First backoff; doubles each retry. */
  baseDelayMs: number;
  /** Longest wait, backoff or `retry-after`. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = {
  maxRetries: 3,
  baseDelayMs: 1000,
  maxDelayMs: 60_000,
};

export interface ErrorInfo {
  retryable: boolean;
  status?: number;
  retryAfterMs?: number;
  /** One line, without secrets or request bodies. */
  reason: string;
}

/** Raised by the child when a model call stops sending data. */
export class IdleTimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`no data from the model for ${Math.round(ms / 1000)} s`);
    this.name = "IdleTimeoutError";
  }
}

const NOT_RETRYABLE = new Set([
  "AI_InvalidPromptError",
  "AI_InvalidArgumentError",
  "AI_UnsupportedFunctionalityError",
  "AI_LoadAPIKeyError",
  "AI_NoSuchModelError",
  "TurnOutputLimitError",
]);

/** Parses `retry-after-ms` or `retry-after` from response headers. */
export function parseRetryAfter(
  headers: Record<string, string | undefined> | undefined,
  now = Date.now(),
): number | undefined {
  if (!headers) return undefined;
  const lower: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(headers)) lower[k.toLowerCase()] = v;
  const ms = lower["retry-after-ms"];
  if (ms !== undefined && ms.trim() !== "" && Number.isFinite(Number(ms))) {
    return Math.max(0, Number(ms));
  }
  const ra = lower["retry-after"];
  if (ra === undefined || ra.trim() === "") return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(ra)) return Math.max(0, Number(ra) * 1000);
  const date = Date.parse(ra);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function firstLine(s: string): string {
  const line = s.split("\n")[0].trim();
  return line.length > 300 ? line.slice(0, 300) + "…" : line;
}

/** Classifies an error thrown by a model call. */
export function classifyModelError(err: unknown): ErrorInfo {
  // deno-lint-ignore no-explicit-any
  const e = err as any;
  const name: string = typeof e?.name === "string" ? e.name : "";
  const message = firstLine(typeof e?.message === "string" ? e.message : String(err));
  if (err instanceof IdleTimeoutError || name === "IdleTimeoutError") {
    return { retryable: true, reason: message };
  }
  if (typeof e?.statusCode === "number") {
    const status: number = e.statusCode;
    // A 2xx whose body broke off or could not be read is a transport failure.
    if (status >= 200 && status < 300) {
      const cause = e.cause?.message ? `: ${firstLine(String(e.cause.message))}` : "";
      return { retryable: true, reason: `response broke off or was unreadable${cause}` };
    }
    const retryable = status === 408 || status === 409 || status === 429 || status >= 500;
    return {
      retryable,
      status,
      retryAfterMs: parseRetryAfter(e.responseHeaders),
      reason: `HTTP ${status}: ${message}`,
    };
  }
  if (NOT_RETRYABLE.has(name)) return { retryable: false, reason: message };
  if (name === "AI_APICallError") {
    // The SDK often repeats the cause in its own message: say it once.
    const causeText = e.cause?.message ? firstLine(String(e.cause.message)) : "";
    const cause = causeText && !message.includes(causeText) ? ` (${causeText})` : "";
    return { retryable: true, reason: `${message}${cause}` };
  }
  if (name === "AI_JSONParseError" || name === "AI_TypeValidationError") {
    return { retryable: true, reason: `malformed response from the model server: ${message}` };
  }
  return { retryable: true, reason: message || name || "unknown error" };
}

/**
 * How long to wait before retry number `attempt + 1`, or `undefined` when
 * the server asks for a longer wait than the policy allows.
 * `jitter` in [0, 1) spreads retries of parallel children.
 */
export function retryDelayMs(
  attempt: number,
  info: ErrorInfo,
  policy: RetryPolicy,
  jitter = 0.5,
): number | undefined {
  if (info.retryAfterMs !== undefined) {
    return info.retryAfterMs > policy.maxDelayMs ? undefined : info.retryAfterMs;
  }
  const backoff = policy.baseDelayMs * 2 ** attempt;
  return Math.min(policy.maxDelayMs, Math.round(backoff * (0.75 + 0.5 * jitter)));
}

/**
 * The one-line error for a model call that failed for good.
 *
 * @example
 * ```ts
 * describeModelFailure({ retryable: true, reason: "HTTP 500: boom" },
 *   { model: "anthropic/claude-x", baseURL: "http://127.0.0.1:9/v1" }, 4);
 * // "model call failed: anthropic/claude-x at http://127.0.0.1:9/v1: HTTP 500: boom (gave up after 4 attempts)"
 * ```
 */
export function describeModelFailure(
  info: ErrorInfo,
  target: { model: string; baseURL: string },
  attempts: number,
): string {
  const tail = attempts > 1 ? ` (gave up after ${attempts} attempts)` : "";
  const hint = info.status === 401 || info.status === 403
    ? " — check the API key"
    : info.status === 404
    ? " — check the model name and base URL"
    : "";
  return `model call failed: ${target.model} at ${target.baseURL}: ${info.reason}${hint}${tail}`;
}
