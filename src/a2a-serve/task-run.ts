/**
 * Runs one served task: its message becomes an xcsh task of the endpoint's
 * agent through the same served call as `xcsh mcp` (fresh config, guards,
 * trust, sandbox, limits, the call's budget, the server's one limiter), the
 * child's events become `working` status updates, and the result becomes
 * the task's artifact (its text, and a data part for structured output)
 * and its terminal state: `completed` for an ok result, `canceled` when it
 * was cancelled, `failed` otherwise (the one-line reason as the status
 * message). A message in a context that left a session continues it
 * (`resume`); the session each run leaves is handed back for the next.
 * Never throws: a failure of the run is the task's `failed`.
 *
 * @module
 */
import { randomUUID } from "node:crypto";
import { runServedCall, type ServedCallContext } from "../runner/served-call.ts";
import { RunningTools } from "../progress/running-tools.ts";
import type { TaskResult } from "../types.ts";
import type { BudgetReport } from "../runner/budget/budget-governor.ts";
import { progressText } from "./progress-text.ts";
import type { ServedTask } from "./task-book.ts";
import type { ServedArtifact } from "./wire-shapes.ts";

/** The id the task has inside xcsh (its sessions and artifacts folder). */
const XCSH_TASK_ID = "a2a";

/** What the server hands every run. */
export type RunDeps = Omit<ServedCallContext, "onEvent" | "onBudget">;

/** The artifact of a result that has something to show. */
export function resultArtifact(
  r: TaskResult,
  budget: BudgetReport | undefined,
): ServedArtifact | undefined {
  const data = r.data;
  const text = r.text ??
    (typeof data === "string" ? data : data !== undefined ? JSON.stringify(data, null, 2) : "");
  if (text === "" && data === undefined) return undefined;
  const facts = {
    status: r.status,
    ...(r.session ? { session: r.session } : {}),
    ...(r.model ? { model: r.model } : {}),
    ...(r.turns !== undefined ? { turns: r.turns } : {}),
    ...(r.costUSD !== undefined ? { costUSD: r.costUSD } : {}),
    ...(budget ? { budget } : {}),
  };
  return {
    artifactId: randomUUID(),
    name: "result",
    text,
    ...(data !== undefined && typeof data !== "string" ? { data } : {}),
    metadata: { xcsh: facts },
  };
}

/** Why a result that is not ok ended as it did, in one line. */
function failureText(r: TaskResult): string {
  const why = r.error ?? "unknown error";
  return r.status === "error" ? why : `${r.status}: ${why}`;
}

/** What one run is asked: the assignment, and the session it continues. */
export interface RunInput {
  assignment: string;
  resume?: string;
  /** Told the session the run leaves (to continue in the same context). */
  onSession?: (session: string) => void;
}

/** Runs `task` to its end; `shutdown` is the server's. */
export async function runServedTask(
  task: ServedTask,
  input: RunInput,
  deps: RunDeps,
  shutdown: AbortSignal,
): Promise<void> {
  const { assignment, resume } = input;
  const calls = new RunningTools();
  try {
    task.setStatus("working");
    const outcome = await runServedCall(
      {
        ...deps,
        onEvent: (id, e) => {
          const text = progressText(id, e, calls);
          if (text !== undefined) task.setStatus("working", text);
        },
      },
      {
        agent: task.agent,
        tasks: [{ id: XCSH_TASK_ID, assignment, ...(resume ? { resume } : {}) }],
      },
      AbortSignal.any([task.controller.signal, shutdown]),
    );
    if (!outcome.ok) {
      task.setStatus("failed", outcome.message);
      return;
    }
    const r = outcome.results[0];
    if (r?.session) input.onSession?.(r.session);
    const artifact = r ? resultArtifact(r, outcome.budget) : undefined;
    if (artifact) task.addArtifact(artifact);
    if (!r) task.setStatus("failed", "the task returned no result");
    else if (r.status === "ok") task.setStatus("completed");
    else if (r.status === "cancelled") task.setStatus("canceled", "cancelled");
    else task.setStatus("failed", failureText(r));
  } catch (err) {
    task.setStatus("failed", `the task could not run: ${(err as Error).message}`);
  } finally {
    task.runEnded();
  }
}
