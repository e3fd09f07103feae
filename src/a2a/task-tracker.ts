/**
 * What is known of one remote task as its updates arrive: its id and
 * context, its latest state and status text, its artifacts (an update with
 * `append` adds to the artifact of the same id, another replaces it), or
 * the direct message that answered instead of a task. Pure.
 *
 * @example
 * ```ts
 * const t = taskTracker();
 * t.apply({ kind: "status", taskId: "t", contextId: "c", state: "working", text: "" });
 * t.state; // "working"
 * ```
 *
 * @module
 */
import {
  INTERRUPTED_STATES,
  type PartsContent,
  TERMINAL_STATES,
  type Update,
} from "./task-updates.ts";

export interface TaskTracker {
  taskId: string;
  contextId: string;
  /** The latest state (`unknown` before any). */
  state: string;
  /** The latest status message's text. */
  statusText: string;
  /** The direct answer, when the server answered with a message. */
  message?: PartsContent;
  artifacts: Map<string, PartsContent>;
  apply(update: Update): void;
  /** The task ended, or waits for its client (or a message answered). */
  settled(): boolean;
}

/** A fresh tracker. */
export function taskTracker(): TaskTracker {
  const t: TaskTracker = {
    taskId: "",
    contextId: "",
    state: "unknown",
    statusText: "",
    artifacts: new Map(),
    apply(u) {
      if (u.taskId) t.taskId = u.taskId;
      if (u.contextId) t.contextId = u.contextId;
      if (u.kind === "task" || u.kind === "status") {
        t.state = u.state;
        if (u.text !== "") t.statusText = u.text;
      }
      if (u.kind === "task") {
        for (const a of u.artifacts) t.artifacts.set(a.id, a.content);
      } else if (u.kind === "artifact") {
        const before = t.artifacts.get(u.id);
        t.artifacts.set(
          u.id,
          u.append && before
            ? {
              text: before.text + u.content.text,
              ...("data" in u.content ? { data: u.content.data } : {}),
            }
            : u.content,
        );
      } else if (u.kind === "message") {
        t.message = u.content;
      }
    },
    settled() {
      return t.message !== undefined || TERMINAL_STATES.includes(t.state) ||
        INTERRUPTED_STATES.includes(t.state);
    },
  };
  return t;
}
