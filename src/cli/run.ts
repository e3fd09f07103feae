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
import { readFile } from "node:fs/promises";
import process from "node:process";
import { writeErr, writeOut } from "../stdio.ts";
import { parseFlags } from "./args.ts";
import { discoveryEnv } from "./context.ts";
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError } from "./errors.ts";
import { isVerbose, printJson, reportDiagnostics, reportDiscoveryWarnings } from "./output.ts";
import { formatDiagnostic } from "../labels.ts";
import { Progress } from "./progress.ts";
import { loadConfig } from "../config/load.ts";
import { runId } from "../runner/artifacts.ts";
import { readCallerState } from "../runner/guards.ts";
import { TaskTool } from "../runner/task-runner.ts";
import { selfCommand } from "../runtime.ts";
import type { SandboxMode, TaskEnvelope, TaskItem, TaskRequest, TaskResult } from "../types.ts";
import { hideUrlCredentials } from "../redact.ts";
import { parseSandboxMode, SANDBOX_CHOICES } from "../sandbox/mode.ts";

export const RUN_HELP = `Usage:
  xcsh run AGENT [ASSIGNMENT...]          run one task (assignment from args, or stdin)
  xcsh run AGENT --task ID=ASSIGNMENT...  run several tasks in parallel

Flags:
  --task ID=ASSIGNMENT   one task (repeat for several; ids unique, ignoring case)
  --context TEXT         shared background given to every task
  --schema JSON|@FILE    output schema (JSON Schema or JTD) when the agent has none
  --plan                 plan mode: read-only tools, no delegation
  --model PROVIDER/MODEL model for this run (overrides config and agent)
  --sandbox MODE         bash sandbox: workspace-write (default where bubblewrap
                         works), read-only or off (overrides agent and config)
  --timeout SECONDS      per-task time limit (default: agent, then config, then 600)
  --cwd DIR              run as if started in DIR
  --json                 print one JSON document with every task's outcome
  --dry-run              resolve, guard and print the child envelopes, their models and the
                         instruction files they would hold; no model call
  --verbose              print every warning about agent files (default: one summary line)

Exit codes: 0 every task succeeded, 1 a task failed or was cancelled, 2 usage or guard error.
`;

const FLAGS = {
  task: { type: "string", multiple: true },
  context: { type: "string" },
  schema: { type: "string" },
  plan: { type: "boolean" },
  model: { type: "string" },
  sandbox: { type: "string" },
  timeout: { type: "string" },
  cwd: { type: "string" },
  json: { type: "boolean" },
  "dry-run": { type: "boolean" },
  verbose: { type: "boolean", short: "v" },
  help: { type: "boolean", short: "h" },
} as const;

const SECRET = /KEY|TOKEN|SECRET|PASSWORD/i;

/** An envelope as `--dry-run` prints it: key values and URL credentials hidden. */
function shownEnvelope(e: TaskEnvelope): TaskEnvelope {
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
  return { ...e, ...(config ? { config } : {}), ...(e.keys ? { keys } : {}) };
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return "";
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Reads `--schema`: inline JSON, or `@path` to a JSON file. */
export async function readSchemaFlag(value: string): Promise<unknown> {
  let text = value;
  let where = "--schema";
  if (value.startsWith("@")) {
    where = `--schema ${value}`;
    try {
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

/** What a successful task prints: its data (a string as itself, anything else as JSON), or its text. */
export function resultBody(r: TaskResult): string {
  if (r.status === "ok") {
    if (typeof r.data === "string") return r.data;
    if (r.data !== undefined) return JSON.stringify(r.data, null, 2);
    return r.text ?? "";
  }
  return "";
}

/** How a task that did not succeed is reported, once: `task ID failed: WHY` or `task ID was cancelled`. */
export function failureLine(r: TaskResult): string {
  if (r.status === "cancelled") {
    const why = r.error && r.error !== "cancelled" ? `: ${r.error}` : "";
    return `task ${r.id} was cancelled${why}`;
  }
  return `task ${r.id} failed: ${r.error ?? "unknown error"}`;
}

export async function runCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("run", args, FLAGS);
  if (values.help) {
    writeOut(RUN_HELP);
    return EXIT_OK;
  }
  const [agent, ...words] = positionals;
  if (!agent) {
    throw new UsageError("run: expected an AGENT name", "Run 'xcsh run --help' for usage.");
  }
  const taskFlags = values.task ?? [];
  if (taskFlags.length > 0 && words.length > 0) {
    throw new UsageError("run: give the assignment either as arguments or with --task, not both");
  }
  const timeout = parseTimeout(values.timeout);
  const sandbox = parseSandboxFlag(values.sandbox);
  const schema = values.schema !== undefined ? await readSchemaFlag(values.schema) : undefined;
  const env = discoveryEnv(values.cwd);

  const caller = readCallerState(process.env);
  if (!caller.ok) throw new UsageError(caller.message);
  const loaded = await loadConfig(env.cwd, env.home);
  reportDiagnostics(loaded.warnings);
  if (!loaded.ok) {
    writeErr(formatDiagnostic(loaded.error) + "\n");
    return EXIT_USAGE;
  }

  let tasks: TaskItem[];
  if (taskFlags.length > 0) tasks = taskFlags.map(parseTaskFlag);
  else {
    const assignment = words.length > 0 ? words.join(" ") : await readStdin();
    if (assignment.trim() === "") {
      throw new UsageError(
        "run: no assignment: pass it as arguments, with --task ID=ASSIGNMENT, or on stdin",
        "Run 'xcsh run --help' for usage.",
      );
    }
    tasks = [{ id: `0-${agent}`, assignment }];
  }
  const request: TaskRequest = {
    agent,
    tasks,
    ...(values.context !== undefined ? { context: values.context } : {}),
    ...(schema !== undefined ? { schema } : {}),
    ...(values.plan ? { planMode: true } : {}),
    ...(values.model !== undefined ? { model: values.model } : {}),
    ...(timeout !== undefined ? { timeout } : {}),
    ...(sandbox !== undefined ? { sandbox } : {}),
  };

  const progress = values["dry-run"] ? undefined : new Progress();
  const tool = new TaskTool({
    env,
    config: loaded.config,
    caller: caller.state,
    runId: runId(),
    onEvent: (id, e) => progress?.event(id, e),
    onResult: (r) => progress?.finish(r),
    onWarnings: reportDiagnostics,
    onDiscoveryWarnings: (w) => reportDiscoveryWarnings(w, isVerbose(values.verbose, process.env)),
    modelFlag: "--model",
  });

  // A dry run makes no model call: it shows why no model resolved instead of refusing.
  const prepared = await tool.prepare(request, { withoutModel: values["dry-run"] === true });
  if (!prepared.ok) {
    // Under --json the refusal is a JSON document too, so a script always gets one.
    if (values.json) printJson({ version: 1, agent, error: prepared.message, kind: prepared.kind });
    writeErr(`xcsh: ${prepared.message}\n`);
    return EXIT_USAGE;
  }
  if (values["dry-run"]) {
    const self = selfCommand();
    const keys = Object.keys(process.env).filter((k) => SECRET.test(k)).sort();
    // Every task of a call gets the same instruction files.
    const context = prepared.tasks[0]?.envelope.promptContext;
    for (const t of prepared.tasks) {
      const what = t.envelope.model
        ? `would run on ${t.envelope.model}${
          t.envelope.modelNote ? ` (${t.envelope.modelNote})` : ""
        }`
        : `no model: ${t.modelError}`;
      writeErr(`xcsh: dry run: [${t.envelope.id}] ${what}\n`);
    }
    printJson({
      version: 1,
      command: [self.command, ...self.args, "__child"],
      inheritedSecrets: Object.fromEntries(keys.map((k) => [k, "<redacted>"])),
      contextFiles: (context?.files ?? []).map((f) => ({
        path: f.path,
        scope: f.scope,
        bytes: Buffer.byteLength(f.text, "utf8"),
      })),
      tasks: prepared.tasks.map((t) => ({
        model: t.envelope.model,
        ...(t.envelope.modelNote ? { modelNote: t.envelope.modelNote } : {}),
        ...(t.modelError ? { modelError: t.modelError } : {}),
        env: t.childEnv,
        timeoutMs: t.timeoutMs,
        envelope: shownEnvelope(t.envelope),
      })),
    });
    return EXIT_OK;
  }

  const controller = new AbortController();
  const onSignal = () => controller.abort();
  const signals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
  for (const s of signals) process.on(s, onSignal);
  for (const t of tasks) progress?.add(t.id, agent);
  let results: TaskResult[];
  try {
    results = await tool.start(prepared.tasks, controller.signal);
  } finally {
    for (const s of signals) process.off(s, onSignal);
  }
  progress?.stop();

  if (values.json) {
    printJson({ version: 1, agent, results });
  } else if (results.length === 1) {
    const [r] = results;
    const body = resultBody(r);
    if (body) writeOut(body.endsWith("\n") ? body : body + "\n");
    if (r.status !== "ok") writeErr(`xcsh: ${failureLine(r)}\n`);
  } else {
    for (const r of results) {
      writeOut(`== ${r.id} (${r.agent}): ${r.status}\n`);
      const body = r.status === "ok"
        ? resultBody(r)
        : r.status === "cancelled" && (r.error ?? "cancelled") === "cancelled"
        ? "cancelled"
        : `error: ${r.error ?? "unknown error"}`;
      writeOut(body.endsWith("\n") ? body : body + "\n");
    }
  }
  for (const r of results) {
    if (r.artifact) {
      writeErr(`xcsh: task ${r.id}: output was cut; full text in ${r.artifact}\n`);
    }
  }
  return results.every((r) => r.status === "ok") ? EXIT_OK : EXIT_FAILURE;
}
