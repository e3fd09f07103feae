/**
 * One child run from envelope text to exit code: validate the envelope, load
 * config, pick the model and provider, compile the output schema, choose the
 * tools (starting the MCP servers, ended with the run; their results reach
 * the model scrubbed of every secret), run the loop, and
 * report exactly one `result` event. Every failure becomes an error result
 * whose message says what to fix. Stops cleanly on
 * the envelope's timeout or when `abort` is called (signals): model call and
 * commands are cancelled first.
 *
 * @module
 */
import { stat } from "node:fs/promises";
import { dirname } from "node:path";
import { loadConfig } from "../config/load.ts";
import { createLanguageModel } from "../model/create.ts";
import {
  BUILTIN_PROVIDERS,
  keyVariables,
  type ResolvedProvider,
  resolveProvider,
} from "../model/providers.ts";
import { resolveModel } from "../model/resolve.ts";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "../model/retry.ts";
import {
  droppable,
  isOllama,
  modelRequest,
  type OptionalParameter,
  type ServerFacts,
} from "../model/capabilities.ts";
import { ollamaFacts } from "../model/ollama-show.ts";
import type { OutputValidator } from "../schema/output-schema.ts";
import { killAllCommandGroups } from "../tools/bash.ts";
import { unavailableTaskRunner } from "../tools/task.ts";
import type { Finding, TaskRunner, ToolContext, ToolSpec } from "../tools/types.ts";
import { hookRunner } from "./hooks.ts";
import type { ChildEvent, TaskEnvelope, XcshConfig } from "../types.ts";
import { parseEnvelope } from "../protocol/envelope.ts";
import { createEmitter, redact } from "../protocol/events.ts";
import { hideUrlCredentials, secretForms, urlSecrets } from "../redact.ts";
import { commandEnvironment } from "../sandbox/command-env.ts";
import { type LoopOutcome, runLoop } from "./loop.ts";
import { buildSystemPrompt } from "./prompt.ts";
import type { LanguageModel, Message, ToolDefinition } from "./conversation.ts";
import { callModelWithRetries, ModelCallError } from "./retries.ts";
import { streamTurn, type TurnOutput } from "./turn.ts";
import { childTools } from "./tool-set.ts";
import { submitTool } from "./submit-tool.ts";
import { cacheOptions, mergeProviderOptions } from "./cache-breakpoints.ts";
import { refusedParameter } from "./refused-parameter.ts";
import { displayPath } from "../home.ts";
import { prepareWorkspace } from "./workspace.ts";
import {
  modelIdleTimeoutMs,
  modelVariable,
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
}

/** Why a run was stopped from outside the loop. */
export class StopReason extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StopReason";
  }
}

function displayFile(file: string | undefined, home: string): string {
  return file ? displayPath(file, home) : "config";
}

/** Every base URL this config and environment may use (their credentials are secrets). */
function baseURLs(config: XcshConfig, env: Record<string, string | undefined>): string[] {
  return [
    ...Object.values(config.providers).map((p) => p.baseURL ?? ""),
    ...Object.values(BUILTIN_PROVIDERS).flatMap((b) => b.baseURLEnv.map((n) => env[n] ?? "")),
  ].filter(Boolean);
}

/**
 * The tools with their results scrubbed of `secrets` before the model sees
 * them (a command's output, a file, an MCP server's answer alike).
 */
function redactingTools(
  tools: ReadonlyMap<string, ToolSpec>,
  secrets: readonly string[],
): Map<string, ToolSpec> {
  const out = new Map<string, ToolSpec>();
  for (const [name, spec] of tools) {
    out.set(name, {
      ...spec,
      run: async (args, ctx) => {
        const o = await spec.run(args, ctx);
        return { ...o, output: redact(o.output, secrets), summary: redact(o.summary, secrets) };
      },
    });
  }
  return out;
}

/**
 * Runs one child from its stdin text and returns the exit code (0 only
 * when the result is ok).
 *
 * @example
 * ```ts
 * const code = await childMain(JSON.stringify(envelope), {
 *   env: process.env, home: os.homedir(),
 *   writeEvent: writeOut, log: (l) => writeErr(l + "\n"),
 * });
 * ```
 */
export async function childMain(input: string, deps: ChildDeps): Promise<number> {
  const { env } = deps;
  let secrets: string[] = [];
  const emit = createEmitter(deps.writeEvent);
  const log = (line: string) => deps.log(redact(line, secrets));
  const parsed = parseEnvelope(input);
  if (!parsed.ok) {
    emit({ type: "result", id: parsed.id, status: "error", error: parsed.error });
    return 1;
  }
  const envelope = parsed.value;
  const id = envelope.id;
  const fail = (error: string, extra: Partial<ChildEvent> = {}): number => {
    emit({ type: "result", id, status: "error", error, ...extra } as ChildEvent);
    return 1;
  };

  // The parent sends the configuration it resolved with; read the files only
  // when it did not (an envelope written by hand).
  const loaded = envelope.config
    ? { ok: true as const, config: envelope.config, warnings: [] }
    : await loadConfig(envelope.cwd, deps.home);
  for (const w of loaded.warnings) {
    log(`xcsh: warning: ${displayFile(w.file, deps.home)}: ${w.message}`);
  }
  if (!loaded.ok) {
    return fail(`${displayFile(loaded.error.file, deps.home)}: ${loaded.error.message}`);
  }
  const config = loaded.config;
  const keyVars = keyVariables(config);
  // Keys come in the envelope; a child started by hand may still have them
  // in its environment.
  const keyEnv = { ...env, ...envelope.keys };
  // What commands get (see src/sandbox/command-env.ts); the values it judges
  // secret are hidden like keys.
  const commands = commandEnvironment(env, {
    remove: keyVars,
    allow: config.task.allowEnv,
  });
  secrets = [
    ...secretForms(keyVars.map((k) => keyEnv[k])),
    ...baseURLs(config, env).flatMap(urlSecrets),
    ...commands.secrets,
  ].sort((a, b) => b.length - a.length);
  emit.setSecrets(secrets);

  const cwdStat = await stat(envelope.cwd).catch(() => undefined);
  if (!cwdStat?.isDirectory()) return fail(`working directory ${envelope.cwd} does not exist`);

  const choice = resolveModel({
    agentName: envelope.agent.name,
    agentModels: envelope.agent.model,
    config,
    envelopeModel: envelope.model,
    envModel: modelVariable(env),
    env: keyEnv,
  });
  if (!choice.ok) return fail(choice.error);
  const provider = resolveProvider(choice.value.provider, config, keyEnv);
  if (!provider.ok) return fail(provider.error);

  const schemaSource = envelope.outputSchema ?? envelope.agent.output ?? null;
  let validator: OutputValidator | undefined;
  if (schemaSource !== null && schemaSource !== undefined) {
    // Ajv loads only for a task that has a schema.
    const { compileOutputSchema } = await import("../schema/output-schema.ts");
    const compiled = compileOutputSchema(schemaSource);
    if (!compiled.ok) return fail(compiled.error);
    validator = compiled.value;
  }

  // Tools that could not be set up are reported after the `start` event.
  const unavailable: { tool: string; message: string }[] = [];
  const toolSet = await childTools(envelope, config, keyEnv, (server, message) => {
    unavailable.push({ tool: server === "web_search" ? server : `mcp__${server}`, message });
  });
  const tools = redactingTools(toolSet.tools, secrets);
  const submit = submitTool(provider.value.type, validator);
  const definitions: ToolDefinition[] = [
    ...[...tools.values()].map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: t.inputSchema,
    })),
    submit.definition,
  ];

  // Ollama says whether the model can think and call tools.
  let facts: ServerFacts | undefined;
  if (
    provider.value.type === "openai-compatible" &&
    isOllama(provider.value.name, provider.value.baseURL)
  ) {
    facts = await ollamaFacts(provider.value.baseURL, choice.value.model, {
      apiKey: provider.value.apiKey,
    });
    if (facts?.tools === false) {
      await toolSet.close();
      return fail(
        `${choice.value.id} cannot call tools (the server's /api/show lists no "tools" ` +
          "capability); choose a model that can",
      );
    }
  }
  const makeModel = (options?: { includeUsage?: boolean }) =>
    (deps.createModel ?? createLanguageModel)(provider.value, choice.value.model, options);
  let model: LanguageModel;
  try {
    model = await makeModel();
  } catch (err) {
    await toolSet.close();
    return fail(`cannot set up ${choice.value.id}: ${err instanceof Error ? err.message : err}`);
  }
  const workspace = prepareWorkspace({
    envelope,
    config,
    home: deps.home,
    env,
    usesBash: tools.has("bash"),
    // xcsh's own children: the parent probed bubblewrap before starting them.
    parentChecked: parentPipe(env),
  });
  if (!workspace.ok) {
    await toolSet.close();
    return fail(workspace.error);
  }
  for (const w of workspace.warnings) log(`xcsh: warning: ${w}`);
  const depth = reportedDepth(env);
  const note = envelope.modelNote ?? choice.value.note;
  emit({
    type: "start",
    id,
    agent: envelope.agent.name,
    model: choice.value.id,
    depth,
    ...(note ? { note } : {}),
    ...(envelope.session ? { session: envelope.session } : {}),
  });
  for (const u of unavailable) {
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

  const controller = new AbortController();
  const timeoutS = envelope.limits.timeoutMs / 1000;
  const timer = setTimeout(
    () => controller.abort(new StopReason(`timed out after ${timeoutS} s`)),
    envelope.limits.timeoutMs,
  );
  const onOuterAbort = () => {
    controller.abort(
      deps.abort?.reason instanceof Error ? deps.abort.reason : new StopReason("interrupted"),
    );
  };
  if (deps.abort?.aborted) onOuterAbort();
  deps.abort?.addEventListener("abort", onOuterAbort, { once: true });
  controller.signal.addEventListener("abort", () => killAllCommandGroups(), { once: true });

  const policy: RetryPolicy = {
    ...DEFAULT_RETRY_POLICY,
    baseDelayMs: retryBaseMs(env, DEFAULT_RETRY_POLICY.baseDelayMs),
  };
  const idleTimeoutMs = modelIdleTimeoutMs(env, DEFAULT_IDLE_TIMEOUT_MS);
  const system = buildSystemPrompt({
    agentPrompt: envelope.agent.systemPrompt,
    context: envelope.context,
    schema: validator ? { kind: validator.kind, value: validator.schema } : undefined,
    planMode: envelope.planMode,
    cwd: envelope.cwd,
    promptContext: envelope.promptContext,
    ...(tools.has("skill") ? { skills: envelope.skills } : {}),
    ...(envelope.preloadedSkills ? { preloadedSkills: envelope.preloadedSkills } : {}),
    ...(envelope.memory ? { memory: envelope.memory } : {}),
  });
  const level = envelope.thinkingLevel ?? envelope.agent.thinkingLevel;
  const cacheKey = `xcsh-${crypto.randomUUID()}`;
  // Optional parameters the server refused: they stay off for the rest of the task.
  const dropped = new Set<OptionalParameter>();
  const request = () => {
    const r = modelRequest({
      type: provider.value.type,
      provider: provider.value.name,
      model: choice.value.model,
      level,
      facts,
      dropped,
    }, provider.value.baseURL);
    return {
      ...r,
      providerOptions: mergeProviderOptions(
        r.providerOptions,
        cacheOptions(provider.value.type, cacheKey),
      ),
    };
  };
  let call = request();
  const sampling = {
    ...(envelope.temperature !== undefined ? { temperature: envelope.temperature } : {}),
    ...(envelope.topP !== undefined ? { topP: envelope.topP } : {}),
    ...(envelope.topK !== undefined ? { topK: envelope.topK } : {}),
  };
  const target = { model: choice.value.id, baseURL: hideUrlCredentials(provider.value.baseURL) };
  const findings: Finding[] = [];

  const ctx: ToolContext = {
    cwd: envelope.cwd,
    // The memory folder is the agent's own to write (`memory:`).
    roots: envelope.memory
      ? [...workspace.value.roots, envelope.memory.dir]
      : workspace.value.roots,
    ...(workspace.value.sandbox ? { sandbox: workspace.value.sandbox } : {}),
    signal: controller.signal,
    fetchAllow: config.task.webFetchAllow ?? [],
    env: commands.env,
    findings,
    ...(envelope.agent.permissions ? { permissions: envelope.agent.permissions } : {}),
    ...(tools.has("skill") && envelope.skills
      ? {
        skills: envelope.skills,
        readRoots: envelope.skills.map((s) => dirname(s.filePath)),
      }
      : {}),
    runTask: deps.taskRunnerFor?.({ envelope, config, model: choice.value.id }) ??
      deps.runTask ?? unavailableTaskRunner,
  };
  let hookWarnings = 0;
  const hooks = hookRunner(envelope.agent.hooks, {
    ctx,
    file: envelope.agent.filePath ?? envelope.agent.name,
    // On stderr, and as a failed `tool_end` the parent's progress shows.
    warn: (message) => {
      log(`xcsh: warning: ${message}`);
      emit({
        type: "tool_end",
        id,
        callId: `hook-${++hookWarnings}`,
        tool: "hook",
        ok: false,
        summary: message,
      });
    },
    ...(envelope.session ? { sessionId: envelope.session } : {}),
    projectDir: workspace.value.roots[0] ?? envelope.cwd,
  });
  let outcome: LoopOutcome;
  try {
    outcome = await runLoop({
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
      callModel: async (messages, forceTool) => {
        const turn = (): Promise<TurnOutput> => {
          // A server that refused a forced tool gets none; a model that refuses one
          // (Anthropic while thinking) is offered that tool alone.
          const force = dropped.has("tool_choice") ? undefined : forceTool;
          const narrow = !call.forcedToolChoice;
          return streamTurn({
            model,
            system,
            messages,
            tools: definitions,
            providerOptions: call.providerOptions,
            reasoning: call.reasoning,
            maxOutputTokens: call.maxOutputTokens,
            signal: controller.signal,
            idleTimeoutMs,
            onText: (delta) => emit({ type: "text", id, delta }),
            controls: { forceTool: force, narrow },
            breakpoints: provider.value.type === "anthropic",
            sampling,
          }).catch(async (err) => {
            const p = refusedParameter(err);
            const forced = force !== undefined && !narrow;
            if (!p || dropped.has(p) || !droppable(provider.value.type, p, forced)) throw err;
            dropped.add(p);
            if (p === "stream_options") model = await makeModel({ includeUsage: false });
            call = request();
            const reason = p === "tool_choice"
              ? "the server refuses a forced tool choice; reminding without it"
              : `the server refuses ${p}; trying again without it for the rest of the task`;
            log(`xcsh: ${target.model}: ${reason}`);
            emit({
              type: "retry",
              id,
              attempt: 0,
              maxRetries: policy.maxRetries,
              delayMs: 0,
              reason,
            });
            return turn();
          });
        };
        const out = await callModelWithRetries(
          turn,
          {
            policy,
            signal: controller.signal,
            target,
            onRetry: (attempt, delayMs, reason) => {
              emit({
                type: "retry",
                id,
                attempt,
                maxRetries: policy.maxRetries,
                delayMs,
                reason,
              });
              log(
                `xcsh: ${target.model}: ${reason}; retry ${attempt}/${policy.maxRetries} in ${
                  (delayMs / 1000).toFixed(1)
                } s`,
              );
            },
          },
        );
        emit({ type: "usage", id, ...out.usage });
        return out;
      },
    });
  } catch (err) {
    const reason = controller.signal.aborted ? controller.signal.reason : err;
    let message: string;
    if (reason instanceof StopReason || reason instanceof ModelCallError) message = reason.message;
    else message = `internal error: ${reason instanceof Error ? reason.message : String(reason)}`;
    if (reason instanceof StopReason && reason.message.startsWith("timed out")) {
      message += ` (limits.timeoutMs ${envelope.limits.timeoutMs}; model ${target.model} at ` +
        `${target.baseURL})`;
    }
    outcome = { status: "error", error: message };
  } finally {
    clearTimeout(timer);
    deps.abort?.removeEventListener("abort", onOuterAbort);
    killAllCommandGroups();
    workspace.value.cleanup();
    await toolSet.close();
  }
  emit({ type: "result", id, ...outcome });
  return outcome.status === "ok" ? 0 : 1;
}
