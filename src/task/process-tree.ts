/**
 * Ends a process and everything it started, leaving no orphans.
 *
 * Children run in their own process groups, and tools inside them start
 * groups of their own, so signalling one group is not enough. On Linux the
 * whole tree is collected from `/proc` (parent links) before any signal is
 * sent, then every member and every group it leads is signalled. Elsewhere
 * the process's group is signalled.
 *
 * @module
 */
import { readdirSync, readFileSync } from "node:fs";
import process from "node:process";

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

/** Every descendant of `root`, parents before children (Linux; else empty). */
export function listDescendants(root: number): number[] {
  let pids: number[];
  try {
    pids = readdirSync("/proc").filter((n) => /^\d+$/.test(n)).map(Number);
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  for (const pid of pids) {
    const ppid = parentOf(pid);
    if (ppid === undefined) continue;
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

/** Sends `signal` to `pid`, its process group and all its descendants. */
export function killTree(pid: number, signal: NodeJS.Signals): void {
  const members = [pid, ...listDescendants(pid)];
  for (const p of members) {
    trySignal(-p, signal);
    trySignal(p, signal);
  }
}
