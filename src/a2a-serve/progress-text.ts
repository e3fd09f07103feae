/**
 * The status text a served task's client reads for one event of its child:
 * queued or waiting on a rate limit, started on a model, a retry, a
 * compaction, a tool call begun (with the calls running then). Events that
 * say nothing new to a client (usage, a tool's end) give no text. The same
 * words as `xcsh mcp`'s progress notifications, without the task id: an
 * A2A task is one task.
 *
 * @module
 */
import { compactLabel } from "../progress/compact-label.ts";
import { retryLabel } from "../progress/retry-label.ts";
import type { RunningTools } from "../progress/running-tools.ts";
import type { ChildEvent } from "../protocol/events.ts";

/** The text for event `e` of task `id`, or undefined; `calls` tracks its tool calls. */
export function progressText(id: string, e: ChildEvent, calls: RunningTools): string | undefined {
  switch (e.type) {
    case "waiting":
      return e.reason === "queued"
        ? "queued"
        : `waiting on ${e.provider ?? "the provider"}'s rate limit${
          e.ms ? ` (${(e.ms / 1000).toFixed(1)}s)` : ""
        }`;
    case "start":
      return `started on ${e.model}${e.note ? ` (${e.note})` : ""}`;
    case "retry":
      return retryLabel(e);
    case "compact":
      return compactLabel(e);
    case "tool_start":
      calls.event(id, e);
      return calls.label(id);
    case "tool_end":
      calls.event(id, e);
      return undefined;
    default:
      return undefined;
  }
}
