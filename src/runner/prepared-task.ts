/**
 * What a prepared child is: its envelope, the variables it starts with, its
 * time limit, the session it records into, its worktree and launcher. The
 * task runner builds these; session binding and `xcsh run` read them.
 *
 * @module
 */
import type { Isolate } from "./run-task.ts";
import type { ReservedSession } from "./task-session.ts";
import type { LaunchPlan } from "../plan/launcher-choice.ts";
import type { TaskEnvelope } from "../protocol/envelope.ts";
import type { AcceptPlan } from "../plan/accept-plan.ts";

/** A child ready to start. */
export interface PreparedTask {
  envelope: TaskEnvelope;
  /** The xcsh variables the child gets (on top of the parent's environment). */
  childEnv: Record<string, string>;
  timeoutMs: number;
  /** Why no model resolved (only with `prepare(req, { withoutModel: true })`; `envelope.model` is null). */
  modelError?: string;
  /** The session the task records into (its lock held); absent: none is kept. */
  session?: ReservedSession;
  /** Set when the task runs in a git worktree of its own. */
  isolate?: Isolate;
  /** Set when the child starts through a launcher. */
  launch?: { plan: LaunchPlan; binary: string[] };
  /** What the call or the agent asked for, for the result; null: nothing. */
  requestedModel?: string | null;
  /** The acceptance checks the parent runs after the child submits. */
  accept?: AcceptPlan;
}
