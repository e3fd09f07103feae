/**
 * Which acceptance checks a task runs, and how many rounds its child gets:
 * the agent file's `accept:` then the call's own (`--accept`, MCP
 * `accept`), the call's `acceptRetries` over the agent's over the default
 * ({@link DEFAULT_ACCEPT_RETRIES}: one round lets a child fix an honest
 * miss, such as a build it forgot to run; more mostly spend tokens on a
 * child that cannot do it, each round running every check again).
 *
 * Trust: a project agent file's check commands are programs the parent
 * would run, so, like its hooks, they run only once `xcsh trust` recorded
 * the file with its current content; until then they are listed as skipped
 * (the task is not verified) and never counted as passed. Its other checks
 * start nothing and run. The caller's own checks always run. Pure.
 *
 * @module
 */
import { DEFAULT_ACCEPT_RETRIES } from "../discovery/accept-checks.ts";
import type { AcceptCheck, AgentDefinition, TaskRequest } from "../types.ts";

export interface AcceptPlan {
  /** The checks that run, in order. */
  checks: AcceptCheck[];
  /** The checks listed as skipped (an untrusted project file's commands). */
  skipped: AcceptCheck[];
  /** Rounds the child is sent back after failed checks. */
  retries: number;
}

/** The plan of `agent` under `req`, or undefined when the task has no checks. */
export function acceptPlan(
  agent: AgentDefinition,
  req: Pick<TaskRequest, "accept" | "acceptRetries">,
  agentFileTrusted: () => boolean,
): AcceptPlan | undefined {
  const own = agent.accept ?? [];
  const call = req.accept ?? [];
  if (own.length === 0 && call.length === 0) return undefined;
  const untrusted = agent.source === "project" && own.some((c) => c.kind === "cmd") &&
    !agentFileTrusted();
  const skipped: AcceptCheck[] = untrusted ? own.filter((c) => c.kind === "cmd") : [];
  const checks = [...own.filter((c) => !skipped.includes(c)), ...call];
  return {
    checks,
    skipped,
    retries: req.acceptRetries ?? agent.acceptRetries ?? DEFAULT_ACCEPT_RETRIES,
  };
}
