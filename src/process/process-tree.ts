/**
 * Ends a process and everything it started, leaving no orphans.
 *
 * Children run in their own process groups, and tools inside them start
 * groups of their own, so signalling one group is not enough. The whole tree
 * is collected first (from `/proc` on Linux, from `ps` on other Unix systems),
 * then every member and every group it leads is signalled. On Windows,
 * `taskkill /T` ends the tree.
 *
 * A process that double-forked (`(setsid cmd &)`) has left the tree: it
 * belongs to init. Such orphans are found by a mark in their environment,
 * which every descendant inherits (`/proc/<pid>/environ`, Linux only).
 *
 * @module
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Buffer } from "node:buffer";
import process from "node:process";
import { withoutRuntimeVariables } from "./runtime-variables.ts";

/**
 * `node:child_process`'s `spawnSync`, loaded on first use: only systems
 * without `/proc` (and Windows) need it, and loading it costs every process
 * that imports this module (every task's start).
 */
function spawnSync(
  ...args: Parameters<typeof import("node:child_process").spawnSync>
): ReturnType<typeof import("node:child_process").spawnSync> {
  const cp = createRequire(import.meta.url)(
    "node:child_process",
  ) as typeof import("node:child_process");
  return cp.spawnSync(...args);
}

/** Parent pid of `pid` from `/proc/<pid>/stat`, or undefined. */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may contain spaces and parentheses: read after the last ')'.
    const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(rest[1]);
  } catch {
    return undefined;
  }
}

/** Every process with its parent: from `/proc`, else from `ps`, else nothing. */
function parentLinks(): [number, number][] {
  try {
    const pids = readdirSync("/proc").filter((n) => /^\d+$/.test(n)).map(Number);
    const links: [number, number][] = [];
    for (const pid of pids) {
      const ppid = parentOf(pid);
      if (ppid !== undefined) links.push([pid, ppid]);
    }
    if (links.length > 0) return links;
  } catch {
    // no /proc: ask ps
  }
  const ps = spawnSync("ps", ["-A", "-o", "pid=", "-o", "ppid="], {
    encoding: "utf8",
    env: withoutRuntimeVariables(process.env),
  });
  if (ps.status !== 0 || typeof ps.stdout !== "string") return [];
  return ps.stdout.split("\n").map((l) => l.trim().split(/\s+/).map(Number))
    .filter((p) => p.length === 2 && p.every(Number.isInteger)) as [number, number][];
}

/** Every descendant of `root`, parents before children. */
export function listDescendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of parentLinks()) {
    if (!children.has(ppid)) children.set(ppid, []);
    children.get(ppid)!.push(pid);
  }
  const out: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const next = children.get(queue.shift()!) ?? [];
    out.push(...next);
    queue.push(...next);
  }
  return out;
}

function trySignal(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

/**
 * Sends `signal` to `pid`, its process group and all its descendants, and
 * returns every pid it signalled (so a later escalation can reach them even
 * after `pid` itself is gone and they have been re-parented).
 */
export function killTree(pid: number, signal: NodeJS.Signals): number[] {
  if (process.platform === "win32") {
    // No signals or process groups: taskkill ends the tree (forcefully for SIGKILL).
    const force = signal === "SIGKILL" ? ["/F"] : [];
    spawnSync("taskkill", ["/PID", String(pid), "/T", ...force], {
      stdio: "ignore",
      env: withoutRuntimeVariables(process.env),
    });
    return [pid];
  }
  const members = [pid, ...listDescendants(pid)];
  killPids(members, signal);
  return members;
}

/**
 * Every process (this one excepted) whose environment holds `name=value`
 * (with `prefix`, a value that starts with `value`), read from `/proc`;
 * none where there is no `/proc`.
 */
export function listMarked(name: string, value: string, prefix = false): number[] {
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return [];
  }
  // An entry is `NAME=VALUE` ended by a NUL, at the start or after another NUL.
  const end = prefix ? "" : "\0";
  const entry = Buffer.from(`${name}=${value}${end}`);
  const inner = Buffer.from(`\0${name}=${value}${end}`);
  const out: number[] = [];
  for (const n of names) {
    if (!/^\d+$/.test(n) || Number(n) === process.pid) continue;
    try {
      const env = readFileSync(`/proc/${n}/environ`);
      if (env.subarray(0, entry.length).equals(entry) || env.includes(inner)) {
        out.push(Number(n));
      }
    } catch {
      // gone, or not ours to read
    }
  }
  return out;
}

/** Sends `signal` to every process {@link listMarked} finds, and returns them. */
export function killMarked(
  name: string,
  value: string,
  signal: NodeJS.Signals,
  prefix = false,
): number[] {
  const pids = listMarked(name, value, prefix);
  killPids(pids, signal);
  return pids;
}

/**
 * Whether `pid` is still running: it exists and, where `/proc` tells, is not
 * a zombie (a process that has ended but was not yet reaped by its parent,
 * which may be slow to do so for an orphan).
 *
 * @example
 * ```ts
 * isRunning(process.pid); // true
 * ```
 */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return true; // no /proc (or gone meanwhile): the signal test stands
  }
}

/** Sends `signal` to each pid and the group it may lead; gone ones are skipped. */
export function killPids(pids: readonly number[], signal: NodeJS.Signals): void {
  for (const p of pids) {
    trySignal(-p, signal);
    trySignal(p, signal);
  }
}
