/**
 * One child run from its plan (the envelope) to exit code, as a list of
 * steps. The child decides nothing: it validates the plan
 * (`protocol/envelope.ts`, with `plan-readers.ts`; a missing, unknown or
 * bad field, or another protocol version, is one error line), takes the
 * config the parent sent, the secrets no output may show (`runSecrets`),
 * builds the provider of the model the plan names (`providerOf`), the
 * output schema's validator
 * (`validatorOf`), the tools (`child/tool-set.ts`, starting the MCP servers,
 * ended with the run; their results reach the model scrubbed of every
 * secret), the built model (`readyModel`), the workspace, the `start` event
 * (`announceStart`), the stop signal (`stopControl`), the model caller
 * (`child/model-caller.ts`), the tool context and hooks, the model's window
 * and the compaction that keeps the conversation in it (`child/compaction.ts`;
 * a window the fixed prompt does not fit ends the task before any call),
 * then the loop, and
 * exactly one `result` event. Every failure becomes an error result whose
 * message says what to fix. Stops cleanly on the envelope's timeout or when
 * `abort` is called (signals): model call and commands are cancelled first.
 *
 * @module
 */
import { stat } from "node:fs/promises";
import { createLanguageModel } from "../model/create.ts";
import {
  keyVariables,
  type ResolvedProvider,
  resolveProvider,
  runSecrets,
  splitModelId,
} from "../model/providers.ts";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "../model/retry.ts";
import { isOllama, type ServerFacts } from "../model/capabilities.ts";
import { ollamaFacts } from "../model/ollama-show.ts";
import type { OutputValidator } from "../schema/output-schema.ts";
import { killAllCommandGroups } from "../tools/command-groups.ts";
import { unavailableTaskRunner } from "../tools/task.ts";
import type { TaskRunner, ToolContext, ToolSpec } from "../tools/tool-spec.ts";
import type { XcshConfig } from "../types.ts";
import { parseEnvelope, type TaskEnvelope } from "../protocol/envelope.ts";
import { planReaders } from "./plan-readers.ts";
import { type ChildEvent, createEmitter, type Emit, redact } from "../protocol/events.ts";
import { hideUrlCredentials } from "../text/redact.ts";
import { commandEnvironment } from "../sandbox/command-env.ts";
import { type LoopOutcome, runLoop } from "./loop.ts";
import { buildSystemPrompt } from "./prompt.ts";
import type { LanguageModel, Message, ToolDefinition } from "./conversation.ts";
import { childTools } from "./tool-set.ts";
import { submitTool } from "./submit-tool.ts";
import { prepareWorkspace } from "./workspace.ts";
import { createModelCaller } from "./model-caller.ts";
import { createBudgetGate, DEFAULT_GRANT_TIMEOUT_MS } from "./budget-gate.ts";
import { createPaceLink } from "./pace-link.ts";
import { type BudgetLink, BudgetRefused } from "../protocol/budget-link.ts";
import { timerMs } from "../protocol/limits.ts";
import { CONTROL_VERSION, type ControlMessage } from "../protocol/control.ts";
import { setPaceUpstream, useProviderLimits } from "../model/provider-gate.ts";
import { learnedFromParent, setUpward } from "../model/pause-relay.ts";
import { spillingTools } from "./spill.ts";
import { inlineLimit } from "../tools/result-share.ts";
import {
  createCompaction,
  estimateTokens,
  MAX_RESERVE_SHARE,
  tooSmallWindow,
} from "./compaction.ts";
import { windowBeforeCatalogue } from "../model/configured-window.ts";
import {
  announcingTools,
  redactingTools,
  stopMessage,
  StopReason,
  toolContextFor,
} from "./child-steps.ts";
import {
  envelopeVariables,
  modelIdleTimeoutMs,
  parentPipe,
  reportedDepth,
  retryBaseMs,
} from "../protocol/variables.ts";

/** Default wait for the next byte of a model response before retrying. */
export const DEFAULT_IDLE_TIMEOUT_MS = 300_000;

export interface ChildDeps {
  env: Record<string, string | undefined>;
  home: string;
  /** Receives each JSON line (stdout). */
  writeEvent: (line: string) => void;
  /** Receives human-readable lines (stderr). */
  log: (line: string) => void;
  runTask?: TaskRunner;
  /**
   * Builds the runner for the `task` tool once the envelope, config and model
   * are known (the parent-side task runner needs all three). Wins over `runTask`.
   */
  taskRunnerFor?: (ctx: TaskRunnerContext) => TaskRunner;
  /** Aborting it ends the run (signals); the reason becomes the error. */
  abort?: AbortSignal;
  /** Called before each tool call runs (the orphan watch starts at the first). */
  beforeTool?: () => void;
  /**
   * The control channel on stdin, when a parent keeps it open: the run's
   * control messages and the pipe's end reach the handlers set here.
   */
  control?: { listen(onMessage: (m: ControlMessage) => void, onGone: () => void): void };
  /** Builds the model (tests may substitute one). */
  createModel?: (
    provider: ResolvedProvider,
    model: string,
    options?: { includeUsage?: boolean },
  ) => LanguageModel | Promise<LanguageModel>;
}

/** What the `task` tool's runner is built from. */
export interface TaskRunnerContext {
  envelope: TaskEnvelope;
  config: XcshConfig;
  /** The model this child runs (`provider/model`): what its children inherit. */
  model: string;
  /** The child's environment, with the variables its envelope decides laid over it. */
  env: Record<string, string | undefined>;
  /** The run's budget, asked through this child's parent; absent: no budget. */
  budget?: BudgetLink;
}

export { StopReason };

/**
 * Runs one child from its stdin text and returns the exit code (0 only
 * when the result is ok). Each step below either succeeds or ends the run
 * with one error result saying what to fix.
 *
 * @example
 * ```ts
 * import os from "node:os";
 * import process from "node:process";
 * import { writeErr, writeOut } from "../text/stdio.ts";
 * import type { TaskEnvelope } from "../protocol/envelope.ts";
 *
 * declare const envelope: TaskEnvelope;
 * const code = await childMain(JSON.stringify(envelope), {
 *   env: process.env, home: os.homedir(),
 *   writeEvent: writeOut, log: (l) => writeErr(l + "\n"),
 * });
 * ```
 */
export async function childMain(input: string, deps: ChildDeps): Promise<number> {
  let secrets: string[] = [];
  const emit = createEmitter(deps.writeEvent);
  const log = (line: string) => deps.log(redact(line, secrets));
  const parsed = parseEnvelope(input, planReaders);
  if (!parsed.ok) {
    emit({ type: "result", id: parsed.id, status: "error", error: parsed.error });
    return 1;
  }
  const envelope = parsed.value;
  // The spawn right and blocked agent are the plan's, whatever the
  // environment held: its `task` tool and its commands get them from here.
  const env = { ...deps.env, ...envelopeVariables(envelope) };
  const id = envelope.id;
  // Under a budget every model call is first asked of the parent; without
  // one (or without a parent reading the channel) nothing is asked.
  const gate = envelope.budget && deps.control
    ? createBudgetGate({ id, emit, timeoutMs: DEFAULT_GRANT_TIMEOUT_MS })
    : undefined;
  // A paced child asks its parent before each model request (its own and its
  // sub-tasks', which ask it).
  const pace = envelope.pace && deps.control ? createPaceLink({ id, emit }) : undefined;
  if (pace) setPaceUpstream(pace.upstream);
  // A sibling's pause, sent down, holds this child's calls and its sub-tasks';
  // a sub-task's pause goes up to the parent as this child's own news.
  deps.control?.listen((m) => {
    if (m.type === "rate_limit") {
      const { type: _t, version: _v, ...news } = m;
      learnedFromParent(news);
    } else if (m.type === "pace_grant") pace?.onControl(m);
    else gate?.onControl(m);
  }, () => {
    gate?.parentGone();
    pace?.parentGone();
  });
  if (deps.control) setUpward((news) => emit({ type: "rate_limit", ...news, id }));
  const fail = (error: string, extra: Partial<ChildEvent> = {}): number => {
    emit({ type: "result", id, status: "error", error, ...extra } as ChildEvent);
    return 1;
  };

  const config = envelope.config;
  const keyVars = keyVariables(config);
  // Keys come in the envelope; base URL variables (and a key a user's own
  // environment holds) are read where the provider is built.
  const keyEnv = { ...env, ...envelope.keys };
  // What commands get (see src/sandbox/command-env.ts); every secret value
  // (text/secrets.ts) is hidden like a key. Worked out when a tool first
  // asks (a child that runs no command and reads no variable never does).
  let commandEnv: Record<string, string> | undefined;
  const commandsEnv = () =>
    commandEnv ??= commandEnvironment(env, {
      remove: keyVars,
      allow: config.task.allowEnv,
      gitSettings: envelope.commandGitSettings ?? [],
    }).env;
  secrets = runSecrets(config, keyEnv);
  emit.setSecrets(secrets);

  const cwdStat = await stat(envelope.cwd).catch(() => undefined);
  if (!cwdStat?.isDirectory()) return fail(`working directory ${envelope.cwd} does not exist`);
  // A remote agent's loop runs on the far side, over A2A (child/remote-task.ts).
  if (envelope.remote) {
    const validator = await validatorOf(envelope);
    if (!validator.ok) return fail(validator.error);
    const { remoteChild } = await import("./remote-task.ts");
    return await remoteChild({
      envelope,
      remote: envelope.remote,
      config,
      emit,
      depth: reportedDepth(env),
      control: deps.control !== undefined,
      validator: validator.value,
      addSecrets: (values) => emit.setSecrets(secrets = [...secrets, ...values]),
      stop: stopControl(envelope.limits.timeoutMs, deps.abort, deps.control !== undefined),
    });
  }
  const chosen = providerOf(envelope, config, keyEnv);
  if (!chosen.ok) return fail(chosen.error);
  const { choice, provider } = chosen;
  const validator = await validatorOf(envelope);
  if (!validator.ok) return fail(validator.error);

  // Tools that could not be set up are reported after the `start` event.
  const unavailable: { tool: string; message: string }[] = [];
  const toolSet = await childTools(envelope, config, keyEnv, (server, message) => {
    unavailable.push({ tool: server === "web_search" ? server : `mcp__${server}`, message });
  });
  // Long results: the model reads its share of the window, the rest is kept
  // in the task's artifacts folder (the window table loads at the first result).
  const tools = announcingTools(
    spillingTools(
      redactingTools(toolSet.tools, secrets),
      async () =>
        inlineLimit(
          (await import("../model/context-window.ts")).contextWindowOf(chosen.choice.id, config),
        ),
      envelope.artifacts,
    ),
    deps.beforeTool,
  );
  const submit = submitTool(provider.type, validator.value);
  const ready = await readyModel(provider, choice, deps);
  if (!ready.ok) {
    await toolSet.close();
    return fail(ready.error);
  }
  const workspace = prepareWorkspace({
    envelope,
    config,
    home: deps.home,
    env,
    toolNames: [...tools.keys()],
    // xcsh's own children: the parent probed bubblewrap before starting them.
    parentChecked: parentPipe(env),
  });
  if (!workspace.ok) {
    await toolSet.close();
    return fail(workspace.error);
  }
  for (const w of workspace.warnings) log(`xcsh: warning: ${w}`);
  // The price catalogue loads only for a model whose window it may know.
  const served = ready.facts?.contextWindow;
  const window = windowBeforeCatalogue(choice.id, config, served) ??
    (await import("../model/context-window.ts")).windowOf(choice.id, config, served);
  // An unknown window is said once, with the start.
  const windowNote = window.source === "default"
    ? `its context window is unknown; assuming ${window.tokens} tokens ` +
      `(set providers.${provider.name}.contextWindow)`
    : undefined;
  announceStart(emit, log, {
    envelope,
    model: choice.id,
    depth: reportedDepth(env),
    note: envelope.modelNote,
    windowNote,
    control: deps.control !== undefined,
    unavailable,
  });

  const stop = stopControl(envelope.limits.timeoutMs, deps.abort, deps.control !== undefined);
  const policy: RetryPolicy = {
    ...DEFAULT_RETRY_POLICY,
    baseDelayMs: retryBaseMs(env, DEFAULT_RETRY_POLICY.baseDelayMs),
  };
  const target = { model: choice.id, baseURL: hideUrlCredentials(provider.baseURL) };
  const system = systemPromptOf(envelope, validator.value, tools.has("skill"), submit.schemaInTool);
  const toolDefs = [...[...tools.values()].map(toolDefinition), submit.definition];
  useProviderLimits({ [provider.name]: config.providers[provider.name] });
  const { callModel, reserve } = createModelCaller({
    id,
    provider,
    model: { name: choice.model, id: target.model, baseURL: target.baseURL },
    settings: envelope.modelSettings ?? {},
    facts: ready.facts,
    makeModel: ready.makeModel,
    first: ready.model,
    system,
    tools: toolDefs,
    policy,
    // A small window is not spent on output: a request asks for at most a quarter of it.
    maxOutputTokens: Math.floor(window.tokens * MAX_RESERVE_SHARE),
    idleTimeoutMs: modelIdleTimeoutMs(env, DEFAULT_IDLE_TIMEOUT_MS),
    signal: stop.signal,
    emit,
    log,
    ...(gate ? { budget: gate } : {}),
  });
  const ctx = toolContextFor({
    envelope,
    config,
    workspace: workspace.value,
    hasSkillTool: tools.has("skill"),
    signal: stop.signal,
    commandEnv: commandsEnv,
    findings: [],
    runTask: deps.taskRunnerFor?.({
      envelope,
      config,
      model: choice.id,
      env,
      ...(gate ? { budget: gate } : {}),
    }) ??
      deps.runTask ?? unavailableTaskRunner,
  });
  const hooks = await hooksOf(envelope, ctx, workspace.value.roots, secrets, emit, log);
  const fixed = estimateTokens(system + JSON.stringify(toolDefs));
  const tooSmall = tooSmallWindow(target.model, window.tokens, reserve(), fixed);
  const compaction = createCompaction({
    id,
    model: target.model,
    window: window.tokens,
    reserve: reserve(),
    fixed,
    summarise: async (messages) => {
      const out = await callModel(messages, undefined, { quiet: true });
      if (out.toolCalls.length > 0 && out.text.trim() === "") {
        throw new Error("the model called a tool instead of writing a summary");
      }
      return out.text;
    },
    ...(hooks ? { preCompact: (trigger: "auto") => hooks.compact(trigger) } : {}),
    emit,
    log,
  });
  let outcome: LoopOutcome;
  try {
    // A window the fixed prompt does not fit: said before any call.
    outcome = tooSmall ? { status: "error", error: tooSmall } : await runLoop({
      id,
      assignment: envelope.assignment,
      history: envelope.history as Message[] | undefined,
      recordMessages: envelope.session !== undefined,
      tools,
      validator: submit.validator,
      limits: envelope.limits,
      ctx,
      ...(hooks ? { hooks } : {}),
      emit,
      callModel,
      compaction,
    });
  } catch (err) {
    const reason = stop.signal.aborted ? stop.signal.reason : err;
    // A call the budget refused ends the task with what it has so far.
    outcome = reason instanceof BudgetRefused
      ? { status: "error", error: reason.message, reason: "budget" }
      : { status: "error", error: stopMessage(reason, envelope.limits.timeoutMs, target) };
  } finally {
    stop.release();
    killAllCommandGroups();
    workspace.value.cleanup();
    await toolSet.close();
  }
  emit({ type: "result", id, ...outcome });
  return outcome.status === "ok" ? 0 : 1;
}

/**
 * The provider of the model the plan names (`provider/model`), built from
 * the plan's config and keys: no model is chosen here.
 */
function providerOf(
  envelope: TaskEnvelope,
  config: XcshConfig,
  keyEnv: Record<string, string | undefined>,
) {
  const id = envelope.model ?? "";
  const split = splitModelId(id);
  if (!split) {
    return {
      ok: false as const,
      error: `invalid envelope: 'model' must be 'provider/model', not '${id}'`,
    };
  }
  const provider = resolveProvider(split.provider, config, keyEnv);
  if (!provider.ok) return provider;
  return { ok: true as const, choice: { id, model: split.model }, provider: provider.value };
}

/** The output schema's validator, if the task has a schema (Ajv loads only then). */
async function validatorOf(
  envelope: TaskEnvelope,
): Promise<{ ok: true; value: OutputValidator | undefined } | { ok: false; error: string }> {
  const source = envelope.outputSchema ?? null;
  if (source === null || source === undefined) return { ok: true, value: undefined };
  const { compileOutputSchema } = await import("../schema/output-schema.ts");
  const compiled = compileOutputSchema(source);
  return compiled.ok ? { ok: true, value: compiled.value } : { ok: false, error: compiled.error };
}

/**
 * The model, built: an Ollama server is first asked whether the model can
 * think and call tools (one that cannot call tools cannot run a task).
 */
async function readyModel(
  provider: ResolvedProvider,
  choice: { id: string; model: string },
  deps: ChildDeps,
): Promise<
  | {
    ok: true;
    model: LanguageModel;
    facts: ServerFacts | undefined;
    makeModel: (options?: { includeUsage?: boolean }) => Promise<LanguageModel>;
  }
  | { ok: false; error: string }
> {
  let facts: ServerFacts | undefined;
  if (provider.type === "openai-compatible" && isOllama(provider.name, provider.baseURL)) {
    facts = await ollamaFacts(provider.baseURL, choice.model, { apiKey: provider.apiKey });
    if (facts?.tools === false) {
      return {
        ok: false,
        error: `${choice.id} cannot call tools (the server's /api/show lists no "tools" ` +
          "capability); choose a model that can",
      };
    }
  }
  const makeModel = async (options?: { includeUsage?: boolean }) =>
    await (deps.createModel ?? createLanguageModel)(provider, choice.model, options);
  try {
    return { ok: true, model: await makeModel(), facts, makeModel };
  } catch (err) {
    return {
      ok: false,
      error: `cannot set up ${choice.id}: ${err instanceof Error ? err.message : err}`,
    };
  }
}

/** The `start` event, then one failed `tool_end` (and a log line) per tool that could not be set up. */
function announceStart(
  emit: Emit,
  log: (line: string) => void,
  o: {
    envelope: TaskEnvelope;
    model: string;
    depth: number;
    note: string | undefined;
    windowNote: string | undefined;
    /** The child reads the control channel. */
    control: boolean;
    unavailable: readonly { tool: string; message: string }[];
  },
): void {
  const { envelope } = o;
  const id = envelope.id;
  emit({
    type: "start",
    id,
    agent: envelope.agent.name,
    model: o.model,
    depth: o.depth,
    ...(o.note ? { note: o.note } : {}),
    ...(o.windowNote ? { windowNote: o.windowNote } : {}),
    ...(envelope.session ? { session: envelope.session } : {}),
    ...(o.control ? { control: CONTROL_VERSION } : {}),
  });
  for (const u of o.unavailable) {
    log(`xcsh: warning: ${u.message}`);
    emit({
      type: "tool_end",
      id,
      callId: `setup-${u.tool}`,
      tool: u.tool,
      ok: false,
      summary: u.message,
    });
  }
}

/**
 * How long after the task's time limit a child under a parent ends itself.
 * The parent keeps the task's time: it starts its timer before the child
 * reads the plan, ends the task and says so, the same whoever started it.
 * The child's own timer is the backstop for a parent that cannot (stalled,
 * or its cancel lost on the way), and must not race it.
 */
const BACKSTOP_GRACE_MS = 1000;

/**
 * The run's stop signal: it fires on the envelope's timeout (under a parent
 * that reads the control channel, {@link BACKSTOP_GRACE_MS} after it) or
 * when `outer` aborts (signals, a parent's cancel), and then ends every
 * command; `release` clears both.
 */
function stopControl(
  timeoutMs: number,
  outer: AbortSignal | undefined,
  underParent: boolean,
): { signal: AbortSignal; release(): void } {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new StopReason(`timed out after ${timeoutMs / 1000} s`)),
    // Within what a timer can hold: a limit at the cap stays there.
    timerMs(timeoutMs + (underParent ? BACKSTOP_GRACE_MS : 0)),
  );
  const onOuterAbort = () => {
    controller.abort(outer?.reason instanceof Error ? outer.reason : new StopReason("interrupted"));
  };
  if (outer?.aborted) onOuterAbort();
  outer?.addEventListener("abort", onOuterAbort, { once: true });
  controller.signal.addEventListener("abort", () => killAllCommandGroups(), { once: true });
  return {
    signal: controller.signal,
    release: () => {
      clearTimeout(timer);
      outer?.removeEventListener("abort", onOuterAbort);
    },
  };
}

/** The system prompt of the run. */
function systemPromptOf(
  envelope: TaskEnvelope,
  validator: OutputValidator | undefined,
  hasSkillTool: boolean,
  schemaInTool: boolean,
): string {
  return buildSystemPrompt({
    agentPrompt: envelope.agent.systemPrompt,
    context: envelope.context,
    schema: validator ? { kind: validator.kind, value: validator.schema } : undefined,
    schemaInTool,
    planMode: envelope.planMode,
    cwd: envelope.cwd,
    promptContext: envelope.promptContext,
    ...(hasSkillTool ? { skills: envelope.skills } : {}),
    ...(envelope.skillBudget !== undefined ? { skillBudget: envelope.skillBudget } : {}),
    ...(envelope.preloadedSkills ? { preloadedSkills: envelope.preloadedSkills } : {}),
    ...(envelope.memory ? { memory: envelope.memory } : {}),
  });
}

/** What the model is told of a tool. */
function toolDefinition(t: ToolSpec): ToolDefinition {
  return { name: t.name, description: t.description, inputSchema: t.inputSchema };
}

/**
 * The agent's hooks, whose warnings go to stderr and, as a failed
 * `tool_end`, to the parent's progress. The hook runner loads only for a
 * plan with hooks.
 */
async function hooksOf(
  envelope: TaskEnvelope,
  ctx: ToolContext,
  roots: readonly string[],
  secrets: readonly string[],
  emit: Emit,
  log: (line: string) => void,
) {
  const hooks = envelope.agent.hooks;
  if (!hooks || Object.keys(hooks).length === 0) return undefined;
  const { hookRunner } = await import("./hooks.ts");
  let hookWarnings = 0;
  return hookRunner(hooks, {
    ctx,
    file: envelope.agent.filePath ?? envelope.agent.name,
    warn: (message) => {
      log(`xcsh: warning: ${message}`);
      emit({
        type: "tool_end",
        id: envelope.id,
        callId: `hook-${++hookWarnings}`,
        tool: "hook",
        ok: false,
        summary: message,
      });
    },
    ...(envelope.session ? { sessionId: envelope.session } : {}),
    ...(envelope.transcriptPath ? { transcriptPath: envelope.transcriptPath } : {}),
    permissionMode: envelope.planMode ? "plan" : "dontAsk",
    agentId: envelope.id,
    agentType: envelope.agent.name,
    projectDir: roots[0] ?? envelope.cwd,
    secrets,
  });
}
