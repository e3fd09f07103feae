/**
 * Whether a process outlives its parent: with a watch started, it does not,
 * even when its main thread is stuck in a long synchronous computation and
 * never reads the end of the parent's pipe. The watch is a `Worker`
 * (./orphan-watch-worker.ts) that looks at the parent pid on its own
 * thread; once the parent is gone and the main thread has not ended within
 * the grace period, it ends every process this one started and then this
 * one, with SIGKILL. Unix only (where there is no parent pid to watch,
 * nothing starts).
 *
 * @example
 * ```ts
 * import { COMMAND_MARK } from "../protocol/variables.ts";
 * startOrphanWatch({ graceMs: 3000, mark: { name: COMMAND_MARK, prefix: `${process.pid}-` } });
 * ```
 *
 * @module
 */
import process from "node:process";
import { workerModule } from "../runtime.ts";
import type { OrphanWatchOrders } from "./orphan-watch-worker.ts";

/** How often the parent pid is looked at. */
export const ORPHAN_WATCH_INTERVAL_MS = 250;

/**
 * Starts the watch for this process; returns false when it cannot start
 * (Windows, or no worker), and the process then relies on its main thread.
 */
export function startOrphanWatch(o: Omit<OrphanWatchOrders, "parent" | "intervalMs">): boolean {
  // The parent now: a watch that starts late still sees that it changed.
  const parent = process.ppid;
  if (process.platform === "win32" || !(parent > 1)) return false;
  try {
    const url = workerModule(
      new URL("./orphan-watch-worker.ts", import.meta.url),
      "src/process/orphan-watch-worker.ts",
    );
    const worker = new Worker(url, { type: "module" });
    // A watch that fails is gone; the process goes on without it.
    worker.onerror = (ev: Event) => ev.preventDefault();
    const orders: OrphanWatchOrders = { ...o, parent, intervalMs: ORPHAN_WATCH_INTERVAL_MS };
    worker.postMessage(orders);
    // The watch never keeps the process alive on its own.
    (worker as { unref?: () => void }).unref?.();
    return true;
  } catch {
    return false;
  }
}
