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

/** Removes expired session files (and their stale locks) from `dir`; returns how many. */
export function pruneSessions(dir: string, days: number, nowMs = Date.now()): number {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!name.endsWith(".jsonl")) continue;
    const file = join(dir, name);
    const lock = join(dir, name.replace(/\.jsonl$/, ".lock"));
    try {
      if (!isExpired(statSync(file).mtimeMs, nowMs, days)) continue;
      if (lockHolder(lock) !== undefined) continue;
      rmSync(file, { force: true });
      rmSync(lock, { force: true });
      removed++;
    } catch {
      // gone meanwhile, or not ours to remove
    }
  }
  return removed;
}

/** Removes expired run folders from `dir` (their `run.json` is the age). */
export function pruneRuns(dir: string, days: number, nowMs = Date.now()): number {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const folder = join(dir, name);
    try {
      const stamp = statSync(join(folder, "run.json")).mtimeMs;
      const end = statSync(join(folder, "exit.json"), { throwIfNoEntry: false })?.mtimeMs;
      if (end === undefined || !isExpired(Math.max(stamp, end), nowMs, days)) continue;
      rmSync(folder, { recursive: true, force: true });
      removed++;
    } catch {
      // not a run folder, or gone meanwhile
    }
  }
  return removed;
}
