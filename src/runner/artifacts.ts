/**
 * Where the whole of a long result is kept: an MCP answer's cut result
 * (`saveArtifact`), and the folder a child keeps its long tool results in
 * (`taskArtifactsFolder`).
 *
 * Decides the folder — `~/.xcsh/agent/artifacts/<run>/`, or, when home is
 * not writable, a fresh private folder made for this run in the system temp
 * folder (`mkdtemp`, never a fixed name another user could create first) —
 * the file name (the task id, made safe, plus a short hash of the id when
 * it had to change, so `a/b` and `a_b` never share a file), and that only
 * the user can read them (`fs/private-files.ts`: folders 0700 and checked
 * to be the user's own, files 0600 created exclusively, so an existing file
 * or symlink is never written through).
 *
 * @module
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { sha256Hex } from "../runtime.ts";
import { privateFolder, writeNew } from "../fs/private-files.ts";

/** A run id that sorts by time and is unique per process. */
export function runId(now = new Date()): string {
  return `${now.toISOString().replace(/[:.]/g, "-")}-${process.pid}`;
}

/**
 * The file name stem for task `id`: the id itself when it is safe, else the
 * safe form plus 8 hex digits of the id's hash. Distinct ids give distinct
 * stems. Pure.
 */
export function artifactStem(id: string): string {
  const safe = id.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 100) || "task";
  if (safe === id && !id.startsWith(".")) return safe;
  return `${safe}-${sha256Hex(id).slice(0, 8)}`;
}

/**
 * The folder a child keeps the full text of its long tool results in:
 * `<run folder>/<task stem>.d` under home (none without a home). Only the
 * parent names it, from its own run id and the task id made safe, so no
 * repository content steers it; the child makes it (0700) on first need and
 * may read only this folder besides its roots. Pure.
 */
export function taskArtifactsFolder(home: string, run: string, id: string): string | undefined {
  return home
    ? join(home, ".xcsh", "agent", "artifacts", artifactStem(run), `${artifactStem(id)}.d`)
    : undefined;
}

/** Temp folders made by this process, by run. */
const tempFolders = new Map<string, Promise<string>>();

/** The run's folder under home, created 0700 and checked. */
function homeFolder(home: string, run: string): Promise<string> {
  return privateFolder(join(home, ".xcsh", "agent", "artifacts", run));
}

/** The run's fresh temp folder (one per run and process). */
function tempFolder(run: string): Promise<string> {
  let dir = tempFolders.get(run);
  if (!dir) {
    // Loaded here: the parent imports this module on every start, and rarely saves.
    dir = import("node:fs/promises").then(({ mkdtemp }) =>
      mkdtemp(join(tmpdir(), "xcsh-artifacts-"))
    );
    tempFolders.set(run, dir);
    dir.catch(() => tempFolders.delete(run));
  }
  return dir;
}

/** Saves `text` as the full output of task `id`; returns the file path. */
export async function saveArtifact(
  home: string,
  run: string,
  id: string,
  text: string,
): Promise<string> {
  const stem = artifactStem(id);
  let lastError: unknown;
  for (const folder of [home ? () => homeFolder(home, run) : undefined, () => tempFolder(run)]) {
    if (!folder) continue;
    try {
      // Task output may hold anything the agent read: for the user's eyes only.
      return await writeNew(await folder(), stem, text);
    } catch (err) {
      lastError = err;
    }
  }
  throw lastError;
}
