/**
 * The thread that ends an orphaned process (./orphan-watch.ts starts it).
 * Receives its orders once, then looks at the parent pid every
 * `intervalMs`; when it is no longer `parent` (the parent died and the
 * process was handed to init or a subreaper), it gives the main thread
 * `graceMs` to end on its own, then ends, with SIGKILL, every descendant
 * (and the groups they lead), every process carrying a command mark that
 * starts with `mark.prefix`, and last this process and its group. It runs
 * on its own thread, so a main thread stuck in a long synchronous
 * computation does not stop it. Started as a `Worker`; scripts/build.ts
 * bundles it into the binary.
 *
 * @module
 */
import process from "node:process";

/** What the watch is told, in its one message. */
export interface OrphanWatchOrders {
  /** The parent pid when the process started. */
  parent: number;
  /** How often the parent pid is looked at. */
  intervalMs: number;
  /** How long the main thread has to end on its own once the parent is gone. */
  graceMs: number;
  /** The environment mark (`name=prefix…`) of processes this one started. */
  mark?: { name: string; prefix: string };
}

// deno-lint-ignore no-explicit-any
const scope = globalThis as any;

/**
 * Ends everything this process started, then the process itself. The
 * process-tree code loads only now: a watch that never fires costs a
 * child's start as little as it can.
 */
async function endAll(orders: OrphanWatchOrders): Promise<void> {
  const self = process.pid;
  try {
    const { killMarked, killPids, listDescendants } = await import("../process/process-tree.ts");
    killPids(listDescendants(self), "SIGKILL");
    if (orders.mark) killMarked(orders.mark.name, orders.mark.prefix, "SIGKILL", true);
    killPids([self], "SIGKILL");
  } finally {
    // Whatever failed above, this process does not outlive its parent.
    process.kill(self, "SIGKILL");
  }
}

scope.onmessage = (ev: MessageEvent<OrphanWatchOrders>) => {
  const orders = ev.data;
  const timer = setInterval(() => {
    if (process.ppid === orders.parent) return;
    clearInterval(timer);
    setTimeout(() => endAll(orders), orders.graceMs);
  }, orders.intervalMs);
};
