/**
 * What a task call may ask for: the checks on a request's shape (how many
 * tasks, ids, assignments, timeout). Pure.
 *
 * @module
 */
import type { TaskRequest } from "../types.ts";
import { MAX_TASKS_PER_CALL } from "../protocol/limits.ts";

const MAX_ID_LENGTH = 64;

/** Checks the shape of a request: how many tasks, ids, assignments, timeout. */
export function validateRequest(req: TaskRequest): string | undefined {
  if (req.tasks.length === 0) return "no task given: provide at least one assignment";
  if (req.tasks.length > MAX_TASKS_PER_CALL) {
    return `${req.tasks.length} tasks in one call: at most ${MAX_TASKS_PER_CALL} are allowed ` +
      "(split the work over several calls)";
  }
  const seen = new Map<string, string>();
  for (const t of req.tasks) {
    if (t.id.trim() === "") return "a task id is empty";
    if (t.id.length > MAX_ID_LENGTH) {
      return `task id "${t.id.slice(0, 20)}…" is longer than ${MAX_ID_LENGTH} characters`;
    }
    if (/[\r\n]/.test(t.id)) return `task id ${JSON.stringify(t.id)} contains a line break`;
    const key = t.id.toLowerCase();
    if (seen.has(key)) {
      return `task ids must be unique (ignoring case): "${seen.get(key)}" and "${t.id}"`;
    }
    seen.set(key, t.id);
    if (t.assignment.trim() === "") return `task "${t.id}" has an empty assignment`;
  }
  if (req.timeout !== undefined && !(req.timeout > 0)) {
    return "timeout must be a positive number of seconds";
  }
  return undefined;
}
