/**
 * Whether a process recorded earlier is still the same live process: its pid
 * answers, it is not a zombie, and (on Linux, where `/proc` tells) it started
 * at the recorded time, so a reused pid never counts as alive.
 *
 * @module
 */
import { readFileSync } from "node:fs";
import process from "node:process";

interface ProcStat {
  state: string;
  /** Clock ticks after boot when the process started. */
  start: string;
}

function procStat(pid: number): ProcStat | undefined | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { state: rest[0], start: rest[19] };
  } catch (err) {
    // No such entry: gone (where /proc exists), or no /proc at all (null).
    const code = (err as NodeJS.ErrnoException).code;
    return code === "ENOENT" && procAvailable() ? undefined : null;
  }
}

let hasProc: boolean | undefined;
function procAvailable(): boolean {
  if (hasProc === undefined) {
    try {
      readFileSync("/proc/self/stat");
      hasProc = true;
    } catch {
      hasProc = false;
    }
  }
  return hasProc;
}

/** The start mark of `pid` (Linux: start time in ticks), or `""` when unknown. */
export function processStartMark(pid: number): string {
  const s = procStat(pid);
  return s ? s.start : "";
}

/** True when `pid` runs and, if `mark` is given and knowable, started at `mark`. */
export function isProcessAlive(pid: number, mark = ""): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  const s = procStat(pid);
  if (s === undefined) return false;
  if (s) {
    if (s.state === "Z" || s.state === "X") return false;
    return mark === "" || s.start === mark;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
