/**
 * The task runner: `xcsh run`, the MCP `task` tool and a child's own `task`
 * tool all call it.
 *
 * Decides the life of a task call: `create()` discovers agents once to build
 * the description a model or client sees; `execute()` rediscovers (files may
 * have changed), applies the guards before any other work, builds the
 * effective agent, schema, model and environment of each child, reads the
 * instruction files and environment facts once for all of them, runs the
 * tasks in parallel up to `task.maxConcurrency` (tasks whose write lanes
 * overlap one after the other: `write-lanes.ts`), each with its artifacts
 * folder named in its envelope. Results come back whole: whoever shows them
 * to a model bounds them (`child/spill.ts`, the MCP server).
 *
 * @example
 * ```ts
 * import { defaultConfig } from "../config/validate.ts";
 * import { runId } from "./artifacts.ts";
 * import { readCallerState } from "../protocol/variables.ts";
 *
 * const env = { cwd: process.cwd(), home: "/home/ada", env: process.env };
 * const config = defaultConfig();
 * const read = readCallerState(process.env);
 * if (!read.ok) throw new Error(read.message);
 * const caller = read.state;
 * const tool = await TaskTool.create({ env, config, caller, runId: runId() });
 * const out = await tool.execute({ agent: "explore", tasks: [{ id: "a", assignment: "Find the CLI" }] });
 * ```
 *
 * @module
 */
import { writeErr } from "../text/stdio.ts";
import { taskArtifactsFolder } from "./artifacts.ts";
import { createLimiter, type Limiter } from "../process/concurrency.ts";
import { useProviderLimits } from "../model/provider-gate.ts";
import { pausedProvider, queued } from "./task-admission.ts";
import { discoverAgents } from "../discovery/discover.ts";
import { withSessionAgents } from "../discovery/session-agents.ts";
import { childMemory } from "../plan/child-memory.ts";
import { childSkills } from "../plan/child-skills.ts";
import { effectiveAgent, resolveOutputSchema } from "../plan/effective.ts";
import type { BudgetLink } from "../protocol/budget-link.ts";
import { runPreparedTask } from "./run-task.ts";
import { decideLanes, laneWaits } from "../plan/write-lanes.ts";
import { answerGate, prefixLeaders, providerTypeOf } from "./prefix-sharing.ts";
import type { PreparedTask } from "./prepared-task.ts";
import { bindSessions } from "./session-binding.ts";
import { validateRequest } from "../plan/request.ts";
import { SessionKeeper } from "./task-session.ts";
import { dataDirectory, worktreesDirectory } from "../sessions/paths.ts";
import { checkGuards, type GuardKind } from "../plan/guards.ts";
import {
  type CallerState,
  childEnvironment,
  modelVariable,
  TASK_DEPTH,
} from "../protocol/variables.ts";
import { type SpareChild, startSpareChild } from "./spare-child.ts";
import { DEFAULT_LIMITS, timerMs } from "../protocol/limits.ts";
import {
  buildEnvelope,
  type EnvelopeParts,
  envelopeSizeProblem,
} from "../protocol/envelope-builder.ts";
import {
  ignoredFieldsWarning,
  planModeFor,
  requestedModel,
  resumesOnly,
  taskLimits,
  withConfigHooks,
} from "../plan/task-preparation.ts";
import { gatherPromptContext } from "../plan/prompt-context-gather.ts";
import { startGitFacts } from "../plan/environment-facts.ts";
import { agentFileTrusted } from "../plan/mcp-plan.ts";
import { childMcpServers } from "../plan/child-mcp.ts";
import { outputSchemaProblem } from "../plan/child-schema.ts";
import { taskToolDescription } from "./task-description.ts";
import type { DiscoveryEnv } from "../discovery/config-dirs.ts";
import { childModel } from "../plan/child-model.ts";
import { contextWindowOf } from "../model/context-window.ts";
import { skillBudget } from "../protocol/skill-listing.ts";
import { keyVariables, providerKeys, runSecrets } from "../model/providers.ts";
import { agentFingerprints, changedSince } from "../plan/agent-set.ts";
import { probeSandboxEarly, sandboxFor } from "../plan/sandbox-choice.ts";
import { type PriceCall, withCost } from "./task-cost.ts";
import { childAccept } from "../plan/child-accept.ts";
import { restrictAgent, trustNeeds } from "../plan/agent-trust.ts";
import { remoteModelId, remotePlan, withoutAuth } from "../plan/remote-plan.ts";
import { runSecretCommand } from "./secret-command.ts";
import { chooseSandbox } from "../sandbox/mode.ts";
import { childLauncher } from "../plan/launcher-choice.ts";
import { settingsHooksOnce, trustedHooks } from "../plan/child-hooks.ts";
import type {
  AgentDefinition,
  AgentHooks,
  Diagnostic,
  PermissionRule,
  SandboxSetting,
  TaskRequest,
  TaskResult,
  TokenUsage,
  XcshConfig,
} from "../types.ts";
import type { ChildEvent } from "../protocol/events.ts";

export { taskToolDescription };

export interface TaskToolOptions {
  env: DiscoveryEnv;
  config: XcshConfig;
  caller: CallerState;
  /** Names the artifacts folder of this run. */
  runId: string;
  /** The calling session's output schema, used when neither agent nor call has one. */
  parentSchema?: unknown;
  /** The calling session's model, inherited by agents that ask for it. */
  parentModel?: string | null;
  /** The calling session is in plan mode: every child is too. */
  planMode?: boolean;
  /** The calling session's sandbox: no child is less confined. */
  sandbox?: SandboxSetting;
  /** The calling agent's deny rules (its callers' included): every child gets them too. */
  inheritedDeny?: readonly PermissionRule[];
  onEvent?: (taskId: string, event: ChildEvent) => void;
  /** Called as each task ends (before the others may have). */
  onResult?: (result: TaskResult) => void;
  onWarnings?: (warnings: Diagnostic[]) => void;
  /** Discovery's warnings about agent files (often summed up by the caller); `onWarnings` when absent. */
  onDiscoveryWarnings?: (warnings: Diagnostic[]) => void;
  /**
   * A cap shared with other task calls of the same caller (a child's
   * concurrent `task` calls): each child started takes a slot.
   */
  limiter?: Limiter;
  /**
   * Provider keys to hand each child in its envelope; default: those set in
   * `env.env`. Key variables never reach a child's environment.
   */
  keys?: Record<string, string>;
  /**
   * The agents the top-level run started with (fingerprints by name); absent
   * at the top level, where this call's discovery fixes the set.
   */
  agentSet?: Record<string, string>;
  /** How the caller sees every agent, named when an unknown agent's list is cut (default: `xcsh agents`). */
  listHint?: string;
  /** The flag that picks a model where there is one (`--model` on the command line): named in hints. */
  modelFlag?: string;
  /** How the call's own checks are named in errors (`--accept` on the command line; default `accept`). */
  acceptFlag?: string;
  /** The background run these tasks belong to (recorded in their sessions). */
  backgroundRun?: string;
  /** Agents defined for this run (`--agents`): they shadow discovered ones of the same name. */
  sessionAgents?: readonly AgentDefinition[];
  /**
   * Changes the asked agent before anything else is decided of it (`xcsh -p`'s
   * tool lists and system prompt); the untrusted-file rules still apply after.
   */
  editAgent?: (agent: AgentDefinition) => AgentDefinition;
  /** The calling task's write lane: no task it starts writes outside it (`write-lanes.ts`). */
  lane?: readonly string[];
  /** How a task's own lane is named in messages (default: `tasks[i].writes`). */
  laneField?: (index: number) => string;
  /**
   * The hooks of the Claude Code settings files and plugins as the top-level
   * run read them (a child's runner gets them in its envelope); absent: read
   * them here (`config/settings-hooks.ts`).
   */
  settingsHooks?: AgentHooks;
  /** The run's budget, which every task started here draws from (`budget-link.ts`). */
  budget?: BudgetLink;
  /**
   * Start the first child before the call is planned (`spare-child.ts`), so
   * that it loads meanwhile: `xcsh run`, whose process ends with its call.
   */
  startEarly?: boolean;
}

export type { PreparedTask };

export type TaskOutcome =
  | { ok: true; results: TaskResult[] }
  | { ok: false; kind: GuardKind | "usage"; message: string };

export type Prepared =
  | { ok: true; tasks: PreparedTask[] }
  | { ok: false; kind: GuardKind | "usage"; message: string };

export { validateRequest };

/** A refusal of the call itself (exit code 2). */
function usage(message: string): { ok: false; kind: "usage"; message: string } {
  return { ok: false, kind: "usage", message };
}

export class TaskTool {
  private keeperValue?: SessionKeeper;
  private secretsValue?: readonly string[];
  /** The settings files' hooks of the current call, read on first need. */
  private settingsHooks: () => AgentHooks = () => ({});
  /** The child started ahead for this call's first task, until a task takes it. */
  private spare?: SpareChild;
  /**
   * Use {@link TaskTool.create} when a description is needed; a tool built
   * directly (as `xcsh run` does) skips the start-up discovery.
   */
  constructor(
    private readonly opts: TaskToolOptions,
    /** The agents discovered at creation (the description may be stale later). */
    readonly agents: readonly AgentDefinition[] = [],
  ) {
    // The user's per-provider limits hold for the whole tree: applied here
    // in the run's top-level process, which admits every child's requests.
    useProviderLimits(opts.config.providers);
  }

  /** Discovers agents once and builds the tool. */
  static async create(opts: TaskToolOptions): Promise<TaskTool> {
    const found = await discoverAgents(opts.env);
    (opts.onDiscoveryWarnings ?? opts.onWarnings)?.(found.warnings);
    return new TaskTool(
      opts,
      withSessionAgents(opts.sessionAgents, found.agents).filter((a) =>
        !opts.config.task.disabledAgents.includes(a.name)
      ),
    );
  }

  /** What a model or client is told about this tool. */
  get description(): string {
    return taskToolDescription(this.agents);
  }

  /**
   * The values hidden from everything the tasks report (events, results,
   * sessions, artifacts), `text/secrets.ts`'s rule over this process's
   * environment and the keys it hands down: a child through a launcher may
   * know fewer.
   */
  get secrets(): readonly string[] {
    const { env, config } = this.opts;
    this.secretsValue ??= runSecrets(config, { ...env.env, ...this.opts.keys });
    return this.secretsValue;
  }

  /** The sessions of this tool's calls. */
  get keeper(): SessionKeeper {
    const { env, config } = this.opts;
    this.keeperValue ??= new SessionKeeper(
      dataDirectory(env.env, env.home),
      config.task.sessionRetentionDays ?? 30,
      this.secrets,
      (line) => writeErr(line + "\n"),
    );
    return this.keeperValue;
  }

  /** The folder isolated worktrees are made in. */
  get worktreesDir(): string {
    const { env } = this.opts;
    const data = dataDirectory(env.env, env.home);
    return data ? worktreesDirectory(data) : "";
  }

  /** Releases the sessions of tasks that will not run (a dry run, a refusal), and the spare. */
  abandon(tasks: readonly PreparedTask[]): void {
    for (const t of tasks) t.session?.release();
    this.releaseSpare();
  }

  /** Ends the child started ahead when no task took it. */
  private releaseSpare(): void {
    this.spare?.release();
    this.spare = undefined;
  }

  /**
   * Starts the spare child (`startEarly`, not a dry run) where a local child
   * of this call would run, with the environment it would get but for what
   * its envelope lays over it; a task it cannot serve leaves it to exit.
   */
  private startSpare(req: TaskRequest, dryRun: boolean): void {
    const { env, caller } = this.opts;
    if (!this.opts.startEarly || dryRun || this.spare) return;
    if (req.launcher !== undefined || req.isolation === "worktree") return;
    // The spawn right and blocked agent come with the envelope, as for any child.
    this.spare = startSpareChild({
      ...this.baseEnvironment(),
      [TASK_DEPTH]: String(caller.depth + 1),
    }, env.cwd);
  }

  /** The environment every child starts from: this process's, without key variables. */
  private baseEnvironment(): Record<string, string> {
    const { config, env } = this.opts;
    const baseEnv: Record<string, string> = {};
    const keyVars = new Set(keyVariables(config));
    for (const [k, v] of Object.entries(env.env)) {
      if (v !== undefined && !keyVars.has(k)) baseEnv[k] = v;
    }
    return baseEnv;
  }

  /**
   * Rediscovers, guards and builds every child of `req`, without starting
   * any. Sessions are reserved (their locks held) unless `dryRun`;
   * `withoutModel` lets a child without a resolved model through (a dry run
   * shows why).
   */
  async prepare(
    req: TaskRequest,
    { dryRun = false, withoutModel = false } = {},
  ): Promise<Prepared> {
    const prepared = await this.prepareChildren(req, { withoutModel, dryRun });
    if (!prepared.ok) {
      this.releaseSpare();
      return prepared;
    }
    const { tasks } = prepared;
    const fail = (message: string): Prepared => {
      this.abandon(tasks);
      return { ok: false, kind: "usage", message };
    };
    const problem = await bindSessions({
      req,
      tasks,
      keeper: this.keeper,
      isolation: req.isolation ?? prepared.isolation ?? "none",
      worktreesDir: this.worktreesDir,
      cwd: this.opts.env.cwd,
      home: this.opts.env.home,
      dryRun,
    });
    if (problem !== undefined) return fail(problem);
    return prepared;
  }

  /**
   * Rediscovers, guards and builds every child of `req`: each step below is
   * named for what it decides, in the order the call takes them.
   */
  private async prepareChildren(
    req: TaskRequest,
    opts: { withoutModel?: boolean; dryRun?: boolean },
  ): Promise<Prepared & { isolation?: TaskRequest["isolation"] }> {
    const { config, caller, env } = this.opts;
    const invalid = validateRequest(req);
    if (invalid) return usage(invalid);
    // The first child loads while the call is planned.
    this.startSpare(req, opts.dryRun === true);
    // Git (the prompt's facts) and the sandbox probe run while the agents are discovered.
    const git = startGitFacts(env.cwd, env.env, env.home);
    probeSandboxEarly({
      request: req.sandbox,
      config,
      caller: this.opts.sandbox,
      env: env.env,
      home: env.home,
    });
    const chosen = await this.chooseAgent(req);
    if (!chosen.ok) return chosen;
    const { asked, agents } = chosen;
    const planMode = planModeFor({
      request: req.planMode,
      caller: this.opts.planMode,
      agent: asked.planMode,
    });
    this.warn(ignoredFieldsWarning(asked));
    const { agent, toolSet, restricted, agentTrusted } = this.decideAgent(
      req,
      asked,
      agents,
      planMode,
    );
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
    const agentSet = this.opts.agentSet ?? (mayDelegate ? agentFingerprints(agents) : {});
    const outputSchema = resolveOutputSchema(asked.output, req.schema, this.opts.parentSchema);
    const schemaProblem = await outputSchemaProblem(outputSchema, asked, req);
    if (schemaProblem) return usage(schemaProblem);
    const model = childModel(req, agent, {
      config,
      env: env.env,
      keys: this.opts.keys,
      parentModel: this.opts.parentModel,
      modelFlag: this.opts.modelFlag,
    });
    // Refuse here rather than start a child that cannot run: an explicit
    // --model that names nothing must never fall back to another model. A
    // resumed task runs on its session's model (`session-binding.ts`).
    if (!model.ok && !remote.target && !opts.withoutModel && !resumesOnly(req)) {
      return usage(`Cannot run '${agent.name}': ${model.error}`);
    }
    const sandbox = await sandboxFor({
      request: req.sandbox,
      // The decided tools and the hooks say whether commands run to sandbox.
      agent: { ...agent, tools: toolSet.tools },
      config,
      caller: this.opts.sandbox,
      env: env.env,
      home: env.home,
    });
    if (!sandbox.ok) return usage(sandbox.message);
    this.warn(sandbox.warning);
    // Read once for every task of the call; children only format them.
    const gathered = await gatherPromptContext({
      cwd: env.cwd,
      home: env.home,
      env: env.env,
      files: agent.omitContextFiles !== true,
      git,
    });
    this.opts.onWarnings?.(gathered.warnings);
    const launch = childLauncher(req, asked, {
      task: config.task,
      depth: caller.depth,
      path: env.env.PATH,
      dryRun: opts.dryRun === true,
      warn: (w) => this.warn(w),
    });
    if (!launch.ok) return usage(launch.message);
    const skills = await childSkills(agent, toolSet.tools.includes("skill"), {
      env,
      onDiscoveryWarnings: this.opts.onDiscoveryWarnings,
      onWarnings: this.opts.onWarnings,
    });
    const memory = childMemory(agent, env, this.opts.onWarnings);
    const mcpServers = childMcpServers(agent, {
      config,
      env,
      agentTrusted,
      onWarnings: this.opts.onWarnings,
    });
    const timeoutS = req.timeout ?? restricted.timeout ?? config.task.timeout;
    const accept = await childAccept(req, asked, {
      env,
      acceptFlag: this.opts.acceptFlag,
      onWarnings: this.opts.onWarnings,
    });
    if (typeof accept === "string") return usage(accept);
    // The checks stay with the parent: the child is told only what failed.
    const { accept: _checks, acceptRetries: _rounds, ...childAgent } = agent;
    const parts: EnvelopeParts = {
      agent: withoutAuth(childAgent),
      context: req.context,
      outputSchema,
      model: remote.target ? { id: remoteModelId(asked) } : model.ok ? model.value : null,
      cwd: env.cwd,
      planMode,
      toolSet,
      limits: taskLimits({ maxTurns: req.maxTurns ?? agent.maxTurns, timeoutS }),
      config,
      promptContext: gathered.context,
      keys: this.opts.keys ?? providerKeys(config, env.env),
      agentSet,
      sandbox: sandbox.setting,
      mcpServers,
      skills: skills.refs,
      skillBudget: skillBudget(
        model.ok ? contextWindowOf(model.value.id, config) : undefined,
        env.env.SLASH_COMMAND_TOOL_CHAR_BUDGET,
      ),
      memory,
      preloadedSkills: skills.preloaded,
      commandGitSettings: gathered.gitOverrides,
      settingsHooks: this.settingsHooks(),
    };
    const lanes = decideLanes({
      tasks: req.tasks,
      agent: agent.writes,
      caller: this.opts.lane,
      taskField: this.opts.laneField ?? ((i) => `tasks[${i}].writes`),
    });
    if (!lanes.ok) return usage(lanes.message);
    const childEnv = childEnvironment(caller.depth);
    const tasks = req.tasks.map((t, i): PreparedTask => ({
      envelope: {
        ...buildEnvelope({
          id: t.id,
          assignment: t.assignment,
          ...(lanes.lanes[i] ? { writes: lanes.lanes[i] } : {}),
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
      ...(accept ? { accept } : {}),
    }));
    for (const t of tasks) {
      const tooLarge = envelopeSizeProblem(t.envelope);
      if (tooLarge) return usage(tooLarge);
    }
    return { ok: true, tasks, isolation: asked.isolation };
  }

  /** Passes a warning, if there is one, to `onWarnings`. */
  private warn(warning: Diagnostic | undefined): void {
    if (warning) this.opts.onWarnings?.([warning]);
  }

  /**
   * Discovers the agents afresh and picks the one `req` asks for: the
   * guards, then the check that it is the agent the top-level run started with.
   */
  private async chooseAgent(req: TaskRequest): Promise<
    | {
      ok: true;
      asked: AgentDefinition;
      agents: AgentDefinition[];
    }
    | { ok: false; kind: GuardKind; message: string }
  > {
    const { config, caller, env } = this.opts;
    const discovered = await discoverAgents(env);
    // Each call reads the settings' hooks afresh, as it rediscovers agents.
    this.settingsHooks = settingsHooksOnce(
      this.opts.settingsHooks,
      env,
      discovered.plugins,
      this.opts.onWarnings,
    );
    (this.opts.onDiscoveryWarnings ?? this.opts.onWarnings)?.(discovered.warnings);
    const agents = withSessionAgents(this.opts.sessionAgents, discovered.agents);
    const guard = checkGuards(req.agent, agents, caller, {
      maxDepth: config.task.maxRecursionDepth,
      disabled: config.task.disabledAgents,
      listHint: this.opts.listHint,
    });
    if (!guard.ok) return guard;
    // At the top level the set is this discovery's own: nothing to check against.
    const changed = this.opts.agentSet && changedSince(this.opts.agentSet, guard.agent);
    if (changed) return { ok: false, kind: "changed", message: changed };
    const asked = this.opts.editAgent ? this.opts.editAgent(guard.agent) : guard.agent;
    return { ok: true, asked, agents };
  }

  /**
   * The agent the children run: what an untrusted file may not loosen taken
   * away, the effective agent and its tool set, the trusted hooks and the
   * config's before them.
   */
  private decideAgent(
    req: TaskRequest,
    asked: AgentDefinition,
    agents: readonly AgentDefinition[],
    planMode: boolean,
  ) {
    const { config, caller, env } = this.opts;
    // A project agent file nobody trusted may only tighten the user's settings.
    // (The file and the store are read only for a file that sets such things.)
    const agentTrusted = trustNeeds(asked).length > 0 && agentFileTrusted(asked, env);
    const restricted = restrictAgent(asked, {
      trusted: agentTrusted,
      // With --sandbox the agent's own mode is not used at all.
      sandbox: req.sandbox !== undefined ? "off" : chooseSandbox({
        config: config.task.sandbox,
        network: config.task.sandboxNetwork,
        caller: this.opts.sandbox,
      }).mode,
      timeout: config.task.timeout,
      maxTurns: DEFAULT_LIMITS.maxTurns,
    });
    this.warn(restricted.warning);
    const { agent: withHooks, toolSet } = effectiveAgent(restricted.agent, {
      planMode,
      childDepth: caller.depth + 1,
      maxDepth: config.task.maxRecursionDepth,
      agentNames: agents.map((a) => a.name),
      inheritedDeny: this.opts.inheritedDeny,
    });
    const hooked = trustedHooks(withHooks, env);
    this.warn(hooked.warning);
    const agent = withConfigHooks(
      hooked.agent,
      config.hooks,
      this.settingsHooks(),
    );
    return { agent, toolSet, restricted: restricted.agent, agentTrusted };
  }

  /** Runs every task of `req`; guard and usage problems come back before any child starts. */
  async execute(req: TaskRequest, signal?: AbortSignal): Promise<TaskOutcome> {
    const prepared = await this.prepare(req);
    if (!prepared.ok) return prepared;
    return { ok: true, results: await this.start(prepared.tasks, signal) };
  }

  /**
   * Runs prepared tasks, at most `task.maxConcurrency` at once (and within
   * the shared limiter, when there is one), results in order.
   */
  async start(tasks: readonly PreparedTask[], signal?: AbortSignal): Promise<TaskResult[]> {
    const { config, env } = this.opts;
    const baseEnv = this.baseEnvironment();
    // The child started ahead goes to the first task, if it may serve it.
    const spare = this.spare;
    this.spare = undefined;
    const slot: Limiter = this.opts.limiter ?? ((fn) => fn());
    // The price table loads once a child has started, while this process
    // waits for it (loaded before, it would delay the first child; after,
    // the end of a short run). Keys handed down count as set: pricing only
    // needs the provider's type and URL.
    let pricingModule: Promise<typeof import("../model/price-call.ts")> | undefined;
    const pricing = () => (pricingModule ??= import("../model/price-call.ts"));
    const priceEnv = { ...env.env, ...this.opts.keys };
    // Once loaded, each call is priced as it is reported, for the progress.
    let price: PriceCall | undefined;
    // Tasks whose write lanes overlap in one workspace run one after the
    // other: each waits for the earlier ones it overlaps (never a later
    // one, so no cycle) before it queues for a slot; the rest queue in order.
    const waits = laneWaits(
      tasks.map((t) => t.envelope.writes),
      tasks.map((t) => t.isolate !== undefined),
    );
    // Siblings sharing an Anthropic prompt prefix start once the first one's
    // first answer has started, so they read the cache entry it wrote.
    const leaders = prefixLeaders(tasks, (model) => providerTypeOf(model, config));
    const gates = leaders.map((_, i) => leaders.includes(i) ? answerGate() : undefined);
    const cap = createLimiter(config.task.maxConcurrency);
    // A task held for a free slot says so once.
    const onQueued = (id: string) => () =>
      this.opts.onEvent?.(id, { type: "waiting", id, reason: "queued" });
    const runs: Promise<TaskResult>[] = [];
    tasks.forEach((task, i) => {
      // Where the child keeps its long tool results (named here, made there).
      const artifacts = taskArtifactsFolder(env.home, this.opts.runId, task.envelope.id);
      if (artifacts) task.envelope.artifacts = artifacts;
      const leader = leaders[i];
      const before = Promise.all([
        ...waits[i].map((j) => runs[j].catch(() => undefined)),
        ...(leader !== undefined ? [gates[leader]?.opened] : []),
      ]);
      runs[i] = before.then(() =>
        queued(
          cap,
          onQueued(task.envelope.id),
          () =>
            queued(slot, onQueued(task.envelope.id), async () => {
              // A provider a sibling found paused: this task starts when the pause ends.
              await pausedProvider(task.envelope.model, signal, (ms, provider) =>
                this.opts.onEvent?.(task.envelope.id, {
                  type: "waiting",
                  id: task.envelope.id,
                  reason: "rate_limit",
                  provider,
                  ms,
                }));
              const calls: TokenUsage[] = [];
              let ranOn: string | undefined;
              // Tasks still queued when the call is cancelled never start.
              const final: TaskResult = signal?.aborted
                ? {
                  id: task.envelope.id,
                  agent: task.envelope.agent.name,
                  status: "cancelled",
                  error: "cancelled",
                }
                : await runPreparedTask({
                  envelope: task.envelope,
                  env: { ...baseEnv, ...task.childEnv },
                  ...(i === 0 && spare ? { spare } : {}),
                  timeoutMs: task.timeoutMs,
                  session: task.session,
                  isolate: task.isolate,
                  ...(task.launch ? { launch: task.launch } : {}),
                  ...(this.opts.budget ? { budget: this.opts.budget } : {}),
                  ...(task.accept
                    ? { accept: { plan: task.accept, config, home: env.home, env: env.env } }
                    : {}),
                  finalize: async (r) => {
                    const asked = task.requestedModel !== undefined && r.model !== undefined
                      ? { ...r, requestedModel: task.requestedModel }
                      : r;
                    return withCost(asked, calls, (await pricing()).priceCall, config, priceEnv);
                  },
                  keeper: this.keeper,
                  secrets: this.secrets,
                  worktrees: this.worktreesDir,
                  run: this.opts.backgroundRun,
                  signal,
                  onEvent: (e) => {
                    if (e.type === "start") {
                      ranOn = e.model;
                      void pricing().then((p) => price = p.priceCall, () => {});
                    }
                    if (e.type === "usage") {
                      const call: TokenUsage = {
                        input: e.input ?? 0,
                        output: e.output ?? 0,
                        cacheRead: e.cacheRead ?? 0,
                        cacheWrite: e.cacheWrite ?? 0,
                      };
                      calls.push(call);
                      const cost = price && ranOn
                        ? price(ranOn, call, config, priceEnv, new Date())
                        : undefined;
                      if (cost?.ok) {
                        e = { ...e, costUSD: cost.usd };
                      }
                    }
                    gates[i]?.onEvent(e);
                    this.opts.onEvent?.(task.envelope.id, e);
                  },
                });
              if (signal?.aborted) {
                task.session?.release();
              }
              this.opts.onResult?.(final);
              return final;
            }),
        )
      );
      // A leader that ends without an answer (or never starts) lets its followers go.
      runs[i].finally(() => gates[i]?.close()).catch(() => undefined);
    });
    try {
      return await Promise.all(runs);
    } finally {
      // Not taken (a refused or cancelled first task, a launcher): it exits.
      spare?.release();
    }
  }
}
