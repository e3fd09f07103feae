/**
 * One writer per session: a lock file next to it, created exclusively, that
 * names the process holding it. A lock whose process is gone (or whose pid
 * now belongs to another process) is stale and is taken over.
 *
 * @example
 * ```ts
 * const held = acquireLock("/data/sessions/X.lock");
 * if (!held.ok) console.error(held.message);
 * else held.release();
 * ```
 *
 * @module
 */
import { readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import process from "node:process";
import { isProcessAlive, processStartMark } from "./liveness.ts";

export type Lock =
  | { ok: true; release: () => void }
  | { ok: false; pid: number; message: string };

interface LockBody {
  pid: number;
  mark: string;
}

function readLock(file: string): LockBody | undefined {
  try {
    const body = JSON.parse(readFileSync(file, "utf8"));
    return typeof body?.pid === "number"
      ? { pid: body.pid, mark: String(body.mark ?? "") }
      : undefined;
  } catch {
    return undefined;
  }
}

/** The live holder of the lock at `file`, if there is one. */
export function lockHolder(file: string): number | undefined {
  const body = readLock(file);
  return body && isProcessAlive(body.pid, body.mark) ? body.pid : undefined;
}

/** What this process writes in a lock it takes (its start mark does not change). */
let ownBody: string | undefined;

/** Takes the lock at `file` for this process. */
export function acquireLock(file: string, what = "this session"): Lock {
  const body = ownBody ??= JSON.stringify({
    pid: process.pid,
    mark: processStartMark(process.pid),
  });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(file, body, { flag: "wx", mode: 0o600 });
      let released = false;
      return {
        ok: true,
        release: () => {
          if (released) return;
          released = true;
          try {
            unlinkSync(file);
          } catch {
            // Gone already, or not removable: a lock left behind names a
            // process that has ended, and the next taker takes it over.
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    const holder = readLock(file);
    if (holder && isProcessAlive(holder.pid, holder.mark)) {
      return {
        ok: false,
        pid: holder.pid,
        message: `${what} is in use by process ${holder.pid}`,
      };
    }
    // Stale (or half-written by a process that died): take it over.
    rmSync(file, { force: true });
  }
  return { ok: false, pid: 0, message: `${what} is locked (${file})` };
}
