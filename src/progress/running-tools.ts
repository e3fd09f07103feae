/**
 * Which tool calls of each task are running right now, paired by the events'
 * `callId`, and how they read in one line: `read a.ts` for one call,
 * `3 tools: read a.ts, grep foo, ls src` for calls running side by side
 * (cut with `…` past a width). Shared by the CLI's progress and the MCP
 * server's progress messages.
 *
 * @example
 * ```ts
 * const running = new RunningTools();
 * running.event("t1", { type: "tool_start", id: "t1", callId: "c1", tool: "read", args: { path: "a.ts" } });
 * running.event("t1", { type: "tool_start", id: "t1", callId: "c2", tool: "grep", args: { pattern: "foo" } });
 * running.label("t1"); // "2 tools: read a.ts, grep foo"
 * ```
 *
 * @module
 */
import { toolLabel } from "../text/labels.ts";
import type { ChildEvent } from "../protocol/events.ts";

/** The longest line {@link runningLabel} returns. */
export const RUNNING_LABEL_WIDTH = 80;

/** One line for the calls running now (labels in start order). Pure. */
export function runningLabel(labels: readonly string[], width = RUNNING_LABEL_WIDTH): string {
  if (labels.length === 0) return "";
  if (labels.length === 1) return labels[0];
  const head = `${labels.length} tools: `;
  let line = head;
  for (const [i, label] of labels.entries()) {
    const piece = (i === 0 ? "" : ", ") + label;
    if (line.length + piece.length > width) return line + (i === 0 ? "…" : ", …");
    line += piece;
  }
  return line;
}

/** Tracks the running calls of each task from its `tool_start`/`tool_end` events. */
export class RunningTools {
  private readonly byTask = new Map<string, Map<string, string>>();

  /** Takes one event; returns true when the task's running set changed. */
  event(taskId: string, e: ChildEvent): boolean {
    if (e.type === "tool_start") {
      let calls = this.byTask.get(taskId);
      if (!calls) this.byTask.set(taskId, calls = new Map());
      calls.set(e.callId ?? `${calls.size}`, toolLabel(e.tool, e.args));
      return true;
    }
    if (e.type === "tool_end") return this.byTask.get(taskId)?.delete(e.callId) ?? false;
    if (e.type === "result") this.byTask.delete(taskId);
    return false;
  }

  /** How many calls of the task are running. */
  count(taskId: string): number {
    return this.byTask.get(taskId)?.size ?? 0;
  }

  /** The task's running calls in one line ("" when none). */
  label(taskId: string): string {
    return runningLabel([...(this.byTask.get(taskId)?.values() ?? [])]);
  }
}
