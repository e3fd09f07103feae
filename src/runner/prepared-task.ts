/**
 * What a prepared child is: the child as planned (`plan/child-plan.ts`:
 * its envelope, the variables it starts with, its time limit, launcher and
 * checks) and where it runs: the session it records into and its worktree.
 * The task runner builds these; session binding and `xcsh run` read them.
 *
 * @module
 */
import type { Isolate } from "./run-task.ts";
import type { ReservedSession } from "./task-sessions/task-session.ts";
import type { PlannedTask } from "../plan/child-plan.ts";

/** A child ready to start. */
export interface PreparedTask extends PlannedTask {
  /** The session the task records into (its lock held); absent: none is kept. */
  session?: ReservedSession;
  /** Set when the task runs in a git worktree of its own. */
  isolate?: Isolate;
}
