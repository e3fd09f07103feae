/**
 * One task call a server makes for its client (the MCP `task` tool, an A2A
 * request): the config read afresh, the call's budget (its own limits over
 * config's, the run governor's when one is set), a {@link TaskTool} drawing
 * its children from the server's one limiter, and what became of the call —
 * a refusal as one line, or the results with the budget's report. How the
 * outcome is shown is the server's own business.
 *
 * @module
 */
import process from "node:process";
import { loadConfig } from "../config/load.ts";
import { hasBudget } from "../config/budget-setting.ts";
import { formatDiagnostic } from "../text/labels.ts";
import { runId } from "./artifacts.ts";
import { runBudgetFor } from "./budget/run-budget.ts";
import type { BudgetReport } from "./budget/budget-governor.ts";
import { TaskTool } from "./task-runner.ts";
import type { Limiter } from "../process/concurrency.ts";
import type { DiscoveryEnv } from "../discovery/config-dirs.ts";
import type { CallerState } from "../protocol/variables.ts";
import type { ChildEvent } from "../protocol/events.ts";
import type { Diagnostic, TaskRequest, TaskResult } from "../types.ts";

export interface ServedCallContext {
  env: DiscoveryEnv;
  caller: CallerState;
  onEvent: (id: string, e: ChildEvent) => void;
  /** Config warnings and the runner's own. */
  onWarnings: (warnings: readonly Diagnostic[]) => void;
  onDiscoveryWarnings: (warnings: readonly Diagnostic[]) => void;
  /** The server's cap: every call's children share it. */
  limiter: Limiter;
  /** Called with the call's budget, when it has one, before any task starts. */
  onBudget?: (read: () => BudgetReport) => void;
  /** How the client sees every agent, named when an unknown agent's list is cut. */
  listHint: string;
}

export type ServedOutcome =
  | { ok: false; message: string }
  | { ok: true; results: TaskResult[]; run: string; budget?: BudgetReport };

/** Runs `req` for a server's client until it ends or `signal` aborts. */
export async function runServedCall(
  ctx: ServedCallContext,
  req: TaskRequest,
  signal: AbortSignal,
): Promise<ServedOutcome> {
  const { env, caller, onEvent } = ctx;
  const loaded = await loadConfig(env.cwd, env.home);
  ctx.onWarnings(loaded.warnings);
  if (!loaded.ok) {
    return { ok: false, message: formatDiagnostic(loaded.error).replace(/^xcsh: /, "") };
  }
  const run = runId();
  // One budget per call: the call's own limits over config's.
  const { unpricedFree, ...limits } = req.budget ?? {};
  const setting = { ...loaded.config.task.budget, ...limits };
  const budget = hasBudget(setting)
    ? await runBudgetFor(setting, loaded.config, process.env, unpricedFree === true)
    : undefined;
  if (budget) ctx.onBudget?.(() => budget.report());
  const tool = new TaskTool({
    env,
    config: loaded.config,
    caller,
    runId: run,
    ...(budget ? { budget } : {}),
    onEvent,
    onWarnings: ctx.onWarnings,
    onDiscoveryWarnings: ctx.onDiscoveryWarnings,
    limiter: ctx.limiter,
    listHint: ctx.listHint,
  });
  const outcome = await tool.execute(req, signal);
  if (!outcome.ok) return { ok: false, message: outcome.message };
  return {
    ok: true,
    results: outcome.results,
    run,
    ...(budget ? { budget: budget.report() } : {}),
  };
}
