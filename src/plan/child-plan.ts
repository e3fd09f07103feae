/**
 * The plan of a task call: every decision about its children, in the order
 * the call takes them, each made in a file of its own in this folder. This
 * function is their table of contents; the runner (`runner/task-runner.ts`)
 * binds the sessions and executes what it returns.
 *
 * 1. the request is valid (`request.ts`); git facts and the bubblewrap
 *    probe start in the background (`environment-facts.ts`,
 *    `sandbox-choice.ts`);
 * 2. the agent and guards (`agent-choice.ts`): discovery, the guards, the
 *    agent set, what an untrusted file may not loosen, the effective agent
 *    and its tools (`effective.ts`, `tool-set-rule.ts`), its hooks
 *    (`child-hooks.ts`); plan mode (`task-preparation.ts`);
 * 3. a remote agent's target and credentials (`remote-plan.ts`);
 * 4. the output schema (`child-schema.ts`);
 * 5. the model and provider (`child-model.ts`), and what its calls are
 *    sent (`child-model-settings.ts`);
 * 6. the sandbox (`sandbox-choice.ts`);
 * 7. the prompt context: instruction files and environment facts
 *    (`prompt-context-gather.ts`);
 * 8. the launcher (`launcher-choice.ts`);
 * 9. skills (`child-skills.ts`), memory (`child-memory.ts`), MCP servers
 *    (`child-mcp.ts`);
 * 10. limits (`task-preparation.ts`) and acceptance checks
 *    (`child-accept.ts`);
 * 11. each task's write lane (`write-lanes.ts`), environment and envelope,
 *    refused when over its size limit.
 *
 * @module
 */
import {
  buildEnvelope,
  type EnvelopeParts,
  envelopeSizeProblem,
} from "../protocol/envelope-builder.ts";
import type { TaskEnvelope } from "../protocol/envelope.ts";
import { timerMs } from "../protocol/limits.ts";
import { skillBudget } from "../protocol/skill-listing.ts";
import { childEnvironment, modelVariable } from "../protocol/variables.ts";
import { providerKeys } from "../model/providers.ts";
import type { Diagnostic, TaskRequest } from "../types.ts";
import type { AcceptPlan } from "./accept-plan.ts";
import { chooseAgent, decideAgent } from "./agent-choice.ts";
import { agentFingerprints } from "./agent-set.ts";
import { childAccept } from "./child-accept.ts";
import { settingsHooksOnce } from "./child-hooks.ts";
import { childMcpServers } from "./child-mcp.ts";
import { childMemory } from "./child-memory.ts";
import { childModel } from "./child-model.ts";
import { childModelSettings } from "./child-model-settings.ts";
import { outputSchemaProblem } from "./child-schema.ts";
import { childSkills } from "./child-skills.ts";
import { resolveOutputSchema } from "./effective.ts";
import { startGitFacts } from "./environment-facts.ts";
import type { GuardKind } from "./guards.ts";
import { childLauncher, type LaunchPlan } from "./launcher-choice.ts";
import { agentFileTrusted } from "./agent-file-trust.ts";
import type { PlanInputs } from "./plan-inputs.ts";
import { gatherPromptContext } from "./prompt-context-gather.ts";
import { remoteModelId, remotePlan, withoutAuth } from "./remote-plan.ts";
import { runSecretCommand } from "./secret-command.ts";
import { validateRequest } from "./request.ts";
import { probeSandboxEarly, sandboxFor } from "./sandbox-choice.ts";
import {
  ignoredFieldsWarning,
  planModeFor,
  requestedModel,
  resumesOnly,
  taskLimits,
} from "./task-preparation.ts";
import { decideLanes } from "./write-lanes.ts";

/** One child as planned: what it is sent and how it is started. */
export interface PlannedTask {
  envelope: TaskEnvelope;
  /** The xcsh variables the child gets (on top of the parent's environment). */
  childEnv: Record<string, string>;
  timeoutMs: number;
  /** Why no model resolved (only when planned `withoutModel`; `envelope.model` is null). */
  modelError?: string;
  /** Set when the child starts through a launcher. */
  launch?: { plan: LaunchPlan; binary: string[] };
  /** What the call or the agent asked for, for the result; null: nothing. */
  requestedModel?: string | null;
  /** The acceptance checks the parent runs after the child submits. */
  accept?: AcceptPlan;
}

/** The plan of a call, or why it has none (`kind`: a guard's, or `usage`, exit code 2). */
export type CallPlan =
  | { ok: true; tasks: PlannedTask[]; isolation?: TaskRequest["isolation"] }
  | { ok: false; kind: GuardKind | "usage"; message: string };

/** A refusal of the call itself (exit code 2). */
function usage(message: string): { ok: false; kind: "usage"; message: string } {
  return { ok: false, kind: "usage", message };
}

/**
 * Plans every child of `req`, without starting any. `withoutModel` lets a
 * child without a resolved model through (a dry run shows why); `dryRun`
 * turns a launcher's missing program into a warning.
 */
export async function planChildren(
  req: TaskRequest,
  i: PlanInputs,
  opts: { withoutModel?: boolean; dryRun?: boolean } = {},
): Promise<CallPlan> {
  const warn = (warning: Diagnostic | undefined) => {
    if (warning) i.onWarnings?.([warning]);
  };
  const { config, caller, env } = i;
  const invalid = validateRequest(req);
  if (invalid) return usage(invalid);
  // Git (the prompt's facts) and the sandbox probe run while the agents are discovered.
  const git = startGitFacts(env.cwd, env.env, env.home);
  probeSandboxEarly({
    request: req.sandbox,
    config,
    caller: i.sandbox,
    env: env.env,
    home: env.home,
  });
  const chosen = await chooseAgent(req, i);
  if (!chosen.ok) return chosen;
  const { asked, agents } = chosen;
  // Each call reads the settings' hooks afresh, as it rediscovers agents.
  const settingsHooks = settingsHooksOnce(i.settingsHooks, env, chosen.plugins, i.onWarnings);
  const planMode = planModeFor({
    request: req.planMode,
    caller: i.planMode,
    agent: asked.planMode,
  });
  warn(ignoredFieldsWarning(asked));
  const { agent, toolSet, restricted, agentTrusted } = decideAgent(req, asked, agents, planMode, {
    ...i,
    settingsHooks,
    warn,
  });
  // A remote agent: a project's only once trusted, credentials from the user's side.
  const remote = remotePlan(asked, {
    env: env.env,
    trusted: () => agentFileTrusted(asked, env),
    runCommand: (command) => runSecretCommand(command, { env: env.env, home: env.home }),
  });
  if (!remote.ok) return { ok: false, kind: "unrunnable", message: remote.message };
  // The agents the run started with travel only to a child that may start
  // tasks (one without `task` never reads them): fingerprinting every
  // discovered agent would cost each start.
  const mayDelegate = toolSet.spawns === "*" || toolSet.spawns.length > 0;
  const agentSet = i.agentSet ?? (mayDelegate ? agentFingerprints(agents) : {});
  const outputSchema = resolveOutputSchema(asked.output, req.schema, i.parentSchema);
  const schemaProblem = await outputSchemaProblem(outputSchema, asked, req);
  if (schemaProblem) return usage(schemaProblem);
  const model = childModel(req, agent, {
    config,
    env: env.env,
    keys: i.keys,
    parentModel: i.parentModel,
    modelFlag: i.modelFlag,
  });
  // Refuse here rather than start a child that cannot run: an explicit
  // --model that names nothing must never fall back to another model. A
  // resumed task runs on its session's model
  // (`runner/task-sessions/session-binding.ts`).
  if (!model.ok && !remote.target && !opts.withoutModel && !resumesOnly(req)) {
    return usage(`Cannot run '${agent.name}': ${model.error}`);
  }
  const modelSettings = childModelSettings(
    agent,
    remote.target || !model.ok ? undefined : model.value,
    config,
    i.onWarnings,
  );
  const sandbox = await sandboxFor({
    request: req.sandbox,
    // The decided tools and the hooks say whether commands run to sandbox.
    agent: { ...agent, tools: toolSet.tools },
    config,
    caller: i.sandbox,
    env: env.env,
    home: env.home,
  });
  if (!sandbox.ok) return usage(sandbox.message);
  warn(sandbox.warning);
  // Read once for every task of the call; children only format them.
  const gathered = await gatherPromptContext({
    cwd: env.cwd,
    home: env.home,
    env: env.env,
    files: agent.omitContextFiles !== true,
    git,
  });
  i.onWarnings?.(gathered.warnings);
  const launch = childLauncher(req, asked, {
    task: config.task,
    depth: caller.depth,
    path: env.env.PATH,
    dryRun: opts.dryRun === true,
    warn,
  });
  if (!launch.ok) return usage(launch.message);
  const skills = await childSkills(agent, toolSet.tools.includes("skill"), {
    env,
    onDiscoveryWarnings: i.onDiscoveryWarnings,
    onWarnings: i.onWarnings,
  });
  const memory = childMemory(agent, env, i.onWarnings);
  const mcpServers = childMcpServers(agent, {
    config,
    env,
    agentTrusted,
    onWarnings: i.onWarnings,
  });
  const timeoutS = req.timeout ?? restricted.timeout ?? config.task.timeout;
  const accept = await childAccept(req, asked, {
    env,
    acceptFlag: i.acceptFlag,
    onWarnings: i.onWarnings,
  });
  if (typeof accept === "string") return usage(accept);
  // The checks stay with the parent: the child is told only what failed.
  const { accept: _checks, acceptRetries: _rounds, ...childAgent } = agent;
  const parts: EnvelopeParts = {
    agent: withoutAuth(childAgent),
    context: req.context,
    outputSchema,
    model: remote.target ? { id: remoteModelId(asked) } : model.ok ? model.value : null,
    modelSettings,
    cwd: env.cwd,
    planMode,
    toolSet,
    limits: taskLimits({ maxTurns: req.maxTurns ?? agent.maxTurns, timeoutS }),
    config,
    promptContext: gathered.context,
    keys: i.keys ?? providerKeys(config, env.env),
    agentSet,
    sandbox: sandbox.setting,
    mcpServers,
    skills: skills.refs,
    // The price catalogue (the window of most hosted models) loads only
    // for a child that lists skills.
    skillBudget: skills.refs.length === 0 ? undefined : skillBudget(
      model.ok
        ? (await import("../model/context-window.ts")).contextWindowOf(model.value.id, config)
        : undefined,
      env.env.SLASH_COMMAND_TOOL_CHAR_BUDGET,
    ),
    memory,
    preloadedSkills: skills.preloaded,
    commandGitSettings: gathered.gitOverrides,
    settingsHooks: settingsHooks(),
  };
  const lanes = decideLanes({
    tasks: req.tasks,
    agent: agent.writes,
    caller: i.lane,
    taskField: i.laneField ?? ((n) => `tasks[${n}].writes`),
  });
  if (!lanes.ok) return usage(lanes.message);
  const childEnv = childEnvironment(caller.depth);
  const tasks = req.tasks.map((t, n): PlannedTask => ({
    envelope: {
      ...buildEnvelope({
        id: t.id,
        assignment: t.assignment,
        ...(lanes.lanes[n] ? { writes: lanes.lanes[n] } : {}),
      }, parts),
      ...(remote.target ? { remote: remote.target } : {}),
    },
    childEnv,
    timeoutMs: timerMs(timeoutS * 1000),
    requestedModel: requestedModel({
      request: req.model,
      envModel: modelVariable(env.env),
      override: config.task.agentModelOverrides[agent.name],
      agent,
    }),
    ...(model.ok || remote.target ? {} : { modelError: model.error }),
    ...(launch.value ? { launch: launch.value } : {}),
    ...(accept[n] ? { accept: accept[n] } : {}),
  }));
  for (const t of tasks) {
    const tooLarge = envelopeSizeProblem(t.envelope);
    if (tooLarge) return usage(tooLarge);
  }
  return { ok: true, tasks, isolation: asked.isolation };
}
