/**
 * How a wait that a task's cancellation must cut short is written: the
 * retry loop's back-off and the provider gate's rate-limit pause both wait
 * this way, so an aborted task never sits out a pause.
 *
 * @example
 * ```ts
 * await sleep(10, new AbortController().signal);
 * ```
 *
 * @module
 */

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
