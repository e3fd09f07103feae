/**
 * When long synchronous work (a search over a big tree) gives the event loop
 * a turn: after each slice of a few milliseconds, so timers, aborts and other
 * tool calls are served while the work goes on at full speed in between.
 *
 * @example
 * ```ts
 * declare function work(item: string): void;
 * const items = ["a.ts", "b.ts"];
 * const pace = pacer();
 * for (const item of items) {
 *   work(item);
 *   if (pace.due()) await pace.breathe();
 * }
 * ```
 *
 * @module
 */
import { setImmediate } from "node:timers";

/** Milliseconds of synchronous work between two turns of the event loop. */
export const SLICE_MS = 10;

export interface Pacer {
  /** True when the current slice is used up. */
  due(): boolean;
  /** Gives the event loop a turn and starts a new slice. */
  breathe(): Promise<void>;
}

export function pacer(sliceMs = SLICE_MS): Pacer {
  let end = performance.now() + sliceMs;
  return {
    due: () => performance.now() >= end,
    breathe: () =>
      new Promise((done) =>
        setImmediate(() => {
          end = performance.now() + sliceMs;
          done();
        })
      ),
  };
}
