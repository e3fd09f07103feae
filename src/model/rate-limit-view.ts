/**
 * What a provider's answers say about its rate limits, and how long the next
 * request to it must wait. The headers of every answer (Anthropic
 * `anthropic-ratelimit-{requests,tokens}-{remaining,reset}`, OpenAI
 * `x-ratelimit-{remaining,reset}-{requests,tokens}`) and of every 429
 * (`retry-after-ms`, `retry-after`, Gemini's `google.rpc.RetryInfo`
 * `retryDelay` in the body) become a {@link RateLimitReading}; a
 * {@link RateLimitView} keeps one state per scope (provider, key fingerprint,
 * model) and decides the wait: until a pause ends (a 429 pauses every request
 * of the scope, not just the one that got it), until a reset when nothing is
 * left, or until the user's own pace (`requestsPerMinute`) allows. Jitter
 * spreads requests that were held together. Pure: time comes in as `now`.
 *
 * @example
 * ```ts
 * const view = new RateLimitView();
 * const scope = { provider: "anthropic", key: "k1a2", model: "claude-x" };
 * view.observe(scope, readRateLimit("anthropic", { "retry-after": "2" }, undefined, 0), 0);
 * view.waitMs(scope, 500, 0); // 1500: every request of the scope waits for the pause
 * ```
 *
 * @module
 */
import type { RateLimitFigures } from "../protocol/events.ts";

/** What one answer said (the protocol's figures: children report them too). */
export type RateLimitReading = RateLimitFigures;

/** Whose limits: a provider, a fingerprint of the key (never the key), and the model. */
export interface RateLimitScope {
  provider: string;
  key: string;
  /** Set for providers that limit per model (Gemini); otherwise omitted. */
  model?: string;
}

/** Limits the user set for a provider, applied before any 429. */
export interface ProviderPace {
  requestsPerMinute?: number;
  tokensPerMinute?: number;
}

/** The provider wire types whose headers are read. */
export type RateLimitWire = "anthropic" | "openai" | "google" | string;

/** Longest a reset or pause is believed: a bogus header never parks a run for good. */
export const MAX_PAUSE_MS = 10 * 60_000;

/** The scope's map key. */
export function scopeKey(s: RateLimitScope): string {
  return `${s.provider}\u0000${s.key}\u0000${s.model ?? ""}`;
}

function scopeOfKey(k: string): RateLimitScope {
  const [provider, key, model] = k.split("\u0000");
  return model ? { provider, key, model } : { provider, key };
}

/** Whether the provider limits per model rather than per key alone. */
export function limitsPerModel(wire: RateLimitWire): boolean {
  return wire === "google";
}

/**
 * A duration as OpenAI writes it (`1s`, `6m0s`, `20ms`, `1h2m3.5s`), or as
 * protobuf's Duration (`38s`, `0.5s`), in ms; undefined when it is neither.
 */
export function parseDuration(text: string): number | undefined {
  const t = text.trim();
  if (t === "") return undefined;
  const re = /(\d+(?:\.\d+)?)(ms|h|m|s)/gy;
  let ms = 0;
  let seen = 0;
  for (let m = re.exec(t); m; m = re.exec(t)) {
    const n = Number(m[1]);
    ms += m[2] === "h" ? n * 3_600_000 : m[2] === "m" ? n * 60_000 : m[2] === "s" ? n * 1000 : n;
    seen = re.lastIndex;
  }
  return seen === t.length ? ms : undefined;
}

function lowerCase(h: Record<string, string | undefined> | undefined) {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h ?? {})) if (v !== undefined) out[k.toLowerCase()] = v;
  return out;
}

function count(v: string | undefined): number | undefined {
  if (v === undefined || !/^\s*\d+\s*$/.test(v)) return undefined;
  return Number(v);
}

/** An Anthropic reset (RFC 3339 time) as epoch ms. */
function instant(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : t;
}

/** Gemini's 429 body: `error.details[]` with `@type` …RetryInfo and `retryDelay`. */
export function retryInfoDelayMs(body: unknown): number | undefined {
  let value = body;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  const details = (value as { error?: { details?: unknown } } | null)?.error?.details;
  if (!Array.isArray(details)) return undefined;
  for (const d of details) {
    const type = (d as { "@type"?: unknown })?.["@type"];
    const delay = (d as { retryDelay?: unknown })?.retryDelay;
    if (typeof type === "string" && type.endsWith("google.rpc.RetryInfo")) {
      return typeof delay === "string" ? parseDuration(delay) : undefined;
    }
  }
  return undefined;
}

/**
 * Reads one answer: `headers` of any status, `body` of an error (for
 * Gemini's RetryInfo), `status` 429 makes a retry demand a pause.
 */
export function readRateLimit(
  wire: RateLimitWire,
  headers: Record<string, string | undefined> | undefined,
  error: { status?: number; body?: unknown } | undefined,
  now: number,
): RateLimitReading {
  const h = lowerCase(headers);
  const r: RateLimitReading = {};
  const cap = (t: number | undefined) =>
    t === undefined ? undefined : Math.min(t, now + MAX_PAUSE_MS);
  if (wire === "anthropic") {
    r.requestsRemaining = count(h["anthropic-ratelimit-requests-remaining"]);
    r.requestsLimit = count(h["anthropic-ratelimit-requests-limit"]);
    r.requestsResetAt = cap(instant(h["anthropic-ratelimit-requests-reset"]));
    r.tokensRemaining = count(h["anthropic-ratelimit-tokens-remaining"]);
    r.tokensResetAt = cap(instant(h["anthropic-ratelimit-tokens-reset"]));
  } else {
    // OpenAI and every server speaking its format (some send these, most none).
    r.requestsRemaining = count(h["x-ratelimit-remaining-requests"]);
    r.requestsLimit = count(h["x-ratelimit-limit-requests"]);
    const rr = parseDuration(h["x-ratelimit-reset-requests"] ?? "");
    r.requestsResetAt = cap(rr === undefined ? undefined : now + rr);
    r.tokensRemaining = count(h["x-ratelimit-remaining-tokens"]);
    const tr = parseDuration(h["x-ratelimit-reset-tokens"] ?? "");
    r.tokensResetAt = cap(tr === undefined ? undefined : now + tr);
  }
  if (error?.status === 429) {
    const wait = retryAfterMs(h, now) ?? retryInfoDelayMs(error.body) ??
      resetWait(r, now) ?? 1000;
    r.pauseUntil = now + Math.min(wait, MAX_PAUSE_MS);
  }
  for (const k of Object.keys(r) as (keyof RateLimitReading)[]) {
    if (r[k] === undefined) delete r[k];
  }
  return r;
}

/** `retry-after-ms`, else `retry-after` in seconds or as an HTTP date. */
function retryAfterMs(h: Record<string, string>, now: number): number | undefined {
  const ms = h["retry-after-ms"];
  if (ms !== undefined && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Number(ms);
  const ra = h["retry-after"];
  if (ra === undefined || ra.trim() === "") return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(ra)) return Number(ra) * 1000;
  const date = Date.parse(ra);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** For a 429 without a retry demand: the reset of what ran out. */
function resetWait(r: RateLimitReading, now: number): number | undefined {
  const at = r.requestsRemaining === 0
    ? r.requestsResetAt
    : r.tokensRemaining === 0
    ? r.tokensResetAt
    : undefined;
  return at === undefined ? undefined : Math.max(0, at - now);
}

/**
 * When the scope's request bucket holds `n` more requests than at its last
 * reading: the limits refill continuously (a token bucket: Anthropic says
 * so; OpenAI's reset is the time until the bucket is full), so with the
 * limit known one request comes back every `(reset - read) / (limit -
 * remaining)`. Without the limit, the reset itself.
 */
function refilled(s: ScopeState, n: number): number {
  const reset = s.requestsResetAt ?? 0;
  const { requestsLimit: limit, requestsRemaining: left, readAt } = s;
  if (limit === undefined || left === undefined || readAt === undefined || limit <= left) {
    return reset;
  }
  return readAt + ((reset - readAt) / (limit - left)) * n;
}

interface ScopeState extends RateLimitReading {
  /** Requests sent since the last reading (they count against `requestsRemaining`). */
  sentSince: number;
  /** When the last reading with counts came. */
  readAt?: number;
  /** When this process may next start a request under the user's pace. */
  paceNextAt: number;
}

/** The rate-limit state of every scope one process has seen. */
export class RateLimitView {
  private readonly scopes = new Map<string, ScopeState>();

  constructor(
    private readonly pace: (provider: string) => ProviderPace | undefined = () => undefined,
  ) {}

  private state(scope: RateLimitScope): ScopeState {
    const k = scopeKey(scope);
    let s = this.scopes.get(k);
    if (!s) this.scopes.set(k, s = { sentSince: 0, paceNextAt: 0 });
    return s;
  }

  /** Takes in what one answer said; a later pause never shortens an earlier one. */
  observe(scope: RateLimitScope, r: RateLimitReading, now: number): void {
    const s = this.state(scope);
    const pause = Math.max(s.pauseUntil ?? 0, r.pauseUntil ?? 0);
    if (r.requestsRemaining !== undefined || r.tokensRemaining !== undefined) {
      s.sentSince = 0;
      s.readAt = now;
    }
    Object.assign(s, r);
    s.pauseUntil = pause > now ? pause : undefined;
  }

  /** The pause a 429 set on the scope, if it has not ended by `now`. */
  pauseUntil(scope: RateLimitScope, now: number): number | undefined {
    const p = this.scopes.get(scopeKey(scope))?.pauseUntil;
    return p !== undefined && p > now ? p : undefined;
  }

  /**
   * How long the next request of the scope must wait from `now` (0: go).
   * `jitter` in [0, 1) adds up to a tenth of the wait (at most 1 s), so
   * requests held by one pause do not all arrive in the same instant.
   */
  waitMs(scope: RateLimitScope, now: number, jitter: number): number {
    const s = this.scopes.get(scopeKey(scope));
    let until = now;
    if (s?.pauseUntil !== undefined) until = Math.max(until, s.pauseUntil);
    if (s) {
      const left = s.requestsRemaining === undefined
        ? undefined
        : s.requestsRemaining - s.sentSince;
      if (left !== undefined && left <= 0 && s.requestsResetAt !== undefined) {
        until = Math.max(until, refilled(s, 1 - left));
      }
      if (s.tokensRemaining === 0 && s.tokensResetAt !== undefined) {
        until = Math.max(until, s.tokensResetAt);
      }
      until = Math.max(until, s.paceNextAt);
    }
    const wait = until - now;
    return wait <= 0 ? 0 : Math.round(wait + jitter * Math.min(1000, wait / 10));
  }

  /**
   * Notes that a request of the scope starts at `now` with about `tokens`
   * input tokens: it counts against what is left, and the user's pace
   * (requests and tokens per minute) sets when the next one may start.
   */
  started(scope: RateLimitScope, now: number, tokens = 0): void {
    const s = this.state(scope);
    s.sentSince++;
    const pace = this.pace(scope.provider);
    const rpm = pace?.requestsPerMinute ?? 0;
    const tpm = pace?.tokensPerMinute ?? 0;
    const gap = Math.max(rpm > 0 ? 60_000 / rpm : 0, tpm > 0 ? (tokens * 60_000) / tpm : 0);
    if (gap > 0) s.paceNextAt = Math.max(now, s.paceNextAt) + gap;
    // A reset that has passed: without the limit to count the refill by, the
    // numbers are stale until the next answer.
    if (
      s.requestsResetAt !== undefined && s.requestsResetAt <= now && s.requestsLimit === undefined
    ) {
      delete s.requestsRemaining;
      delete s.requestsResetAt;
    }
    if (s.tokensResetAt !== undefined && s.tokensResetAt <= now) {
      delete s.tokensRemaining;
      delete s.tokensResetAt;
    }
  }

  /** The longest wait of any scope of `provider` (any key or model); see {@link waitMs}. */
  providerWaitMs(provider: string, now: number, jitter: number): number {
    let ms = 0;
    for (const k of this.scopes.keys()) {
      if (k.startsWith(`${provider}\u0000`)) {
        ms = Math.max(ms, this.waitMs(scopeOfKey(k), now, jitter));
      }
    }
    return ms;
  }

  /** The pauses still running for the scopes of `provider`. */
  pausesOf(provider: string, now: number): { scope: RateLimitScope; pauseUntil: number }[] {
    const out: { scope: RateLimitScope; pauseUntil: number }[] = [];
    for (const [k, s] of this.scopes) {
      if (!k.startsWith(`${provider}\u0000`)) continue;
      const until = Math.max(s.pauseUntil ?? 0, now + this.waitMs(scopeOfKey(k), now, 0));
      if (until > now) out.push({ scope: scopeOfKey(k), pauseUntil: until });
    }
    return out;
  }

  /** Counts a request started on every scope of `provider` (a task about to call it). */
  providerStarted(provider: string, now: number): void {
    for (const k of this.scopes.keys()) {
      if (k.startsWith(`${provider}\u0000`)) this.started(scopeOfKey(k), now);
    }
  }

  /** The latest pause still running for any scope of `provider` (any key or model). */
  providerPausedUntil(provider: string, now: number): number | undefined {
    let until: number | undefined;
    for (const [k, s] of this.scopes) {
      if (!k.startsWith(`${provider}\u0000`)) continue;
      if (s.pauseUntil !== undefined && s.pauseUntil > now) {
        until = Math.max(until ?? 0, s.pauseUntil);
      }
    }
    return until;
  }

  /** The state of every scope with a pause still running, for the parent. */
  paused(now: number): { scope: string; pauseUntil: number }[] {
    const out: { scope: string; pauseUntil: number }[] = [];
    for (const [scope, s] of this.scopes) {
      if (s.pauseUntil !== undefined && s.pauseUntil > now) {
        out.push({ scope, pauseUntil: s.pauseUntil });
      }
    }
    return out;
  }
}
