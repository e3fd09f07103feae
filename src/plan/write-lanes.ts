/**
 * The write lanes of a task call: which lane each task gets, and which tasks
 * wait for which.
 *
 * A task's lane is its own (`--writes`, a `writes` task argument), else its
 * agent's (`writes:`), else the caller's (a child's `task` call: a sub-task
 * never writes more than its caller may). A lane the caller's does not
 * contain (`laneWithin`) is refused, as is an invalid or outside glob: one
 * line naming the field, before any child starts.
 *
 * The order: tasks sharing one workspace whose lanes overlap
 * (`lanesOverlap`) run one after the other, in the call's order; each task
 * waits for every earlier task whose lane overlaps its own. A task without a
 * lane waits for nothing and nobody waits for it: it keeps the behaviour of
 * a call without lanes (all tasks side by side), since a caller that names no
 * lane has not said its tasks write apart. Tasks each in a worktree of their
 * own share no workspace and never wait. Pure.
 *
 * @example
 * ```ts
 * laneWaits([["src/**"], ["docs/**"], ["src/api/**"], undefined], false);
 * // [[], [], [0], []]
 * ```
 *
 * @module
 */
import { lanePrefix, laneProblem, lanesOverlap, laneWithin } from "../fs/write-lane.ts";

export type Lane = readonly string[] | undefined;

export interface LaneInputs {
  /** Each task's own lane and id. */
  tasks: readonly { id: string; writes?: readonly string[] }[];
  /** The agent file's `writes:` (checked when the file was read). */
  agent?: readonly string[];
  /** The lane of the task making this call, if it has one. */
  caller?: readonly string[];
  /** How a task's own lane was given (`--writes`, `tasks[i].writes`), for messages. */
  taskField: (index: number) => string;
}

/** Each task's lane, or the one line saying why a lane cannot be used. */
export function decideLanes(
  i: LaneInputs,
): { ok: true; lanes: Lane[] } | { ok: false; message: string } {
  const lanes: Lane[] = [];
  for (const [n, t] of i.tasks.entries()) {
    const field = t.writes ? i.taskField(n) : "the agent's 'writes'";
    if (t.writes) {
      const problem = laneProblem(t.writes, field);
      if (problem) return { ok: false, message: `task "${t.id}": ${problem}` };
    }
    const lane = t.writes ?? i.agent ?? i.caller;
    if (lane && i.caller && !laneWithin(lane, i.caller)) {
      return {
        ok: false,
        message: `task "${t.id}": ${field} (${lane.join(", ")}) is not within this task's own ` +
          `write lane (${i.caller.join(", ")}): a delegated task writes no more than its caller`,
      };
    }
    lanes.push(lane ? [...lane] : undefined);
  }
  return { ok: true, lanes };
}

/**
 * For each task, the earlier tasks it waits for: those whose lane overlaps
 * its own, when both share the workspace (`isolated[i]`: task `i` works in
 * a worktree of its own; one boolean: every task alike).
 */
export function laneWaits(
  lanes: readonly Lane[],
  isolated: boolean | readonly boolean[],
): number[][] {
  const own = (i: number) => typeof isolated === "boolean" ? isolated : isolated[i] === true;
  return lanes.map((lane, i) => {
    if (own(i) || !lane) return [];
    const waits: number[] = [];
    for (let j = 0; j < i; j++) {
      const other = lanes[j];
      if (other && !own(j) && lanesOverlap(lane, other)) waits.push(j);
    }
    return waits;
  });
}

/** The folders and files a lane's sandbox binds writable (its globs' literal prefixes). */
export function lanePrefixes(lane: readonly string[]): string[] {
  return [...new Set(lane.map(lanePrefix))];
}
