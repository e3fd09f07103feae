/**
 * Whether a process outlives its parent: with a watch started, it does not,
 * even when its main thread is stuck in a long synchronous computation and
 * never reads the end of the parent's pipe. The watch is a `Worker`
 * (./orphan-watch-worker.ts) that looks at the parent pid on its own
 * thread; once the parent is gone and the main thread has not ended within
 * the grace period, it ends every process this one started and then this
 * one, with SIGKILL. The parent pid is taken when the watch is made, the
 * worker started only when asked (a thread costs a process's start a few
 * milliseconds). Unix only (where there is no parent pid to watch, nothing
 * starts).
 *
 * @example
 * ```ts
 * import { COMMAND_MARK } from "../protocol/variables.ts";
 * const watch = orphanWatch({ graceMs: 3000, mark: { name: COMMAND_MARK, prefix: `${process.pid}-` } });
 * // … later, before the work that could keep the main thread busy:
 * watch.start();
 * ```
 *
 * @module
 */
import process from "node:process";
import { workerModule } from "../runtime.ts";
import type { OrphanWatchOrders } from "./orphan-watch-worker.ts";

/** How often the parent pid is looked at. */
export const ORPHAN_WATCH_INTERVAL_MS = 250;

/** A watch taken at a process's start and started when it is needed. */
export interface OrphanWatch {
  /**
   * Starts the watch (once: a later call gives the first answer); false when it cannot
   * start (Windows, no parent to watch, or no worker), and the process then
   * relies on its main thread.
   */
  start(): boolean;
}

/**
 * A watch for this process. The parent pid is taken now, so a watch started
 * later still sees a parent that died in between.
 */
export function orphanWatch(o: Omit<OrphanWatchOrders, "parent" | "intervalMs">): OrphanWatch {
  const parent = process.ppid;
  let started: boolean | undefined;
  return {
    start: () => (started ??= startWorker({ ...o, parent, intervalMs: ORPHAN_WATCH_INTERVAL_MS })),
  };
}

function startWorker(orders: OrphanWatchOrders): boolean {
  if (process.platform === "win32" || !(orders.parent > 1)) return false;
  try {
    const url = workerModule(
      new URL("./orphan-watch-worker.ts", import.meta.url),
      "src/child/orphan-watch-worker.ts",
    );
    const worker = new Worker(url, { type: "module" });
    // A watch that fails is gone; the process goes on without it.
    worker.onerror = (ev: Event) => ev.preventDefault();
    worker.postMessage(orders);
    // The watch never keeps the process alive on its own.
    (worker as { unref?: () => void }).unref?.();
    return true;
  } catch {
    return false;
  }
}
