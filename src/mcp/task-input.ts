/**
 * The MCP `task` tool's input: its JSON Schema, and the check that turns a
 * client's arguments into a {@link TaskRequest} or a message naming the bad
 * field. `background` is refused, not ignored: over MCP a call runs on in
 * the background as an MCP task. Pure.
 *
 * @module
 */
import type { AcceptCheck, TaskRequest } from "../types.ts";
import { MAX_TASKS_PER_CALL } from "../protocol/limits.ts";
import { laneProblem } from "../fs/write-lane.ts";
import { BUDGET_KEYS, type BudgetKey, parseBudgetValue } from "../config/budget-setting.ts";
import {
  MAX_ACCEPT_RETRIES,
  parseAcceptList,
  parseAcceptRetries,
} from "../discovery/accept-checks.ts";

/** JSON Schema of the `task` tool's arguments. */
export const TASK_INPUT_SCHEMA = {
  type: "object",
  properties: {
    agent: { type: "string", description: "Name of the agent to run (see the list above)." },
    context: {
      type: "string",
      description: "Background shared by every task: goals, constraints, what is already known.",
    },
    schema: {
      type: "object",
      description: "Output schema (JSON Schema or JTD) for agents that have none of their own.",
    },
    isolation: {
      type: "string",
      enum: ["worktree", "none"],
      description:
        "worktree: each task works in a fresh git worktree of the repository; changes are kept on a branch and named in the result.",
    },
    launcher: {
      type: "string",
      description:
        "A launcher named in the user's task.launchers (e.g. a cluster's srun) to start the tasks through; 'local' runs them here.",
    },
    maxTurns: {
      type: "integer",
      minimum: 1,
      description:
        "The most model calls each task may make; a task that reaches it ends with status max_turns.",
    },
    budget: {
      type: "object",
      description: "One budget for this call and every task it starts, their sub-tasks included: " +
        "usd (dollars), tokens (input + output), requests (model calls), deadline (seconds). " +
        "A model call that could pass a limit is not made; its task ends with status budget. " +
        "unpricedFree: count a model with no known price as free under usd.",
      properties: {
        usd: { type: "number", exclusiveMinimum: 0 },
        tokens: { type: "integer", minimum: 1 },
        requests: { type: "integer", minimum: 1 },
        deadline: { type: "number", exclusiveMinimum: 0 },
        unpricedFree: { type: "boolean" },
      },
      additionalProperties: false,
    },
    accept: {
      type: "array",
      description:
        "Acceptance checks xcsh runs after each task submits, outside the task: strings such as " +
        "'cmd: npm test', 'file: dist/app.js', 'scope: src/**', 'changed: src/**', " +
        "'result: /ok == true', or objects ({cmd, timeout}, {file, matches|schema}, " +
        "{scope: [globs], changed}, {result: pointer, equals|matches}). A task whose checks " +
        "still fail after acceptRetries rounds ends with status rejected.",
      items: { type: ["string", "object"] },
    },
    acceptRetries: {
      type: "integer",
      minimum: 0,
      maximum: MAX_ACCEPT_RETRIES,
      description: "Rounds a task whose checks failed is sent back with the failures (default 1).",
    },
    tasks: {
      type: "array",
      minItems: 1,
      maxItems: MAX_TASKS_PER_CALL,
      description: "One or more tasks for the agent; they run in parallel.",
      items: {
        type: "object",
        properties: {
          id: { type: "string", description: "Short unique id, e.g. 'auth-flow'." },
          description: { type: "string", description: "A few words shown in progress." },
          assignment: { type: "string", description: "The complete, self-contained instructions." },
          resume: {
            type: "string",
            description:
              "A session id from an earlier result: continue that conversation with this assignment as the follow-up.",
          },
          writes: {
            type: "array",
            items: { type: "string" },
            description:
              "The task's write lane: globs relative to the project root (e.g. src/api/**). Its write and edit tools refuse other paths, its sandbox binds only these writable; tasks whose lanes overlap run one after the other.",
          },
          accept: {
            type: "array",
            description:
              "Acceptance checks of this task alone, run after the call's (same forms as the call's accept).",
            items: { type: ["string", "object"] },
          },
        },
        required: ["id", "assignment"],
      },
    },
  },
  required: ["agent", "tasks"],
} as const;

/** Why `background` is refused, and what to use instead. */
export const BACKGROUND_REFUSED =
  "is not supported over MCP: make the call an MCP task (tools/call with a task parameter; fetch the result with tasks/result), or run `xcsh run --background` from a shell";

/** Validates tool arguments; a string result names what is wrong. */
export function readTaskInput(args: unknown): TaskRequest | string {
  if (typeof args !== "object" || args === null) return "arguments must be an object";
  const a = args as Record<string, unknown>;
  if (a.background !== undefined && a.background !== false) {
    return `'background' ${BACKGROUND_REFUSED}`;
  }
  if (typeof a.agent !== "string" || a.agent.trim() === "") {
    return "'agent' must be a non-empty string";
  }
  if (a.context !== undefined && typeof a.context !== "string") return "'context' must be a string";
  if (
    a.schema !== undefined &&
    (typeof a.schema !== "object" || a.schema === null || Array.isArray(a.schema))
  ) {
    return "'schema' must be an object";
  }
  if (a.isolation !== undefined && a.isolation !== "worktree" && a.isolation !== "none") {
    return "'isolation' must be worktree or none";
  }
  if (a.launcher !== undefined && (typeof a.launcher !== "string" || a.launcher.trim() === "")) {
    return "'launcher' must be the name of a launcher (a string)";
  }
  if (
    a.maxTurns !== undefined &&
    (typeof a.maxTurns !== "number" || !Number.isSafeInteger(a.maxTurns) || a.maxTurns < 1)
  ) {
    return "'maxTurns' must be a whole number ≥ 1";
  }
  let budget: TaskRequest["budget"];
  if (a.budget !== undefined) {
    const read = readBudgetArgument(a.budget);
    if (typeof read === "string") return read;
    budget = read;
  }
  let accept: TaskRequest["accept"];
  if (a.accept !== undefined) {
    if (!Array.isArray(a.accept)) return "'accept' must be a list of checks";
    const parsed = parseAcceptList(a.accept, "accept");
    if (!parsed.ok) return `'${parsed.message.replace(/: /, "': ")}`;
    accept = parsed.checks;
  }
  let acceptRetries: number | undefined;
  if (a.acceptRetries !== undefined) {
    const n = typeof a.acceptRetries === "number" ? parseAcceptRetries(a.acceptRetries) : "";
    if (typeof n === "string") {
      return `'acceptRetries' must be a whole number from 0 to ${MAX_ACCEPT_RETRIES}`;
    }
    acceptRetries = n;
  }
  if (!Array.isArray(a.tasks) || a.tasks.length === 0) return "'tasks' must be a non-empty array";
  const tasks: TaskRequest["tasks"] = [];
  for (const [i, t] of a.tasks.entries()) {
    if (typeof t !== "object" || t === null) return `'tasks[${i}]' must be an object`;
    const { id, description, assignment, resume, background, writes, accept: own } = t as Record<
      string,
      unknown
    >;
    if (background !== undefined && background !== false) {
      return `'tasks[${i}].background' ${BACKGROUND_REFUSED}`;
    }
    if (resume !== undefined && typeof resume !== "string") {
      return `'tasks[${i}].resume' must be a session id (a string)`;
    }
    if (typeof id !== "string") return `'tasks[${i}].id' must be a string`;
    if (typeof assignment !== "string") return `'tasks[${i}].assignment' must be a string`;
    if (description !== undefined && typeof description !== "string") {
      return `'tasks[${i}].description' must be a string`;
    }
    if (writes !== undefined) {
      if (!Array.isArray(writes) || !writes.every((g) => typeof g === "string")) {
        return `'tasks[${i}].writes' must be a list of globs (strings)`;
      }
      const problem = laneProblem(writes, `'tasks[${i}].writes'`);
      if (problem) return problem;
    }
    let ownChecks: AcceptCheck[] | undefined;
    if (own !== undefined) {
      if (!Array.isArray(own)) return `'tasks[${i}].accept' must be a list of checks`;
      const parsed = parseAcceptList(own, `tasks[${i}].accept`);
      if (!parsed.ok) return `'${parsed.message.replace(/: /, "': ")}`;
      const clash = parsed.checks.find((c) => accept?.some((o) => o.name === c.name));
      if (clash) {
        return `'tasks[${i}].accept': a check named '${clash.name}' is already one of the call's`;
      }
      ownChecks = parsed.checks;
    }
    tasks.push({
      id,
      assignment,
      ...(description ? { description } : {}),
      ...(resume ? { resume } : {}),
      ...(writes !== undefined ? { writes: writes as string[] } : {}),
      ...(ownChecks ? { accept: ownChecks } : {}),
    });
  }
  return {
    agent: a.agent,
    tasks,
    ...(a.context !== undefined ? { context: a.context as string } : {}),
    ...(a.schema !== undefined ? { schema: a.schema } : {}),
    ...(a.isolation !== undefined ? { isolation: a.isolation as "worktree" | "none" } : {}),
    ...(a.launcher !== undefined ? { launcher: (a.launcher as string).trim() } : {}),
    ...(a.maxTurns !== undefined ? { maxTurns: a.maxTurns as number } : {}),
    ...(budget ? { budget } : {}),
    ...(accept && accept.length > 0 ? { accept } : {}),
    ...(acceptRetries !== undefined ? { acceptRetries } : {}),
  };
}

/** The `budget` argument, or what is wrong with it (naming the field). */
function readBudgetArgument(v: unknown): NonNullable<TaskRequest["budget"]> | string {
  if (typeof v !== "object" || v === null || Array.isArray(v)) {
    return "'budget' must be an object of usd, tokens, requests, deadline";
  }
  const out: NonNullable<TaskRequest["budget"]> = {};
  for (const [k, value] of Object.entries(v)) {
    if (k === "unpricedFree") {
      if (typeof value !== "boolean") return "'budget.unpricedFree' must be true or false";
      out.unpricedFree = value;
      continue;
    }
    if (!(BUDGET_KEYS as readonly string[]).includes(k)) {
      return `'budget.${k}' is not a limit: use usd, tokens, requests, deadline`;
    }
    const r = parseBudgetValue(k as BudgetKey, value);
    if (!r.ok) return `'budget.${k}': ${r.message}`;
    out[k as BudgetKey] = r.value;
  }
  return out;
}
