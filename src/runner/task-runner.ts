/**
 * The task runner: `xcsh run`, the MCP `task` tool and a child's own `task`
 * tool all call it.
 *
 * Runs the life of a task call: `create()` discovers agents once to build
 * the description a model or client sees; `execute()` has the call planned
 * afresh (`plan/child-plan.ts`: files may have changed; the guards come
 * before any other work), binds each child's session, then runs the tasks
 * in parallel up to `task.maxConcurrency` (tasks whose write lanes overlap
 * one after the other: `plan/write-lanes.ts`), each with its artifacts
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
import { pausedProvider, queued } from "./admission/task-admission.ts";
import { discoverAgents } from "../discovery/discover.ts";
import { withSessionAgents } from "../discovery/session-agents.ts";
import type { BudgetLink } from "../protocol/budget-link.ts";
import { runPreparedTask } from "./run-task.ts";
import { laneWaits } from "../plan/write-lanes.ts";
import { answerGate, prefixLeaders, providerTypeOf } from "./admission/prefix-sharing.ts";
import type { PreparedTask } from "./prepared-task.ts";
import { bindSessions } from "./task-sessions/session-binding.ts";
import { validateRequest } from "../plan/request.ts";
import { planChildren } from "../plan/child-plan.ts";
import type { PlanInputs } from "../plan/plan-inputs.ts";
import { SessionKeeper } from "./task-sessions/task-session.ts";
import { dataDirectory, worktreesDirectory } from "../sessions/paths.ts";
import type { GuardKind } from "../plan/guards.ts";
import type { SpareChild } from "./spawn/spare-child.ts";
import { childBaseEnvironment } from "./spawn/spare-start.ts";
import { taskToolDescription } from "./task-description.ts";
import { runSecrets } from "../model/providers.ts";
import { type PriceCall, withCost } from "./budget/task-cost.ts";
import type { AgentDefinition, TaskRequest, TaskResult, TokenUsage } from "../types.ts";
import type { ChildEvent } from "../protocol/events.ts";

export { taskToolDescription };

/** The plan's inputs, and what running the planned children needs. */
export interface TaskToolOptions extends PlanInputs {
  /** Names the artifacts folder of this run. */
  runId: string;
  onEvent?: (taskId: string, event: ChildEvent) => void;
  /** Called as each task ends (before the others may have). */
  onResult?: (result: TaskResult) => void;
  /**
   * A cap shared with other task calls of the same caller (a child's
   * concurrent `task` calls): each child started takes a slot.
   */
  limiter?: Limiter;
  /** The background run these tasks belong to (recorded in their sessions). */
  backgroundRun?: string;
  /** The run's budget, which every task started here draws from (`budget-link.ts`). */
  budget?: BudgetLink;
  /**
   * The first child, started by the caller before the call is planned
   * (`spawn/spare-start.ts`, `spawn/spare-child.ts`), so that it loads
   * meanwhile: `xcsh run`, whose process ends with its call. The first task
   * it may serve takes it; otherwise it is released.
   */
  spare?: SpareChild;
}

export type { PreparedTask };

export type TaskOutcome =
  | { ok: true; results: TaskResult[] }
  | { ok: false; kind: GuardKind | "usage"; message: string };

export type Prepared =
  | { ok: true; tasks: PreparedTask[] }
  | { ok: false; kind: GuardKind | "usage"; message: string };

export { validateRequest };

export class TaskTool {
  private keeperValue?: SessionKeeper;
  private secretsValue?: readonly string[];
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
    this.spare = opts.spare;
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

  /** The environment every child starts from: this process's, without key variables. */
  private baseEnvironment(): Record<string, string> {
    return childBaseEnvironment(this.opts.env.env, this.opts.config);
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

  /** Plans every child of `req` (`plan/child-plan.ts`). */
  private prepareChildren(
    req: TaskRequest,
    opts: { withoutModel?: boolean; dryRun?: boolean },
  ): Promise<Prepared & { isolation?: TaskRequest["isolation"] }> {
    return planChildren(req, this.opts, opts);
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
