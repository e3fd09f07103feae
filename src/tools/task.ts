/**
 * The `task` tool: delegates assignments to another agent through the
 * parent-side task runner (same guards, depth + 1). The runner is injected
 * ({@link TaskRunner}); without one the tool answers that delegation is
 * unavailable. Results go back to the model as JSON, one entry per task;
 * a long answer is cut to its share of the window with the whole of it in
 * the task's artifacts (`child/spill.ts`, as for every tool).
 *
 * @module
 */
import type { TaskRequest, TaskResult } from "../types.ts";
import { type TaskRunner, toolError, type ToolSpec } from "./tool-spec.ts";
import { TOOL_READ_ONLY } from "../discovery/tool-catalogue.ts";

export type { TaskRunner } from "./tool-spec.ts";

/** The runner used until a real one is injected: every task fails, saying why. */
export const unavailableTaskRunner: TaskRunner = (req) =>
  Promise.resolve(req.tasks.map((t): TaskResult => ({
    id: t.id,
    agent: req.agent,
    status: "error",
    error: "task delegation is unavailable in this build of xcsh",
  })));

export interface TaskArgs {
  agent: string;
  context?: string;
  isolation?: "worktree" | "none";
  tasks: {
    id: string;
    description?: string;
    assignment: string;
    resume?: string;
    writes?: string[];
  }[];
}

/** What the model sees of one result (no artifacts paths or timings). Pure. */
export function describeResults(results: readonly TaskResult[]): string {
  return JSON.stringify(
    results.map((r) => ({
      id: r.id,
      agent: r.agent,
      status: r.status,
      ...(r.data !== undefined ? { data: r.data } : {}),
      ...(r.text ? { text: r.text } : {}),
      ...(r.error ? { error: r.error } : {}),
      ...(r.session ? { session: r.session } : {}),
      ...(r.worktree ? { worktree: r.worktree } : {}),
    })),
    null,
    2,
  );
}

export const taskTool: ToolSpec = {
  name: "task",
  description: "Delegate work to another agent. Each entry of `tasks` runs as a separate " +
    "sub-agent (in parallel) with its own assignment; `context` is shared background. A " +
    "sub-agent sees only what you give it: make each assignment complete and standalone. " +
    "Delegate self-contained subproblems (`explore` scouts unfamiliar code read-only), not " +
    "what a few tool calls of your own would finish, and check what comes back before you " +
    "build on it. Returns each task's status and result; a result too long for one tool " +
    "result comes back as its start and end with the path of the file holding all of it " +
    "(read it in parts).",
  readOnly: TOOL_READ_ONLY.task,
  concurrent: true,
  inputSchema: {
    type: "object",
    properties: {
      agent: { type: "string", minLength: 1, description: "Name of the agent to run." },
      context: { type: "string", description: "Background shared by every task." },
      isolation: {
        type: "string",
        enum: ["worktree", "none"],
        description:
          "worktree: each task works in a fresh git worktree (changes kept on a branch).",
      },
      tasks: {
        type: "array",
        minItems: 1,
        items: {
          type: "object",
          properties: {
            id: { type: "string", minLength: 1, description: "Short unique id." },
            description: { type: "string", description: "A few words for progress display." },
            assignment: { type: "string", minLength: 1, description: "What to do, in full." },
            resume: {
              type: "string",
              description: "A session id from an earlier result: continue that conversation.",
            },
            writes: {
              type: "array",
              items: { type: "string" },
              description: "Globs (from the project root) this task may write, e.g. src/api/**; " +
                "tasks whose globs overlap run one after the other.",
            },
          },
          required: ["id", "assignment"],
          additionalProperties: false,
        },
      },
    },
    required: ["agent", "tasks"],
    additionalProperties: false,
  },
  async run(args: TaskArgs, ctx) {
    const ids = new Set<string>();
    for (const t of args.tasks) {
      if (ids.has(t.id)) return toolError(`task id '${t.id}' is used twice`);
      ids.add(t.id);
    }
    const req: TaskRequest = {
      agent: args.agent,
      tasks: args.tasks.map((t) => ({
        id: t.id,
        description: t.description,
        assignment: t.assignment,
        ...(t.resume ? { resume: t.resume } : {}),
        ...(t.writes ? { writes: t.writes } : {}),
      })),
      ...(args.context ? { context: args.context } : {}),
      ...(args.isolation ? { isolation: args.isolation } : {}),
    };
    let results: TaskResult[];
    try {
      results = await ctx.runTask(req, ctx.signal);
    } catch (err) {
      return toolError(err instanceof Error ? err.message : String(err));
    }
    const failed = results.filter((r) => r.status !== "ok").length;
    return {
      ok: failed === 0,
      output: describeResults(results),
      summary: `${args.agent}: ${results.length - failed}/${results.length} ok`,
    };
  },
};
