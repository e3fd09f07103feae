/**
 * `xcsh run AGENT [ASSIGNMENT...]`: runs one or more tasks and prints their
 * results — text, or one JSON document with `--json`.
 *
 * Decides where the assignment comes from (arguments, or stdin when there
 * are none), how `--task ID=ASSIGNMENT`, `--schema JSON|@file`, `--timeout`
 * and `--dry-run` read, and the exit code: 0 when every task succeeded, 1
 * when one failed or was cancelled, 2 for usage and guard errors.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { existsSync } from "node:fs";
import process from "node:process";
import { homeDirectory } from "../fs/home.ts";
import { writeErr, writeOut } from "../text/stdio.ts";
import { parseFlags } from "./args.ts";
import { discoveryEnv } from "./context.ts";
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError } from "./errors.ts";
import { parseSessionAgents } from "../discovery/session-agents.ts";
import { isVerbose, printJson, reportDiagnostics, reportDiscoveryWarnings } from "./output.ts";
import { formatDiagnostic } from "../text/labels.ts";
import { Progress } from "./progress.ts";
import { loadConfig } from "../config/load.ts";
import { thinkingShown } from "./thinking-shown.ts";
import { runId } from "../runner/artifacts.ts";
import { PARENT_PIPE, readCallerState } from "../protocol/variables.ts";
import { checkResumeScope } from "../runner/task-sessions/resume-scope.ts";
import { readAcceptFlags, readAcceptRetries } from "./accept-flag.ts";
import type { PreparedTask } from "../runner/task-runner.ts";
import { type SpareChild, startSpareChild } from "../runner/spawn/spare-child.ts";
import { spareSetting } from "../runner/spawn/spare-start.ts";
import { laneWaits } from "../plan/write-lanes.ts";
import { launchCommand, protocolVariables } from "../runner/spawn/launch-command.ts";
import { selfCommand } from "../runtime.ts";
import type {
  AgentDefinition,
  Isolation,
  SandboxMode,
  TaskItem,
  TaskRequest,
  TaskResult,
  XcshConfig,
} from "../types.ts";
import type { TaskEnvelope } from "../protocol/envelope.ts";
import type { ChildEvent } from "../protocol/events.ts";
import { hideUrlCredentials, redactValue } from "../text/redact.ts";
import { isSecretVariable } from "../text/secrets.ts";
import { parseSandboxMode, SANDBOX_CHOICES } from "../sandbox/mode.ts";
import { RUN_FLAGS as FLAGS, RUN_HELP } from "./run-flags.ts";
import { readBudgetFlags } from "./budget-flags.ts";
import { hasBudget } from "../config/budget-setting.ts";
import { runBudgetFor } from "../runner/budget/run-budget.ts";
import { printResults } from "./results.ts";
import { outputFormat } from "./output-format.ts";
import { StreamJson } from "./stream-json.ts";
import { RunTally } from "../progress/run-tally.ts";
import { readStdinCapped, withStdin } from "./stdin-assignment.ts";
import {
  BACKGROUND_ENV,
  isCancelRequested,
  recordRunExit,
  recordRunProcess,
  recordRunSessions,
} from "../sessions/background.ts";
import { dataDirectory } from "../sessions/paths.ts";
import { readSession, sessionPlace } from "../sessions/store.ts";
import { sessionsDirectory } from "../sessions/paths.ts";
import { isValidId } from "../sessions/ids.ts";

export { RUN_HELP };
export { failureLine, resultBody } from "./results.ts";

/** The launcher's command line for a task, as a dry run shows it (the task mark elided). */
function launcherShown(
  launch: NonNullable<PreparedTask["launch"]>,
  envelope: TaskEnvelope,
  childEnv: Record<string, string>,
): { name: string; shell: boolean; argv: string[] } {
  const c = launchCommand(
    launch.plan,
    {
      task: envelope.id,
      agent: envelope.agent.name,
      session: envelope.session ?? "",
      cwd: envelope.cwd,
    },
    protocolVariables({ ...childEnv, [PARENT_PIPE]: "1" }),
    launch.binary,
  );
  return { name: launch.plan.name, shell: launch.plan.shell, argv: [c.command, ...c.args] };
}

/**
 * An envelope as `--dry-run` prints it: key values, URL credentials and
 * whatever else `text/secrets.ts` calls a secret hidden.
 */
function shownEnvelope(e: TaskEnvelope, secrets: readonly string[]): TaskEnvelope {
  const keys = Object.fromEntries(Object.keys(e.keys ?? {}).map((k) => [k, "<redacted>"]));
  const config = e.config && {
    ...e.config,
    providers: Object.fromEntries(
      Object.entries(e.config.providers).map(([name, p]) => [
        name,
        p.baseURL ? { ...p, baseURL: hideUrlCredentials(p.baseURL) } : p,
      ]),
    ),
  };
  // A remote agent's credential headers: their names only.
  const remote = e.remote && {
    ...e.remote,
    headers: Object.fromEntries(Object.keys(e.remote.headers).map((h) => [h, "<redacted>"])),
  };
  return redactValue(
    {
      ...e,
      ...(config ? { config } : {}),
      ...(e.keys ? { keys } : {}),
      ...(remote ? { remote } : {}),
    },
    secrets,
  );
}

/** Reads `--schema` (or `flag`): inline JSON, or `@path` to a JSON file. */
export async function readSchemaFlag(value: string, flag = "--schema"): Promise<unknown> {
  let text = value;
  let where = flag;
  if (value.startsWith("@")) {
    where = `${flag} ${value}`;
    try {
      const { readFile } = await import("node:fs/promises");
      text = await readFile(value.slice(1), "utf8");
    } catch (err) {
      throw new UsageError(
        `${where}: cannot read the file (${
          (err as NodeJS.ErrnoException).code ?? (err as Error).message
        })`,
      );
    }
  }
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${where}: not valid JSON (${(err as Error).message})`);
  }
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    throw new UsageError(`${where}: a schema must be a JSON object`);
  }
  return schema;
}

/** Splits `--task ID=ASSIGNMENT`. */
export function parseTaskFlag(value: string): TaskItem {
  const eq = value.indexOf("=");
  if (eq <= 0) throw new UsageError(`--task: expected ID=ASSIGNMENT, got "${value}"`);
  return { id: value.slice(0, eq).trim(), assignment: value.slice(eq + 1) };
}

/**
 * Gives each task its `--writes` globs: without `--task`, every glob is the
 * one task's; with `--task`, each is `ID=GLOB` naming one of them.
 */
export function withWriteFlags(tasks: TaskItem[], flags: readonly string[], perTask: boolean) {
  if (flags.length === 0) return tasks;
  const lanes = new Map<string, string[]>();
  for (const f of flags) {
    let id = tasks[0].id;
    let glob = f;
    if (perTask) {
      const eq = f.indexOf("=");
      id = eq > 0 ? f.slice(0, eq).trim() : "";
      glob = f.slice(eq + 1);
      if (!tasks.some((t) => t.id === id)) {
        throw new UsageError(
          eq > 0
            ? `--writes: "${id}" names no task of this run (tasks: ${
              tasks.map((t) => t.id).join(", ")
            })`
            : `--writes: with --task, expected ID=GLOB, got "${f}"`,
        );
      }
    }
    lanes.set(id, [...lanes.get(id) ?? [], glob.trim()]);
  }
  return tasks.map((t) => lanes.has(t.id) ? { ...t, writes: lanes.get(t.id) } : t);
}

/** Reads `--max-turns`: a whole number of model calls, at least 1. */
function parseMaxTurns(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < 1) {
    throw new UsageError(`--max-turns: expected a whole number of model calls ≥ 1, got "${value}"`);
  }
  return n;
}

function parseTimeout(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) {
    throw new UsageError(`--timeout: expected a positive number of seconds, got "${value}"`);
  }
  return n;
}

function parseSandboxFlag(value: string | undefined): SandboxMode | undefined {
  if (value === undefined) return undefined;
  const mode = parseSandboxMode(value);
  if (!mode) throw new UsageError(`--sandbox: expected one of ${SANDBOX_CHOICES}, got "${value}"`);
  return mode;
}

/** Reads `--isolation`. */
function parseIsolation(value: string | undefined): Isolation | undefined {
  if (value === undefined) return undefined;
  if (value !== "worktree" && value !== "none") {
    throw new UsageError(`--isolation: expected worktree or none, got "${value}"`);
  }
  return value;
}

/**
 * How another front end prints a run in place of `run`'s own output
 * (`xcsh -p`, print.ts): told of the prepared tasks, each event and result,
 * and it decides the exit code.
 */
export interface RunPresenter {
  /** After the tasks are prepared, before they start; `abort` stops them. */
  begin(info: { config: XcshConfig; tasks: readonly PreparedTask[]; abort: () => void }): void;
  event(taskId: string, event: ChildEvent): void;
  result(result: TaskResult): void;
  /** The call was refused before any task started; the exit code. */
  refused(message: string, kind: string): number;
  /** Every task's outcome; the exit code. */
  end(results: TaskResult[]): number;
}

/** What another front end changes of a run (`xcsh -p`). */
export interface RunHooks {
  presenter: RunPresenter;
  /** The assignment, already read: stdin is not read again. */
  prompt: string;
  /** Changes the asked agent before it runs (tool lists, system prompt). */
  editAgent?: (agent: AgentDefinition) => AgentDefinition;
}

/** Runs `run`'s flags with another front end's output (`xcsh -p`). */
export async function runWith(args: string[], hooks: RunHooks): Promise<number> {
  return await runTasks(args, undefined, hooks);
}

/** Where the run's outcome goes besides the terminal (a background run's state). */
interface RunSink {
  /** The background run's id, recorded in its sessions. */
  run: string;
  sessions(agent: string, ids: string[]): void;
  done(agent: string, results: TaskResult[]): void;
}

/**
 * `xcsh run`. In a background run's detached process, the outcome (or the
 * usage error) is also recorded for `xcsh wait` and `xcsh tasks`.
 */
export async function runCommand(args: string[]): Promise<number> {
  const background = process.env[BACKGROUND_ENV];
  if (background === undefined) return await runTasks(args);
  // Nothing this run starts belongs to the background run itself.
  delete process.env[BACKGROUND_ENV];
  const data = dataDirectory(process.env, homeDirectory());
  recordRunProcess(data, background);
  if (isCancelRequested(data, background)) {
    // Cancelled before this process had recorded itself.
    recordRunExit(data, background, { code: EXIT_FAILURE });
    return EXIT_FAILURE;
  }
  let finished: { agent: string; results: TaskResult[] } | undefined;
  let code: number;
  try {
    code = await runTasks(args, {
      run: background,
      sessions: (agent, ids) => recordRunSessions(data, background, agent, ids),
      done: (agent, results) => (finished = { agent, results }),
    });
  } catch (err) {
    if (err instanceof UsageError) {
      writeErr(`xcsh: ${err.message}\n${err.hint ? err.hint + "\n" : ""}`);
      code = EXIT_USAGE;
    } else {
      writeErr(`xcsh: error: ${err instanceof Error ? err.message : String(err)}\n`);
      code = EXIT_FAILURE;
    }
  }
  recordRunExit(data, background, { code, ...(finished ?? {}) });
  return code;
}

/**
 * The resumed session's agent, task and folder, for `--resume ID`; refused
 * when that folder is outside the project the user runs this from (`--cwd`
 * or the current folder).
 */
function resumeTarget(
  id: string,
  cwdFlag: string | undefined,
): { agent: string; taskId: string; cwd: string } {
  if (!isValidId(id)) throw new UsageError(`--resume: '${id}' is not a session id`);
  const data = dataDirectory(process.env, homeDirectory());
  if (!data) throw new UsageError("--resume: there is no data folder (no home folder)");
  const read = readSession(sessionsDirectory(data), id);
  if (!read.ok) throw new UsageError(`--resume: ${read.message}`);
  const h = read.header;
  const place = sessionPlace(h, read.records);
  const here = discoveryEnv(cwdFlag);
  const outside = checkResumeScope(id, place, here.cwd, here.home);
  if (outside !== undefined) throw new UsageError(`--resume: ${outside}`);
  const cwd = existsSync(place.cwd) ? place.cwd : place.worktree?.repo ?? place.cwd;
  return { agent: h.agent, taskId: h.envelope.id, cwd };
}

/** The one task of a run given its assignment: a new one, or the resumed session's. */
function assignmentTask(
  assignment: string,
  agent: string,
  resume: { taskId: string } | undefined,
  session: string | undefined,
): TaskItem {
  return resume
    ? { id: resume.taskId, assignment, resume: session }
    : { id: `0-${agent}`, assignment };
}

async function runTasks(args: string[], sink?: RunSink, hooks?: RunHooks): Promise<number> {
  let spare: SpareChild | undefined;
  try {
    return await runCall(args, sink, hooks, (s) => (spare = s));
  } finally {
    // A spare no task took (a refusal, a usage error found later) ends with the call.
    spare?.release();
  }
}

async function runCall(
  args: string[],
  sink: RunSink | undefined,
  hooks: RunHooks | undefined,
  onSpare: (spare: SpareChild) => void,
): Promise<number> {
  const { values, positionals } = parseFlags("run", args, FLAGS);
  if (values.help) {
    writeOut(RUN_HELP);
    return EXIT_OK;
  }
  const resume = values.resume !== undefined ? resumeTarget(values.resume, values.cwd) : undefined;
  if (resume) {
    for (const flag of ["task", "schema", "context", "plan", "isolation"] as const) {
      if (values[flag] !== undefined) {
        throw new UsageError(
          `run: --resume continues with the session's own settings; --${flag} cannot be given with it`,
        );
      }
    }
  }
  const [agent, ...words] = resume ? [resume.agent, ...positionals] : positionals;
  if (!agent) {
    throw new UsageError("run: expected an AGENT name", "Run 'xcsh run --help' for usage.");
  }
  const taskFlags = values.task ?? [];
  if (taskFlags.length > 0 && words.length > 0) {
    throw new UsageError("run: give the assignment either as arguments or with --task, not both");
  }
  const format = outputFormat(values["output-format"], values.json);
  if (!format.ok) throw new UsageError(format.message);
  const json = format.value === "json";
  const maxTurns = parseMaxTurns(values["max-turns"]);
  const budgetFlags = readBudgetFlags(values);
  const timeout = parseTimeout(values.timeout);
  const sandbox = parseSandboxFlag(values.sandbox);
  const isolation = parseIsolation(values.isolation);
  const schema = values.schema !== undefined ? await readSchemaFlag(values.schema) : undefined;
  const accept = await readAcceptFlags(values.accept ?? []);
  const acceptRetries = readAcceptRetries(values["accept-retries"]);
  const env = discoveryEnv(values.cwd ?? resume?.cwd);

  const caller = readCallerState(process.env);
  if (!caller.ok) throw new UsageError(caller.message);
  const loaded = await loadConfig(env.cwd, env.home);
  reportDiagnostics(loaded.warnings);
  if (!loaded.ok) {
    writeErr(formatDiagnostic(loaded.error) + "\n");
    return EXIT_USAGE;
  }
  // The first child starts now: it loads while the task runner loads and the
  // call is planned, and the first task it may serve takes it.
  const dryRun = values["dry-run"] === true;
  const spareAt = spareSetting({
    config: loaded.config,
    depth: caller.state.depth,
    env: env.env,
    call: { isolation, launcher: values.launcher },
    dryRun,
  });
  const spare = spareAt ? startSpareChild(spareAt.env, env.cwd) : undefined;
  if (spare) onSpare(spare);
  const { TaskTool } = await import("../runner/task-runner.ts");

  let tasks: TaskItem[];
  if (taskFlags.length > 0) tasks = taskFlags.map(parseTaskFlag);
  else if (hooks) tasks = [assignmentTask(hooks.prompt, agent, resume, values.resume)];
  else {
    const stdin = readStdinCapped();
    if (!stdin.ok) throw new UsageError(`run: ${stdin.message}`);
    const assignment = withStdin(words, stdin.text);
    if (assignment.trim() === "") {
      throw new UsageError(
        resume
          ? "run --resume: no follow-up assignment: pass it as arguments or on stdin"
          : "run: no assignment: pass it as arguments, with --task ID=ASSIGNMENT, or on stdin",
        "Run 'xcsh run --help' for usage.",
      );
    }
    tasks = [assignmentTask(assignment, agent, resume, values.resume)];
  }
  tasks = withWriteFlags(tasks, values.writes ?? [], taskFlags.length > 0);
  const request: TaskRequest = {
    agent,
    tasks,
    ...(values.context !== undefined ? { context: values.context } : {}),
    ...(schema !== undefined ? { schema } : {}),
    ...(values.plan ? { planMode: true } : {}),
    ...(values.model !== undefined ? { model: values.model } : {}),
    ...(timeout !== undefined ? { timeout } : {}),
    ...(maxTurns !== undefined ? { maxTurns } : {}),
    ...(sandbox !== undefined ? { sandbox } : {}),
    ...(isolation !== undefined ? { isolation } : {}),
    ...(values.launcher !== undefined ? { launcher: values.launcher } : {}),
    ...(accept.length > 0 ? { accept } : {}),
    ...(acceptRetries !== undefined ? { acceptRetries } : {}),
  };

  let sessionAgents: AgentDefinition[] | undefined;
  if (values.agents !== undefined) {
    const parsed = parseSessionAgents(values.agents);
    if (!parsed.ok) throw new UsageError(parsed.error, "Run 'xcsh run --help' for usage.");
    reportDiagnostics(parsed.warnings);
    sessionAgents = parsed.agents;
  }
  // One budget for the whole run: every task and every task they start draws
  // from it. A flag sets its limit over config's (config files only lower theirs).
  const budgetSetting = { ...loaded.config.task.budget, ...budgetFlags };
  const budget = hasBudget(budgetSetting) && !values["dry-run"]
    ? await runBudgetFor(budgetSetting, loaded.config, {
      ...process.env,
    }, values["budget-unpriced-free"] === true)
    : undefined;
  const present = hooks?.presenter;
  const progress = values["dry-run"] || present ? undefined : new Progress();
  const controller = new AbortController();
  // A reader that went away (`| head -1`) ends the run: its children stop.
  const stream = format.value === "stream-json" && !values["dry-run"] && !present
    ? new StreamJson(() => controller.abort())
    : undefined;
  // Where the run stands, for the stream's run_progress records.
  const tally = new RunTally();
  // Under a budget, both say what it has counted so far, running tasks' calls included.
  if (budget) {
    tally.budgetFrom(() => budget.report());
    progress?.budgetFrom(() => budget.report());
  }
  const tool = new TaskTool({
    env,
    config: loaded.config,
    caller: caller.state,
    runId: runId(),
    onEvent: (id, e) => {
      tally.event(id, e);
      progress?.event(id, e);
      stream?.event(e);
      present?.event(id, e);
    },
    onResult: (r) => {
      tally.finish(r.id, r.costUSD);
      progress?.finish(r);
      stream?.result(r);
      present?.result(r);
    },
    onWarnings: reportDiagnostics,
    onDiscoveryWarnings: (w) => reportDiscoveryWarnings(w, isVerbose(values.verbose, process.env)),
    modelFlag: "--model",
    laneField: () => "--writes",
    acceptFlag: "--accept",
    ...(spare ? { spare } : {}),
    ...(sink ? { backgroundRun: sink.run } : {}),
    ...(sessionAgents ? { sessionAgents } : {}),
    ...(hooks?.editAgent ? { editAgent: hooks.editAgent } : {}),
    ...(budget ? { budget } : {}),
  });

  // A dry run makes no model call: it shows why no model resolved instead of refusing.
  const prepared = await tool.prepare(request, { withoutModel: dryRun, dryRun });
  if (!prepared.ok) {
    if (present) return present.refused(prepared.message, prepared.kind);
    // Under --json the refusal is a JSON document too, so a script always gets one.
    if (json) printJson({ version: 1, agent, error: prepared.message, kind: prepared.kind });
    stream?.runResult(agent, { error: prepared.message, kind: prepared.kind }, EXIT_USAGE);
    writeErr(`xcsh: ${prepared.message}\n`);
    return EXIT_USAGE;
  }
  // `background: true` in the agent's file: the run detaches as --background does.
  const detach = !dryRun && !sink && !hooks && !resume && values.json !== true &&
    prepared.tasks[0]?.envelope.agent.background === true;
  if (detach && (words.length > 0 || taskFlags.length > 0)) {
    tool.abandon(prepared.tasks);
    const data = dataDirectory(process.env, homeDirectory());
    if (data) {
      const { launchBackground } = await import("../sessions/background.ts");
      const id = await launchBackground({
        data,
        args,
        agent,
        cwd: process.cwd(),
        folder: env.cwd,
        env: process.env,
      });
      writeErr(
        `xcsh: ${agent} runs in the background ('background: true' in its file); ` +
          `'xcsh wait ${id}' prints its result\n`,
      );
      writeOut(id + "\n");
      return EXIT_OK;
    }
  } else if (detach) {
    writeErr(
      `xcsh: ${agent} has 'background: true', but its assignment came on stdin, which a ` +
        "background run cannot read: it runs here\n",
    );
  }
  if (values["dry-run"]) {
    const self = selfCommand();
    const keys = Object.entries(process.env)
      .filter(([k, v]) => v !== undefined && isSecretVariable(k, v)).map(([k]) => k).sort();
    // Every task of a call gets the same instruction files.
    const context = prepared.tasks[0]?.envelope.promptContext;
    // What each task's thinking level becomes on its model (capabilities.ts).
    const thinking = prepared.tasks.map((t) =>
      t.envelope.model
        ? thinkingShown(
          t.envelope.model,
          t.envelope.modelSettings?.thinkingLevel,
          loaded.config,
          process.env,
        )
        : undefined
    );
    // The write lanes, and which task waits for which (plan/write-lanes.ts).
    const waits = laneWaits(
      prepared.tasks.map((t) => t.envelope.writes),
      prepared.tasks.map((t) => t.isolate !== undefined),
    );
    const waitsFor = waits.map((w) => w.map((j) => prepared.tasks[j].envelope.id));
    prepared.tasks.forEach((t, i) => {
      const lane = t.envelope.writes
        ? `writes ${t.envelope.writes.join(", ")}`
        : "writes anywhere in its workspace (no lane)";
      const order = waitsFor[i].length > 0
        ? `; runs after ${waitsFor[i].join(", ")} (overlapping lanes)`
        : "";
      writeErr(`xcsh: dry run: [${t.envelope.id}] ${lane}${order}\n`);
    });
    prepared.tasks.forEach((t, i) => {
      const what = t.envelope.model
        ? `would run on ${t.envelope.model}${
          t.envelope.modelNote ? ` (${t.envelope.modelNote})` : ""
        }`
        : `no model: ${t.modelError}`;
      writeErr(`xcsh: dry run: [${t.envelope.id}] ${what}\n`);
      if (thinking[i]) writeErr(`xcsh: dry run: [${t.envelope.id}] thinking: ${thinking[i]}\n`);
      const plan = t.accept;
      if (plan) {
        const names = [
          ...plan.checks.map((c) => `'${c.name}'`),
          ...plan.skipped.map((c) => `'${c.name}' (skipped: not trusted)`),
        ];
        writeErr(
          `xcsh: dry run: [${t.envelope.id}] acceptance checks: ${names.join(", ")}; ` +
            `${plan.retries} round${plan.retries === 1 ? "" : "s"} back on failure\n`,
        );
      }
    });
    printJson({
      version: 1,
      command: [self.command, ...self.args, "__child"],
      inheritedSecrets: Object.fromEntries(keys.map((k) => [k, "<redacted>"])),
      contextFiles: (context?.files ?? []).map((f) => ({
        path: f.path,
        scope: f.scope,
        bytes: Buffer.byteLength(f.text, "utf8"),
      })),
      tasks: prepared.tasks.map((t, i) => ({
        model: t.envelope.model,
        ...(t.envelope.modelNote ? { modelNote: t.envelope.modelNote } : {}),
        ...(thinking[i] ? { thinking: thinking[i] } : {}),
        ...(t.modelError ? { modelError: t.modelError } : {}),
        env: t.childEnv,
        timeoutMs: t.timeoutMs,
        ...(t.envelope.writes ? { writes: t.envelope.writes } : {}),
        waitsFor: waitsFor[i],
        ...(t.launch
          ? {
            launcher: launcherShown(t.launch, t.envelope, t.childEnv),
          }
          : {}),
        envelope: shownEnvelope(t.envelope, tool.secrets),
      })),
    });
    return EXIT_OK;
  }
  if (budget) {
    // A dollar budget cannot count a model without a price: said before any call.
    const unpriced = budget.unpriced(prepared.tasks.map((t) => t.envelope.model));
    if (unpriced) {
      tool.abandon(prepared.tasks);
      if (present) return present.refused(unpriced, "usage");
      if (json) printJson({ version: 1, agent, error: unpriced, kind: "usage" });
      stream?.runResult(agent, { error: unpriced, kind: "usage" }, EXIT_USAGE);
      writeErr(`xcsh: ${unpriced}\n`);
      return EXIT_USAGE;
    }
  }
  sink?.sessions(agent, prepared.tasks.flatMap((t) => t.session ? [t.session.id] : []));

  const onSignal = () => controller.abort();
  const signals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
  for (const s of signals) process.on(s, onSignal);
  for (const t of tasks) progress?.add(t.id, agent);
  stream?.runStart(
    agent,
    prepared.tasks.map((t) => ({
      id: t.envelope.id,
      ...(t.session ? { session: t.session.id } : {}),
    })),
  );
  present?.begin({
    config: loaded.config,
    tasks: prepared.tasks,
    abort: () => controller.abort(),
  });
  for (const t of tasks) tally.add(t.id);
  const ticker = stream ? setInterval(() => stream.runProgress(tally.snapshot()), 1000) : undefined;
  ticker?.unref?.();
  let results: TaskResult[];
  try {
    results = await tool.start(prepared.tasks, controller.signal);
  } finally {
    for (const s of signals) process.off(s, onSignal);
    if (ticker) clearInterval(ticker);
  }
  stream?.runProgress(tally.snapshot());
  progress?.stop();
  sink?.done(agent, results);
  if (present) return present.end(results);
  const report = budget?.report();
  const code = printResults(agent, results, format.value, report);
  stream?.runResult(agent, { results, ...(report ? { budget: report } : {}) }, code);
  return code;
}
