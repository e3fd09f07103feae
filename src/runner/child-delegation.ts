/**
 * The `task` tool's runner inside a child: the same parent-side runner as
 * `xcsh run`, with the child as the caller (its depth from its
 * environment's counter, its spawn right and blocked agent from its plan)
 * and its model and schema as the parent's, and its deny rules (its
 * callers' among them) added to every agent it starts, and its write lane
 * the bound of every lane it gives. Guard refusals reach
 * the model as the tool's error.
 * Concurrent calls share one cap of `task.maxConcurrency` sub-agents. The
 * child side receives this function from `xcsh __child`'s entry, so `child/`
 * never imports the parent side.
 *
 * @module
 */
import { homeDirectory } from "../fs/home.ts";
import { runId } from "./artifacts.ts";
import { createLimiter } from "../process/concurrency.ts";
import { readCallerState } from "../protocol/variables.ts";
import type { TaskRunner } from "../tools/tool-spec.ts";
import type { TaskRunnerContext } from "../child/child-main.ts";

/** The runner the `task` tool of the child described by `ctx` calls. */
export function taskRunnerFor(ctx: TaskRunnerContext): TaskRunner {
  // The `task` calls of one turn run side by side: together they start at
  // most task.maxConcurrency sub-agents at once.
  const limiter = createLimiter(ctx.config.task.maxConcurrency);
  return async (req, signal) => {
    // The tree's depth from the environment's counter; the rights from the plan.
    const read = readCallerState(ctx.env);
    if (!read.ok) throw new Error(read.message);
    const { toolSet, blockedAgent } = ctx.envelope;
    const caller = {
      depth: read.state.depth,
      spawns: toolSet.spawns,
      ...(blockedAgent ? { blocked: blockedAgent } : {}),
    };
    // The parent-side code loads only in a child that delegates.
    const { TaskTool } = await import("./task-runner.ts");
    const tool = new TaskTool({
      env: { cwd: ctx.envelope.cwd, home: homeDirectory(), env: ctx.env },
      config: ctx.config,
      caller,
      runId: runId(),
      parentSchema: ctx.envelope.outputSchema ?? undefined,
      parentModel: ctx.model,
      planMode: ctx.envelope.planMode,
      limiter,
      keys: ctx.envelope.keys,
      agentSet: ctx.envelope.agentSet,
      sandbox: ctx.envelope.sandbox,
      // The settings files' hooks as the top-level run read them (none: none).
      settingsHooks: ctx.envelope.settingsHooks ?? {},
      // What this agent was refused, no agent it starts may do.
      inheritedDeny: ctx.envelope.agent.permissions?.deny ?? [],
      // Nor does any write outside this task's lane.
      ...(ctx.envelope.writes ? { lane: ctx.envelope.writes } : {}),
      // Under a budget, its tasks ask through this child's own parent.
      ...(ctx.budget ? { budget: ctx.budget } : {}),
    });
    const outcome = await tool.execute(req, signal);
    if (!outcome.ok) throw new Error(outcome.message);
    return outcome.results;
  };
}
