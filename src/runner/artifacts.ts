/**
 * Where full task outputs are kept when a summary had to be cut.
 *
 * Decides the folder — `~/.xcsh/agent/artifacts/<run>/`, or the system temp
 * folder when home is not writable — the file name `<task id>.txt`, and that
 * only the user can read them (folders 0700, files 0600).
 *
 * @module
 */
import { mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";

/** A run id that sorts by time and is unique per process. */
export function runId(now = new Date()): string {
  return `${now.toISOString().replace(/[:.]/g, "-")}-${process.pid}`;
}

function safeName(id: string): string {
  return id.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 100) || "task";
}

/** Saves `text` as the full output of task `id`; returns the file path. */
export async function saveArtifact(
  home: string,
  run: string,
  id: string,
  text: string,
): Promise<string> {
  const bases = [
    home ? join(home, ".xcsh", "agent", "artifacts") : "",
    join(tmpdir(), "xcsh-artifacts"),
  ]
    .filter((b) => b !== "");
  let lastError: unknown;
  for (const base of bases) {
    const dir = join(base, run);
    try {
      // Task output may hold anything the agent read: for the user's eyes only.
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const file = join(dir, `${safeName(id)}.txt`);
      await writeFile(file, text, { mode: 0o600 });
      return file;
    } catch (err) {
      lastError = err;
    }
  }
  throw lastError;
}
