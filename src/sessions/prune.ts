/**
 * Old sessions and background runs are deleted: anything in the sessions or
 * runs folder last changed more than the retention period ago
 * (`task.sessionRetentionDays`, 30 by default). Locked sessions and live runs
 * are left alone. Best effort: a file that cannot be removed stays.
 *
 * @module
 */
import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { lockHolder } from "./lock.ts";

const DAY_MS = 86_400_000;

/** True when something last changed at `mtimeMs` is past keeping. Pure. */
export function isExpired(mtimeMs: number, nowMs: number, days: number): boolean {
  return nowMs - mtimeMs > days * DAY_MS;
}

/**
 * Calls `removeIfExpired` for each entry of `dir` and counts the entries it
 * removed; an entry that fails (gone meanwhile, not ours to remove) is left.
 */
function sweep(dir: string, removeIfExpired: (name: string) => boolean): number {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    try {
      if (removeIfExpired(name)) removed++;
    } catch {
      // gone meanwhile, not ours to remove, or not one of ours at all
    }
  }
  return removed;
}

/** Removes expired session files (and their stale locks) from `dir`; returns how many. */
export function pruneSessions(dir: string, days: number, nowMs = Date.now()): number {
  return sweep(dir, (name) => {
    if (!name.endsWith(".jsonl")) return false;
    const file = join(dir, name);
    const lock = join(dir, name.replace(/\.jsonl$/, ".lock"));
    if (!isExpired(statSync(file).mtimeMs, nowMs, days)) return false;
    if (lockHolder(lock) !== undefined) return false;
    rmSync(file, { force: true });
    rmSync(lock, { force: true });
    return true;
  });
}

/** Removes expired run folders from `dir` (their `run.json` is the age). */
export function pruneRuns(dir: string, days: number, nowMs = Date.now()): number {
  return sweep(dir, (name) => {
    const folder = join(dir, name);
    const stamp = statSync(join(folder, "run.json")).mtimeMs;
    const end = statSync(join(folder, "exit.json"), { throwIfNoEntry: false })?.mtimeMs;
    if (end === undefined || !isExpired(Math.max(stamp, end), nowMs, days)) return false;
    rmSync(folder, { recursive: true, force: true });
    return true;
  });
}
