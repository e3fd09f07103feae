/**
 * How the scripted model server limits requests the way the real APIs do:
 * per API key (and per model when asked), requests per minute, tokens per
 * minute and requests in flight, each refilled continuously (a token
 * bucket), with a time scale so a "minute" can last 600 ms in a test. Every
 * answer carries the provider's rate-limit headers; a request over a limit
 * gets the provider's own 429 status, headers and body, and uses no turn.
 *
 * Sources, by short name in the comments below:
 * - [anthropic-rate-limits]: Anthropic's "Rate limits" page: limits are
 *   enforced with the token bucket algorithm (capacity refilled continuously
 *   up to the maximum); the response headers
 *   `anthropic-ratelimit-requests-limit` / `-remaining` / `-reset`,
 *   `anthropic-ratelimit-tokens-…` (the most restrictive token limit),
 *   `anthropic-ratelimit-input-tokens-…` / `-output-tokens-…`, resets in
 *   RFC 3339 format; a 429 carries `retry-after` (seconds) and the body
 *   `{"type":"error","error":{"type":"rate_limit_error","message":…}}`.
 * - [openai-rate-limits]: OpenAI's "Rate limits" guide: headers
 *   `x-ratelimit-limit-requests`, `x-ratelimit-limit-tokens`,
 *   `x-ratelimit-remaining-requests`, `x-ratelimit-remaining-tokens`,
 *   `x-ratelimit-reset-requests`, `x-ratelimit-reset-tokens` (durations such
 *   as `1s`, `6m0s`, `20ms`); its error-codes page: 429 with code
 *   `rate_limit_exceeded` and the message "Rate limit reached for {model} in
 *   organization {org} on requests per min (RPM): Limit N, Used N, Requested
 *   1. Please try again in 20s. …". The OpenAI SDKs honour `retry-after-ms`
 *   and `retry-after`.
 * - [gemini-rate-limits]: Gemini API "Rate limits" and "Troubleshooting": a
 *   429 `RESOURCE_EXHAUSTED` whose `error.details` hold a
 *   `google.rpc.QuotaFailure` (quota metric, id, dimensions) and a
 *   `google.rpc.RetryInfo` with `retryDelay` (e.g. `"38s"`); limits are per
 *   project and per model; no rate-limit headers on a successful answer.
 *
 * @module
 */

import type { WireFormat } from "./strict-rules.ts";

/** The limits of one key (and model, with `perModel`). Each is optional. */
export interface RateLimitRules {
  /** Requests per (scaled) minute. */
  requestsPerMinute?: number;
  /** Input tokens per (scaled) minute, counted from the request. */
  tokensPerMinute?: number;
  /** Requests being answered at the same time. */
  concurrent?: number;
  /** Limits held per key and model [gemini-rate-limits], not per key alone. */
  perModel?: boolean;
  /** How long a minute lasts, in ms (default 60 000): 600 makes tests 100× faster. */
  minuteMs?: number;
}

/** What the limiter decided about one request. */
export type LimitDecision =
  | { ok: true; headers: Record<string, string>; release: () => void }
  | { ok: false; status: 429; headers: Record<string, string>; body: unknown };

interface Bucket {
  level: number;
  at: number;
}

interface KeyState {
  requests: Bucket;
  tokens: Bucket;
  inFlight: number;
}

/** Counts of what the limiter did, for tests. */
export interface LimitCounts {
  allowed: number;
  refused: number;
}

/** Per-key token buckets; `now` is injectable so the rules can be tested without waiting. */
export class RateLimiter {
  readonly counts: LimitCounts = { allowed: 0, refused: 0 };
  private readonly keys = new Map<string, KeyState>();
  private readonly minute: number;

  constructor(readonly rules: RateLimitRules, private readonly now = () => Date.now()) {
    this.minute = rules.minuteMs ?? 60_000;
  }

  /** Admits or refuses one request of `tokens` input tokens. */
  admit(format: WireFormat, key: string, model: string, tokens: number): LimitDecision {
    const r = this.rules;
    const id = r.perModel ? `${key}\u0000${model}` : key;
    const t = this.now();
    let s = this.keys.get(id);
    if (!s) {
      s = {
        requests: { level: r.requestsPerMinute ?? 0, at: t },
        tokens: { level: r.tokensPerMinute ?? 0, at: t },
        inFlight: 0,
      };
      this.keys.set(id, s);
    }
    refill(s.requests, r.requestsPerMinute, this.minute, t);
    refill(s.tokens, r.tokensPerMinute, this.minute, t);
    // Which limit refuses, and how long until it would admit this request.
    let waitMs = 0;
    let which: "requests" | "tokens" | "concurrent" | undefined;
    if (r.requestsPerMinute !== undefined && s.requests.level < 1) {
      which = "requests";
      waitMs = need(s.requests, 1, r.requestsPerMinute, this.minute);
    } else if (
      r.tokensPerMinute !== undefined && s.tokens.level < Math.min(tokens, r.tokensPerMinute)
    ) {
      which = "tokens";
      waitMs = need(s.tokens, Math.min(tokens, r.tokensPerMinute), r.tokensPerMinute, this.minute);
    } else if (r.concurrent !== undefined && s.inFlight >= r.concurrent) {
      // [anthropic-rate-limits] has no concurrency header; a short retry-after is what a
      // busy server sends. One second of scaled time.
      which = "concurrent";
      waitMs = this.minute / 60;
    }
    if (which) {
      this.counts.refused++;
      const headers = this.headers(format, s, t);
      return { ok: false, status: 429, ...refusal(format, which, waitMs, model, r, headers) };
    }
    if (r.requestsPerMinute !== undefined) s.requests.level -= 1;
    if (r.tokensPerMinute !== undefined) s.tokens.level -= Math.min(tokens, r.tokensPerMinute);
    s.inFlight++;
    this.counts.allowed++;
    let released = false;
    const state = s;
    return {
      ok: true,
      headers: this.headers(format, s, t),
      release: () => {
        if (!released) state.inFlight--;
        released = true;
      },
    };
  }

  /** The rate-limit headers every answer of this provider carries. */
  private headers(format: WireFormat, s: KeyState, t: number): Record<string, string> {
    const r = this.rules;
    const h: Record<string, string> = {};
    const reqReset = r.requestsPerMinute === undefined
      ? 0
      : need(s.requests, r.requestsPerMinute, r.requestsPerMinute, this.minute);
    const tokReset = r.tokensPerMinute === undefined
      ? 0
      : need(s.tokens, r.tokensPerMinute, r.tokensPerMinute, this.minute);
    if (format === "anthropic") {
      // [anthropic-rate-limits]: resets are RFC 3339 times at which the bucket is full.
      if (r.requestsPerMinute !== undefined) {
        h["anthropic-ratelimit-requests-limit"] = String(r.requestsPerMinute);
        h["anthropic-ratelimit-requests-remaining"] = String(Math.floor(s.requests.level));
        h["anthropic-ratelimit-requests-reset"] = new Date(t + reqReset).toISOString();
      }
      if (r.tokensPerMinute !== undefined) {
        for (const kind of ["tokens", "input-tokens"]) {
          h[`anthropic-ratelimit-${kind}-limit`] = String(r.tokensPerMinute);
          h[`anthropic-ratelimit-${kind}-remaining`] = String(Math.floor(s.tokens.level));
          h[`anthropic-ratelimit-${kind}-reset`] = new Date(t + tokReset).toISOString();
        }
      }
    } else if (format === "openai" || format === "responses") {
      // [openai-rate-limits]: resets are durations until the limit is back in full.
      if (r.requestsPerMinute !== undefined) {
        h["x-ratelimit-limit-requests"] = String(r.requestsPerMinute);
        h["x-ratelimit-remaining-requests"] = String(Math.floor(s.requests.level));
        h["x-ratelimit-reset-requests"] = openAIDuration(reqReset);
      }
      if (r.tokensPerMinute !== undefined) {
        h["x-ratelimit-limit-tokens"] = String(r.tokensPerMinute);
        h["x-ratelimit-remaining-tokens"] = String(Math.floor(s.tokens.level));
        h["x-ratelimit-reset-tokens"] = openAIDuration(tokReset);
      }
    }
    // [gemini-rate-limits]: no headers; the 429 body says when to retry.
    return h;
  }
}

function refill(b: Bucket, limit: number | undefined, minute: number, t: number): void {
  if (limit === undefined) return;
  b.level = Math.min(limit, b.level + ((t - b.at) * limit) / minute);
  b.at = t;
}

/** Milliseconds until bucket `b` holds `amount`. */
function need(b: Bucket, amount: number, limit: number, minute: number): number {
  return b.level >= amount ? 0 : Math.ceil(((amount - b.level) * minute) / limit);
}

/** `6m0s`, `1s`, `20ms`, `1.5s`: the duration format of [openai-rate-limits]. */
export function openAIDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.ceil(ms))}ms`;
  const m = Math.floor(ms / 60_000);
  const s = Math.round((ms - m * 60_000) / 10) / 100;
  return m > 0 ? `${m}m${s}s` : `${s}s`;
}

function refusal(
  format: WireFormat,
  which: "requests" | "tokens" | "concurrent",
  waitMs: number,
  model: string,
  r: RateLimitRules,
  limitHeaders: Record<string, string>,
): { headers: Record<string, string>; body: unknown } {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  if (format === "anthropic") {
    // [anthropic-rate-limits]: retry-after in whole seconds.
    const what = which === "requests"
      ? `the rate limit of ${r.requestsPerMinute} requests per minute`
      : which === "tokens"
      ? `the rate limit of ${r.tokensPerMinute} input tokens per minute`
      : "the limit of concurrent requests";
    return {
      headers: { ...limitHeaders, "retry-after": String(seconds) },
      body: {
        type: "error",
        error: {
          type: "rate_limit_error",
          message: `This request would exceed ${what} for your organization. ` +
            "Please reduce the prompt length or the maximum tokens requested, or try again later.",
        },
      },
    };
  }
  if (format === "openai" || format === "responses") {
    // [openai-rate-limits]: retry-after-ms is exact, retry-after in seconds.
    const limit = which === "requests"
      ? `requests per min (RPM): Limit ${r.requestsPerMinute}, Used ${r.requestsPerMinute}, Requested 1`
      : which === "tokens"
      ? `tokens per min (TPM): Limit ${r.tokensPerMinute}`
      : "concurrent requests";
    return {
      headers: {
        ...limitHeaders,
        "retry-after-ms": String(Math.ceil(waitMs)),
        "retry-after": String(seconds),
      },
      body: {
        error: {
          message: `Rate limit reached for ${model} in organization org-test on ${limit}. ` +
            `Please try again in ${openAIDuration(waitMs)}. ` +
            "Visit https://platform.openai.com/account/rate-limits to learn more.",
          type: which === "concurrent" ? "requests" : which,
          param: null,
          code: "rate_limit_exceeded",
        },
      },
    };
  }
  // [gemini-rate-limits]: RetryInfo.retryDelay is a protobuf Duration ("38s", "0.5s").
  const delay = `${Math.ceil(waitMs) / 1000}s`;
  const quotaId = which === "tokens"
    ? "GenerateContentInputTokensPerModelPerMinute"
    : "GenerateRequestsPerMinutePerProjectPerModel";
  return {
    headers: {},
    body: {
      error: {
        code: 429,
        message: "You exceeded your current quota, please check your plan and billing details. " +
          "For more information on this error, head to: " +
          "https://ai.google.dev/gemini-api/docs/rate-limits.",
        status: "RESOURCE_EXHAUSTED",
        details: [
          {
            "@type": "type.googleapis.com/google.rpc.QuotaFailure",
            violations: [{
              quotaMetric: which === "tokens"
                ? "generativelanguage.googleapis.com/generate_content_input_token_count"
                : "generativelanguage.googleapis.com/generate_content_requests",
              quotaId,
              quotaDimensions: { location: "global", model },
              quotaValue: String(
                which === "tokens" ? r.tokensPerMinute : r.requestsPerMinute ?? r.concurrent,
              ),
            }],
          },
          {
            "@type": "type.googleapis.com/google.rpc.Help",
            links: [{
              description: "Learn more about Gemini API quotas",
              url: "https://ai.google.dev/gemini-api/docs/rate-limits",
            }],
          },
          { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: delay },
        ],
      },
    },
  };
}

/** The API key a request carries, in each provider's header (or Gemini's `?key=`). */
export function requestKey(headers: Record<string, string>, query: string): string {
  const bearer = /^Bearer\s+(.+)$/i.exec(headers["authorization"] ?? "");
  return headers["x-api-key"] ?? headers["x-goog-api-key"] ?? bearer?.[1] ??
    new URLSearchParams(query).get("key") ?? "";
}
