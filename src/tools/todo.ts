/**
 * The `todo` tool: the model's own checklist for a multi-step task. Each
 * call replaces the whole list (items with a status of `pending`,
 * `in_progress` or `done`; Claude's `completed` is read as `done`) and
 * returns it, so the model always sees the list it keeps. Progress shows it
 * through the `tool_end` summary: `2/5 done; now: Write the tests`. Nothing
 * outside the call's answer keeps the list.
 *
 * @example
 * ```ts
 * renderTodos([{ content: "Read the code", status: "done" }, { content: "Fix", status: "in_progress" }]);
 * // "[x] 1. Read the code\n[~] 2. Fix"
 * ```
 *
 * @module
 */
import type { ToolSpec } from "./tool-spec.ts";
import { TOOL_READ_ONLY } from "../discovery/tool-catalogue.ts";

export const TODO_MAX_ITEMS = 100;
export const TODO_STATUSES = ["pending", "in_progress", "done", "completed"] as const;

export interface TodoItem {
  content: string;
  status: typeof TODO_STATUSES[number];
}

const MARK: Record<TodoItem["status"], string> = {
  pending: "[ ]",
  in_progress: "[~]",
  done: "[x]",
  completed: "[x]",
};

function isDone(item: TodoItem): boolean {
  return item.status === "done" || item.status === "completed";
}

/** The list as numbered checklist lines. Pure. */
export function renderTodos(items: readonly TodoItem[]): string {
  return items.map((t, i) => `${MARK[t.status]} ${i + 1}. ${t.content.trim()}`).join("\n");
}

/** The one-line progress summary of a list. Pure. */
export function summarizeTodos(items: readonly TodoItem[]): string {
  if (items.length === 0) return "checklist cleared";
  const done = items.filter(isDone).length;
  const now = items.find((t) => t.status === "in_progress");
  const current = now ? `; now: ${now.content.trim().split("\n")[0].slice(0, 80)}` : "";
  return `${done}/${items.length} done${current}`;
}

export const todoTool: ToolSpec = {
  name: "todo",
  // It keeps nothing outside its answer: calls may run beside reads.
  readOnly: TOOL_READ_ONLY.todo,
  description: "Keep a checklist of your task's steps. Each call replaces the whole list: send " +
    "every item. Mark one item in_progress while you work on it, and done once finished.",
  inputSchema: {
    type: "object",
    properties: {
      todos: {
        type: "array",
        maxItems: TODO_MAX_ITEMS,
        description: "The full checklist, in order.",
        items: {
          type: "object",
          properties: {
            content: { type: "string", minLength: 1 },
            status: { type: "string", enum: [...TODO_STATUSES] },
          },
          required: ["content", "status"],
          additionalProperties: false,
        },
      },
    },
    required: ["todos"],
    additionalProperties: false,
  },
  run(args: { todos: TodoItem[] }) {
    const items = args.todos.filter((t) => t.content.trim() !== "");
    const list = items.length === 0 ? "(the checklist is empty)" : renderTodos(items);
    return Promise.resolve({
      ok: true,
      output: `Checklist (${summarizeTodos(items)}):\n${list}`,
      summary: summarizeTodos(items),
    });
  },
};
