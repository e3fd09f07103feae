/**
 * Who in this process hears of a provider's pause: the running children
 * whose control channel is open (down) and, inside a child, its own parent
 * (up). A pause one child reports reaches every other child of this process
 * and goes up; a pause the parent sends down reaches every child here and
 * does not go back up. Both are merged into this process's view first
 * ({@link mergeRateLimit}), and what goes down is {@link pausesFor} the
 * provider: numbers and a key fingerprint, never a key. A pause this
 * process's own model call meets goes down too ({@link learnedHere}).
 *
 * @example
 * ```ts
 * const off = listenDown((pauses) => console.log(pauses.length));
 * learnedFromChild({ provider: "p", key: "k1", pauseUntil: Date.now() + 1000 });
 * off();
 * ```
 *
 * @module
 */
import { mergeRateLimit, pausesFor } from "./provider-gate.ts";
import type { RateLimitNews } from "../protocol/events.ts";

/** Hears the pauses of one provider to pass on. */
export type PauseListener = (pauses: RateLimitNews[]) => void;

const down = new Set<PauseListener>();
let up: ((news: RateLimitNews) => void) | undefined;

/** Adds a running child's channel; the result removes it. */
export function listenDown(listener: PauseListener): () => void {
  down.add(listener);
  return () => down.delete(listener);
}

/** Inside a child: how news goes up to its parent (its stdout). */
export function setUpward(send: ((news: RateLimitNews) => void) | undefined): void {
  up = send;
}

function relayDown(provider: string, except?: PauseListener): void {
  if (down.size === 0) return;
  const pauses = pausesFor(provider);
  if (pauses.length === 0) return;
  for (const l of down) if (l !== except) l(pauses);
}

/** A child (`from`, its listener if it has one) reported `news`. */
export function learnedFromChild(news: RateLimitNews, from?: PauseListener): void {
  mergeRateLimit(news);
  if (typeof news.provider !== "string") return;
  relayDown(news.provider, from);
  up?.(news);
}

/** This process's own call learned of `provider` (already in its view): its sub-tasks hear it. */
export function learnedHere(provider: string): void {
  relayDown(provider);
}

/** The parent sent a pause down: apply it here and pass it to every child. */
export function learnedFromParent(news: RateLimitNews): void {
  mergeRateLimit(news);
  if (typeof news.provider === "string") relayDown(news.provider);
}
