/**
 * The commands still running in this process (pid → mark), and how every
 * one of them is ended with all it started. `bash.ts` and the hooks record
 * their commands here; the child's stop path ends them without loading the
 * command runner when no command ever ran.
 *
 * @example
 * ```ts
 * killAllCommandGroups(); // nothing to do when no command is running
 * ```
 *
 * @module
 */
import process from "node:process";
import { killMarked, killTree } from "../process/process-tree.ts";
import { COMMAND_MARK } from "../protocol/variables.ts";

/**
 * How every command mark of process `pid` (this one by default) begins: a
 * process that outlived its command still carries it.
 */
export function commandMarkPrefix(pid: number = process.pid): string {
  return `${pid}-`;
}

/** Commands still running, pid → mark (for the child's signal handler). */
export const liveCommands = new Map<number, string>();

/** Ends a command's tree and every process carrying its mark. */
export function endCommand(pid: number | undefined, mark: string): void {
  if (pid !== undefined) killTree(pid, "SIGKILL");
  killMarked(COMMAND_MARK, mark, "SIGKILL");
}

/**
 * Kills every command still running, with everything it started (its
 * process group, its descendants and their groups, and every process
 * carrying its mark, so neither `setsid` nor a double fork escapes).
 */
export function killAllCommandGroups(): void {
  for (const [pid, mark] of liveCommands) endCommand(pid, mark);
}
