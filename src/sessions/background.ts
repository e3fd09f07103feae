/**
 * Background runs: `xcsh run --background` starts `xcsh run` detached and
 * returns at once; the run's state lives in `<data>/runs/<id>/`.
 *
 * Files of a run: `run.json` (written at launch, before the process starts:
 * agent, arguments with the environment's secrets hidden, folder, start
 * time), `process.json` (written by the
 * detached process as it starts: its pid and start mark; the launcher does
 * no work after the spawn, so that it returns at once), `stdout`/`stderr`
 * (the detached process's output), `sessions.json` (its agent and the
 * sessions of its tasks, once known), `exit.json` (written when it ends: exit code and
 * results) and `cancel` (asked to stop). Decides a run's status from them:
 * `exit.json` means ended (ok, failed, or cancelled when asked to stop); no
 * `exit.json` and a live process with the recorded start mark means
 * running, as does a run launched less than {@link START_GRACE_MS} ago whose
 * process has not recorded itself yet; anything else died. A run never reads
 * as running once its process is gone.
 *
 * @module
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { isValidId, newId } from "./ids.ts";
import { isProcessAlive, processStartMark } from "./liveness.ts";
import { runsDirectory } from "./paths.ts";
import { selfCommand, spawnDetached } from "../runtime.ts";
import type { TaskResult } from "../types.ts";
import { BACKGROUND_RUN } from "../protocol/variables.ts";
import { redactValue } from "../text/redact.ts";
import { secretsOf } from "../text/secrets.ts";

/** Set in the detached process: the id of the run it is. */
export const BACKGROUND_ENV = BACKGROUND_RUN;

/** How long a launched run may take to record its process. */
export const START_GRACE_MS = 30_000;

export interface RunRecord {
  version: 1;
  id: string;
  /** From `process.json`; 0 until the process has recorded itself. */
  pid: number;
  /** The process's start mark (see liveness), to tell a reused pid. */
  mark: string;
  agent: string;
  args: string[];
  cwd: string;
  started: string;
}

export interface RunExit {
  code: number;
  agent?: string;
  results?: TaskResult[];
  ended: string;
}

export type RunStatus = "running" | "ok" | "failed" | "cancelled" | "died";

export interface RunState {
  record: RunRecord;
  status: RunStatus;
  exit?: RunExit;
  sessions: string[];
  /** Milliseconds from start to end (or to now while running). */
  durationMs: number;
}

function runDir(data: string, id: string): string {
  return join(runsDirectory(data), id);
}

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as T;
  } catch {
    return undefined;
  }
}

/** Starts `xcsh run ARGS` detached; returns the run id. Throws when it cannot. */
export async function launchBackground(o: {
  data: string;
  args: string[];
  agent: string;
  /** Where the process starts (relative flags are read from here). */
  cwd: string;
  /** The folder the run works in, for display. */
  folder: string;
  env: Record<string, string | undefined>;
}): Promise<string> {
  const id = newId();
  const dir = runDir(o.data, id);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const env = { ...o.env, [BACKGROUND_ENV]: id };
  const record: Omit<RunRecord, "pid" | "mark"> = {
    version: 1,
    id,
    agent: o.agent,
    // The config is not read yet: the secrets its key names add are hidden
    // from everything the run itself writes.
    args: redactValue(o.args, secretsOf(o.env)),
    cwd: o.folder,
    started: new Date().toISOString(),
  };
  writeFileSync(join(dir, "run.json"), JSON.stringify(record) + "\n", { mode: 0o600 });
  const self = selfCommand();
  try {
    await spawnDetached({
      command: self.command,
      args: [...self.args, "run", ...o.args],
      cwd: o.cwd,
      env,
      stdoutFile: join(dir, "stdout"),
      stderrFile: join(dir, "stderr"),
    });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return id;
}

/** Called by the detached process first: records its pid and start mark. */
export function recordRunProcess(data: string, id: string): void {
  try {
    const body = { pid: process.pid, mark: processStartMark(process.pid) };
    writeFileSync(join(runDir(data, id), "process.json"), JSON.stringify(body) + "\n", {
      mode: 0o600,
    });
  } catch {
    // the run goes on; it will read as died once the start grace is over
  }
}

/** Records the agent and sessions of a background run's tasks (best effort). */
export function recordRunSessions(
  data: string,
  id: string,
  agent: string,
  sessions: string[],
): void {
  try {
    writeFileSync(
      join(runDir(data, id), "sessions.json"),
      JSON.stringify({ agent, sessions }) + "\n",
      {
        mode: 0o600,
      },
    );
  } catch {
    // the run goes on; `logs` then finds nothing to follow
  }
}

/** Records how a background run ended (best effort). */
export function recordRunExit(data: string, id: string, exit: Omit<RunExit, "ended">): void {
  try {
    writeFileSync(
      join(runDir(data, id), "exit.json"),
      JSON.stringify({ ...exit, ended: new Date().toISOString() }) + "\n",
      { mode: 0o600 },
    );
  } catch {
    // nothing more to do: the run then reads as died
  }
}

/** Marks a run as asked to stop. */
export function markCancelled(data: string, id: string): void {
  writeFileSync(join(runDir(data, id), "cancel"), new Date().toISOString() + "\n", { mode: 0o600 });
}

/** True when run `id` was asked to stop. */
export function isCancelRequested(data: string, id: string): boolean {
  return statSync(join(runDir(data, id), "cancel"), { throwIfNoEntry: false }) !== undefined;
}

/** The state of run `id`, or undefined when there is no such run. */
export function readRun(data: string, id: string): RunState | undefined {
  if (!data || !isValidId(id)) return undefined;
  const dir = runDir(data, id);
  const launched = readJson<RunRecord>(join(dir, "run.json"));
  if (!launched || typeof launched.started !== "string") return undefined;
  const proc = readJson<{ pid: number; mark: string }>(join(dir, "process.json"));
  const record: RunRecord = {
    ...launched,
    pid: typeof proc?.pid === "number" ? proc.pid : 0,
    mark: typeof proc?.mark === "string" ? proc.mark : "",
  };
  const exit = readJson<RunExit>(join(dir, "exit.json"));
  const cancelled = statSync(join(dir, "cancel"), { throwIfNoEntry: false }) !== undefined;
  const known = readJson<{ agent?: unknown; sessions?: unknown }>(join(dir, "sessions.json"));
  const sessions = Array.isArray(known?.sessions) ? known.sessions : [];
  // A resumed run learns its agent from the session.
  if (typeof known?.agent === "string") record.agent = known.agent;
  let status: RunStatus;
  if (exit) status = cancelled && exit.code !== 0 ? "cancelled" : exit.code === 0 ? "ok" : "failed";
  else if (record.pid === 0) {
    const young = Date.now() - Date.parse(record.started) < START_GRACE_MS;
    status = young ? "running" : "died";
  } else if (isProcessAlive(record.pid, record.mark)) status = "running";
  else status = cancelled ? "cancelled" : "died";
  const start = Date.parse(record.started);
  const end = exit ? Date.parse(exit.ended) : status === "running" ? Date.now() : undefined;
  return {
    record,
    status,
    ...(exit ? { exit } : {}),
    sessions: Array.isArray(sessions) ? sessions.filter((s) => typeof s === "string") : [],
    durationMs: end !== undefined && Number.isFinite(start) ? Math.max(0, end - start) : 0,
  };
}

/** Every run under the data folder, oldest first. */
export function listRuns(data: string): RunState[] {
  let names: string[];
  try {
    names = readdirSync(runsDirectory(data));
  } catch {
    return [];
  }
  return names.sort().map((n) => readRun(data, n)).filter((r): r is RunState => r !== undefined);
}

/** The files of run `id`'s output. */
export function runOutputFiles(data: string, id: string): { stdout: string; stderr: string } {
  const dir = runDir(data, id);
  return { stdout: join(dir, "stdout"), stderr: join(dir, "stderr") };
}
