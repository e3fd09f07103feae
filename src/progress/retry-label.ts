/**
 * How a `retry` event reads in one line while a task waits for its model:
 * the delay, the reason and the attempt (`retrying in 0.9 s: ECONNREFUSED …
 * (1/3)`), or `trying again: …` when the call goes again at once without a
 * parameter the server refused. Shared by the CLI's progress and the MCP
 * server's progress messages. Pure.
 *
 * @example
 * ```ts
 * retryLabel({ type: "retry", id: "0", attempt: 1, maxRetries: 3, delayMs: 1500, reason: "HTTP 503" });
 * // "retrying in 1.5 s: HTTP 503 (1/3)"
 * ```
 *
 * @module
 */
import { oneLine } from "../text/labels.ts";
import type { ChildEvent } from "../protocol/events.ts";

/** A retry in progress: `retrying in 0.9 s: ECONNREFUSED … (1/3)`. */
export function retryLabel(e: Extract<ChildEvent, { type: "retry" }>): string {
  // Attempt 0: the call goes again at once without a parameter the server refused.
  if (e.attempt === 0) return `trying again: ${oneLine(e.reason, 80)}`;
  return `retrying in ${(e.delayMs / 1000).toFixed(1)} s: ${
    oneLine(e.reason, 80)
  } (${e.attempt}/${e.maxRetries})`;
}
