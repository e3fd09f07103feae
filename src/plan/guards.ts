/**
 * May this process start a child running agent X?
 *
 * Decides, in this order: the agent exists (exact name), it can run (not a
 * remote agent), it is not disabled
 * by config, the spawn policy inherited in `XCSH_SPAWNS` allows it (unset at
 * the top level = any; `""` = none; CSV = those names), `PI_BLOCKED_AGENT`
 * does not name it (recursion prevention), and this process's depth
 * (`XCSH_TASK_DEPTH`, unset = 0) is below `task.maxRecursionDepth` (`-1` =
 * unlimited). Also decides what an unknown name is told (all names when
 * they are few, else the nearest few) and the environment a child inherits.
 * Pure.
 *
 * @example
 * ```ts
 * import type { AgentDefinition } from "../types.ts";
 * import { readCallerState } from "../protocol/variables.ts";
 *
 * declare const agents: AgentDefinition[];
 * const caller = readCallerState({ XCSH_SPAWNS: "explore" });
 * if (caller.ok) checkGuards("plan", agents, caller.state, { maxDepth: 2, disabled: [] });
 * // { ok: false, kind: "spawn", message: "Cannot spawn 'plan'. Allowed: explore" }
 * ```
 *
 * @module
 */
import type { AgentDefinition } from "../types.ts";
import { namesTail, shownName } from "../text/nearest-names.ts";
import type { CallerState } from "../protocol/variables.ts";

export type GuardKind =
  | "unknown"
  | "disabled"
  | "spawn"
  | "blocked"
  | "depth"
  | "env"
  | "changed"
  | "unrunnable";

export type GuardResult =
  | { ok: true; agent: AgentDefinition }
  | { ok: false; kind: GuardKind; message: string };

export interface GuardLimits {
  /** `task.maxRecursionDepth`; negative = unlimited. */
  maxDepth: number;
  /** `task.disabledAgents`. */
  disabled: readonly string[];
  /** How the caller sees every agent, said when an unknown name's list is cut (default: `xcsh agents`). */
  listHint?: string;
}

/**
 * What a caller is told when no agent is named `name`: every available name
 * when they are few, else the nearest few and how to see them all; short
 * (under 1 KB) however many agents there are.
 */
export function unknownAgentMessage(
  name: string,
  names: readonly string[],
  listHint = "`xcsh agents` lists them all",
): string {
  return `Unknown agent "${shownName(name)}". ${namesTail(name, names, "agents", listHint)}`;
}

/** The names a caller could run, for "Available:" lists. */
export function availableNames(
  agents: readonly AgentDefinition[],
  limits: Pick<GuardLimits, "disabled">,
): string[] {
  return agents.map((a) => a.name).filter((n) => !limits.disabled.includes(n));
}

/** True when a process at `depth` may not start children. */
export function depthExhausted(depth: number, maxDepth: number): boolean {
  return maxDepth >= 0 && depth >= maxDepth;
}

/** Applies every guard, in order, to a request for agent `name`. */
export function checkGuards(
  name: string,
  agents: readonly AgentDefinition[],
  caller: CallerState,
  limits: GuardLimits,
): GuardResult {
  const agent = agents.find((a) => a.name === name);
  if (!agent) {
    return {
      ok: false,
      kind: "unknown",
      message: unknownAgentMessage(name, availableNames(agents, limits), limits.listHint),
    };
  }
  if (agent.notRunnable) {
    return {
      ok: false,
      kind: "unrunnable",
      message: `Cannot run '${name}': ${agent.notRunnable}.`,
    };
  }
  if (limits.disabled.includes(name)) {
    return {
      ok: false,
      kind: "disabled",
      message: `Agent "${name}" is disabled by task.disabledAgents in the xcsh config.`,
    };
  }
  if (caller.spawns !== "*" && !caller.spawns.includes(name)) {
    const allowed = namesTail(
      name,
      caller.spawns,
      "allowed agents",
      "the calling agent's spawns field names them",
      "Allowed",
    );
    return { ok: false, kind: "spawn", message: `Cannot spawn '${shownName(name)}'. ${allowed}` };
  }
  if (caller.blocked === name) {
    return {
      ok: false,
      kind: "blocked",
      message:
        `Cannot spawn '${name}' from inside '${name}': recursion prevention. An agent may only spawn itself when its definition says 'recursive: true'.`,
    };
  }
  if (depthExhausted(caller.depth, limits.maxDepth)) {
    return {
      ok: false,
      kind: "depth",
      message:
        `Cannot spawn '${name}': task depth limit reached (this task is at depth ${caller.depth}; task.maxRecursionDepth is ${limits.maxDepth}).`,
    };
  }
  return { ok: true, agent };
}
