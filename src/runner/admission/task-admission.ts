/**
 * When a prepared task may start: once the concurrency cap has a slot (a
 * full cap queues the task, never refuses it, and the task says it is
 * `queued`), and once the provider it will call is not paused by a rate
 * limit a sibling ran into (it says it is waiting, and for how long).
 *
 * @example
 * ```ts
 * import { createLimiter } from "../../process/concurrency.ts";
 *
 * const cap = createLimiter(1);
 * await queued(cap, () => console.log("queued"), () => Promise.resolve(1));
 * ```
 *
 * @module
 */
import type { Limiter } from "../../process/concurrency.ts";
import { processView } from "../../model/provider-gate.ts";
import type { RateLimitView } from "../../model/rate-limit-view.ts";

/** Runs `run` within `cap`, calling `onQueued` first when it has to wait for a slot. */
export function queued<T>(cap: Limiter, onQueued: () => void, run: () => Promise<T>): Promise<T> {
  let started = false;
  // The limiter starts `run` at once when a slot is free, before it returns.
  const out = cap(() => {
    started = true;
    return run();
  });
  if (!started) onQueued();
  return out;
}

/**
 * Waits while the provider of `model` (`provider/model`; null: the child
 * chooses, nothing to wait for) is paused or spent in this process's view,
 * then counts the task's first request against it.
 */
export async function pausedProvider(
  model: string | null,
  signal: AbortSignal | undefined,
  onWait: (ms: number, provider: string) => void,
  view: RateLimitView = processView,
): Promise<void> {
  if (!model || !model.includes("/")) return;
  const provider = model.slice(0, model.indexOf("/"));
  for (;;) {
    const ms = view.providerWaitMs(provider, Date.now(), Math.random());
    if (ms <= 0 || signal?.aborted) break;
    onWait(ms, provider);
    await new Promise<void>((resolve) => {
      const t = setTimeout(done, ms);
      function done() {
        clearTimeout(t);
        signal?.removeEventListener("abort", done);
        resolve();
      }
      signal?.addEventListener("abort", done, { once: true });
    });
  }
  // The task's first call counts against what the provider has left.
  view.providerStarted(provider, Date.now());
}
