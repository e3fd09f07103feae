/**
 * Where full task outputs are kept when a summary had to be cut.
 *
 * Decides the folder — `~/.xcsh/agent/artifacts/<run>/`, or, when home is
 * not writable, a fresh private folder made for this run in the system temp
 * folder (`mkdtemp`, never a fixed name another user could create first) —
 * the file name (the task id, made safe, plus a short hash of the id when
 * it had to change, so `a/b` and `a_b` never share a file), and that only
 * the user can read them: folders 0700 and checked to be the user's own,
 * files 0600 created exclusively, so an existing file or symlink is never
 * written through.
 *
 * @module
 */
import { lstat, mkdir, mkdtemp, open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { sha256Hex } from "../runtime.ts";

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

/** Temp folders made by this process, by run. */
const tempFolders = new Map<string, Promise<string>>();

/** Refuses a folder that is a link, someone else's, or open to others. */
async function checkPrivate(dir: string): Promise<void> {
  const info = await lstat(dir);
  const uid = typeof process.getuid === "function" ? process.getuid() : undefined;
  if (!info.isDirectory()) throw new Error(`${dir} is not a folder`);
  if (uid !== undefined && info.uid !== uid) throw new Error(`${dir} belongs to another user`);
  if ((info.mode & 0o077) !== 0) throw new Error(`${dir} is open to other users`);
}

/** Creates `dir/stem.txt` (or `stem-2.txt`, …) exclusively and writes `text`. */
async function writeNew(dir: string, stem: string, text: string): Promise<string> {
  for (let n = 1;; n++) {
    const file = join(dir, `${n === 1 ? stem : `${stem}-${n}`}.txt`);
    let handle;
    try {
      handle = await open(file, "wx", 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EEXIST" && n < 1000) continue;
      throw err;
    }
    try {
      await handle.writeFile(text);
    } finally {
      await handle.close();
    }
    return file;
  }
}

/** The run's folder under home, created 0700 and checked. */
async function homeFolder(home: string, run: string): Promise<string> {
  const dir = join(home, ".xcsh", "agent", "artifacts", run);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await checkPrivate(dir);
  return dir;
}

/** The run's fresh temp folder (one per run and process). */
function tempFolder(run: string): Promise<string> {
  let dir = tempFolders.get(run);
  if (!dir) {
    dir = mkdtemp(join(tmpdir(), "xcsh-artifacts-"));
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
