/**
 * When this process may send its next request to a provider: every model
 * call goes through {@link providerGate}, which holds it while the
 * process's one {@link RateLimitView} says the provider is paused or spent,
 * or while `maxConcurrentRequests` of its requests are in flight; then it
 * feeds the answer's rate-limit headers (or the 429's) back into the view,
 * so one 429 holds every sibling call of the process, not only its own. A
 * 429 that asks for a wait is waited out (up to {@link MAX_HELD_429} times)
 * without using one of the retry policy's attempts; one that asks for none
 * (`retry-after: 0`) goes to the retry policy like any other failure.
 * What a call learns that other processes should know (a pause, nothing
 * left) is handed to `onLearn`: a child reports it to its parent as a
 * `rate_limit` event, and the parent merges those into its own view
 * ({@link mergeRateLimit}) before it starts the next task. A child whose
 * parent paces it (`setPaceUpstream`) also asks the parent before each
 * attempt and reports the answer's limits after it: the run's top-level
 * process admits every request of the tree ({@link admitForChild}) by one
 * view and one `maxConcurrentRequests` count, so the headers one child
 * reads pace all of them, and the user's per-provider limits hold for the
 * whole tree, not per process.
 *
 * @example
 * ```ts
 * const gate = providerGate({ name: "anthropic", type: "anthropic", apiKey: "k" }, "claude-x");
 * const signal = new AbortController().signal;
 * const answer = await gate.run(() => Promise.resolve("hi"), { signal, tokens: 10 });
 * ```
 *
 * @module
 */
import { sha256Hex } from "../runtime.ts";
import type { RateLimitNews } from "../protocol/events.ts";
import {
  limitsPerModel,
  MAX_PAUSE_MS,
  type ProviderPace,
  type RateLimitReading,
  type RateLimitScope,
  RateLimitView,
  readRateLimit,
} from "./rate-limit-view.ts";
import { sleep } from "../process/abortable-sleep.ts";

/** 429s one call waits out before the retry policy counts one as a failure. */
export const MAX_HELD_429 = 8;

/** A provider's own limits from the user's config (`providers.<name>`). */
export interface ProviderLimits extends ProviderPace {
  maxConcurrentRequests?: number;
}

const limits = new Map<string, ProviderLimits>();
/** The one view of this process: its model calls', and (in a parent) its children's. */
export const processView = new RateLimitView((provider) => limits.get(provider));
const inFlight = new Map<string, { running: number; waiting: (() => void)[] }>();

/**
 * Asks the process above before one request of `scope` goes out; resolves
 * when it may, with the function that reports the answer's limits (or
 * nothing, for an answer without them) and ends the admission.
 */
export type PaceUpstream = (
  scope: RateLimitScope,
  tokens: number,
  signal: AbortSignal,
) => Promise<(reading?: RateLimitReading) => void>;

let upstream: PaceUpstream | undefined;

/** Inside a child paced by its parent: how each request is asked for upstream. */
export function setPaceUpstream(u: PaceUpstream | undefined): void {
  upstream = u;
}

/**
 * Admits one request a child (or its descendants) is about to send: waits
 * for a `maxConcurrentRequests` slot and for this process's view, then asks
 * this process's own parent when it has one. The result reports the
 * answer's limits into the view (and upstream) and frees the slot; call it
 * exactly once.
 */
export async function admitForChild(
  scope: RateLimitScope,
  tokens: number,
  opts: { signal: AbortSignal; onWait?: (ms: number) => void },
  view: RateLimitView = processView,
): Promise<(reading?: RateLimitReading) => void> {
  const release = await takeSlot(
    scope.provider,
    limits.get(scope.provider)?.maxConcurrentRequests,
    opts.signal,
  );
  let up: ((reading?: RateLimitReading) => void) | undefined;
  try {
    await waitForProvider(scope, { signal: opts.signal, tokens, onWait: opts.onWait }, view);
    up = upstream ? await upstream(scope, tokens, opts.signal) : undefined;
  } catch (err) {
    release();
    throw err;
  }
  let left = false;
  return (reading) => {
    if (left) return;
    left = true;
    if (reading) view.observe(scope, reading, Date.now());
    up?.(reading);
    release();
  };
}

/**
 * Takes the user's per-provider limits (`providers.<name>`:
 * `requestsPerMinute`, `tokensPerMinute`, `maxConcurrentRequests`) for this
 * process, unless a parent paces it: then the run's top-level process
 * applies them to the whole tree and a child applying them again would
 * count its own calls twice.
 */
export function useProviderLimits(providers: Record<string, ProviderLimits | undefined>): void {
  if (upstream) return;
  for (const [name, l] of Object.entries(providers)) setProviderLimits(name, l);
}

/** Sets the user's limits for a provider (from config) for this process. */
export function setProviderLimits(provider: string, l: ProviderLimits | undefined): void {
  if (l) limits.set(provider, l);
  else limits.delete(provider);
}

/** A short, one-way fingerprint of an API key: scopes by key without holding it. */
export function keyFingerprint(apiKey: string | undefined): string {
  if (!apiKey) return "";
  return sha256Hex(apiKey).slice(0, 12);
}

/** The scope a provider's calls to `model` fall in. */
export function scopeOf(
  provider: { name: string; type: string; apiKey?: string },
  model: string,
): RateLimitScope {
  const scope: RateLimitScope = { provider: provider.name, key: keyFingerprint(provider.apiKey) };
  if (limitsPerModel(provider.type)) scope.model = model;
  return scope;
}

/**
 * Waits until the view lets a request of `scope` go, telling `onWait` how
 * long each hold lasts; then counts the request as started.
 */
export async function waitForProvider(
  scope: RateLimitScope,
  opts: { signal: AbortSignal; tokens?: number; onWait?: (ms: number) => void },
  view: RateLimitView = processView,
): Promise<void> {
  for (;;) {
    const ms = view.waitMs(scope, Date.now(), Math.random());
    if (ms <= 0) break;
    opts.onWait?.(ms);
    await sleep(ms, opts.signal);
  }
  view.started(scope, Date.now(), opts.tokens ?? 0);
}

async function takeSlot(provider: string, max: number | undefined, signal: AbortSignal) {
  if (max === undefined || max <= 0) return () => {};
  let s = inFlight.get(provider);
  if (!s) inFlight.set(provider, s = { running: 0, waiting: [] });
  const state = s;
  if (state.running >= max) {
    await new Promise<void>((resolve, reject) => {
      const go = () => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      };
      const onAbort = () => {
        state.waiting.splice(state.waiting.indexOf(go), 1);
        reject(signal.reason);
      };
      state.waiting.push(go);
      signal.addEventListener("abort", onAbort, { once: true });
    });
  } else state.running++;
  return () => {
    const next = state.waiting.shift();
    if (next) next();
    else state.running--;
  };
}

/** What a failed call's error says about the answer (the AI SDK's APICallError fields). */
function errorAnswer(err: unknown) {
  // deno-lint-ignore no-explicit-any
  const e = err as any;
  if (typeof e?.statusCode !== "number") return undefined;
  return {
    headers: e.responseHeaders as Record<string, string> | undefined,
    error: { status: e.statusCode as number, body: e.responseBody as unknown },
  };
}

/**
 * The news worth passing on: a pause (`pauseUntil`: when this scope's next
 * request may go, by this process's view), or a bucket a quarter full or
 * less, with its counts so the parent can pace from them too.
 */
export function newsOf(
  scope: RateLimitScope,
  r: RateLimitReading,
  pauseUntil: number,
): RateLimitNews | undefined {
  const low = r.requestsRemaining !== undefined &&
    r.requestsRemaining <= Math.max(1, (r.requestsLimit ?? 0) / 4);
  if (r.pauseUntil === undefined && !low && r.tokensRemaining !== 0) return undefined;
  const news: RateLimitNews = { ...scope, pauseUntil };
  for (
    const k of [
      "requestsRemaining",
      "requestsLimit",
      "requestsResetAt",
      "tokensRemaining",
      "tokensResetAt",
    ] as const
  ) {
    if (r[k] !== undefined) news[k] = r[k];
  }
  return news;
}

/**
 * Merges what a child learned into this process's view. The event comes
 * from another process: only well-formed fields count, and no time lies
 * further ahead than {@link MAX_PAUSE_MS}, so a bogus report cannot park
 * the run.
 */
export function mergeRateLimit(
  news: RateLimitNews,
  now = Date.now(),
  view: RateLimitView = processView,
): void {
  if (typeof news.provider !== "string" || typeof news.key !== "string") return;
  const scope: RateLimitScope = { provider: news.provider, key: news.key };
  if (typeof news.model === "string") scope.model = news.model;
  view.observe(scope, readingFrom(news, now), now);
}

/**
 * The well-formed part of a reading another process sent: counts that are
 * whole and not negative, times no further ahead than {@link MAX_PAUSE_MS}.
 */
export function readingFrom(
  news: Partial<Record<keyof RateLimitReading, unknown>>,
  now = Date.now(),
): RateLimitReading {
  const count = (v: unknown) =>
    typeof v === "number" && Number.isInteger(v) && v >= 0 ? v : undefined;
  const time = (v: unknown) =>
    typeof v === "number" && Number.isFinite(v) ? Math.min(v, now + MAX_PAUSE_MS) : undefined;
  const reading: RateLimitReading = {
    pauseUntil: time(news.pauseUntil),
    requestsRemaining: count(news.requestsRemaining),
    requestsLimit: count(news.requestsLimit),
    requestsResetAt: time(news.requestsResetAt),
    tokensRemaining: count(news.tokensRemaining),
    tokensResetAt: time(news.tokensResetAt),
  };
  for (const k of Object.keys(reading) as (keyof RateLimitReading)[]) {
    if (reading[k] === undefined) delete reading[k];
  }
  return reading;
}

/**
 * What the run's top-level process knows about `provider` that a running
 * child should apply: one pause per scope (key fingerprint, model), for the
 * channel to carry down; the child applies each with {@link mergeRateLimit}.
 */
export function pausesFor(
  provider: string,
  now = Date.now(),
  view: RateLimitView = processView,
): RateLimitNews[] {
  return view.pausesOf(provider, now).map(({ scope, pauseUntil }) => ({ ...scope, pauseUntil }));
}

/** The gate of one provider and model for this process. */
export function providerGate(
  provider: { name: string; type: string; apiKey?: string },
  model: string,
  hooks: {
    onLearn?: (news: RateLimitNews) => void;
    onWait?: (ms: number) => void;
    /** The longest 429 wait held here (the retry policy's cap); a longer one is the policy's. */
    maxWaitMs?: number;
  } = {},
  view: RateLimitView = processView,
) {
  const scope = scopeOf(provider, model);
  const learn = (r: RateLimitReading) => {
    const now = Date.now();
    view.observe(scope, r, now);
    const news = newsOf(scope, r, now + view.waitMs(scope, now, 0));
    if (news) hooks.onLearn?.(news);
  };
  return {
    scope,
    /** Runs one model call when the provider allows it; reads its answer's limits. */
    async run<T>(
      call: () => Promise<T>,
      opts: { signal: AbortSignal; tokens?: number },
    ): Promise<T> {
      const release = await takeSlot(
        provider.name,
        limits.get(provider.name)?.maxConcurrentRequests,
        opts.signal,
      );
      try {
        for (let held = 0;; held++) {
          await waitForProvider(scope, { ...opts, onWait: hooks.onWait }, view);
          const leave = upstream ? await upstream(scope, opts.tokens ?? 0, opts.signal) : undefined;
          try {
            const out = await call();
            const headers = (out as { headers?: Record<string, string> } | undefined)?.headers;
            const r = readRateLimit(provider.type, headers, undefined, Date.now());
            leave?.(r);
            learn(r);
            return out;
          } catch (err) {
            const answer = errorAnswer(err);
            if (!answer) {
              leave?.();
              throw err;
            }
            const now = Date.now();
            const r = readRateLimit(provider.type, answer.headers, answer.error, now);
            leave?.(r);
            learn(r);
            // A 429 that says when to come back is waited out here, not counted as
            // a failed attempt; calls held by one pause come back spread over as
            // long again (doubling with each 429 the call meets in a row, at most
            // 5 s), so they do not all ask in the same instant.
            // One that asks for no wait is a plain retry: the retry policy's.
            if (
              r.pauseUntil === undefined || r.pauseUntil <= now || held >= MAX_HELD_429 ||
              r.pauseUntil - now > (hooks.maxWaitMs ?? MAX_PAUSE_MS)
            ) {
              throw err;
            }
            const spread = Math.random() * Math.min((r.pauseUntil - now) * 2 ** held, 5000);
            hooks.onWait?.(r.pauseUntil - now + spread);
            await sleep(r.pauseUntil - now + spread, opts.signal);
          }
        }
      } finally {
        release();
      }
    },
  };
}
