/**
 * The environment variables of the parent–child protocol, and the one reader
 * of each.
 *
 * A parent starts its child with `XCSH_TASK_DEPTH` (its depth + 1, a
 * counter of the tree) and `XCSH_PARENT_PIPE=1` (stdin is the parent's
 * pipe: its end means the parent died). Rights are no counters: the spawn
 * right and the blocked agent are stated once, in the envelope
 * (`toolSet.spawns`, `blockedAgent`). The child hands them on as
 * `XCSH_SPAWNS` (the agents it may start: `*`, CSV, or `""` for none) and
 * `PI_BLOCKED_AGENT` to its own `task` tool and to the commands it runs
 * (`envelopeVariables`), where an `xcsh run` reads them as its caller's
 * limits; a launcher's command line carries neither
 * (`travelsOnCommandLine`). `XCSH_TASK_MARK` and `XCSH_COMMAND_MARK`
 * mark the process trees of a task and of a bash command, so that what a
 * double fork left behind can still be found and ended. `XCSH_BACKGROUND_RUN` names the session a
 * background run records. The user's `XCSH_MODEL` picks the model; the
 * numeric tuning knobs `XCSH_RETRY_BASE_MS`, `XCSH_MODEL_IDLE_TIMEOUT_MS`,
 * `XCSH_MCP_TIMEOUT_MS` and `XCSH_WEB_FETCH_TIMEOUT_MS` change the child's
 * waits (a value that is not a number, or not in range, leaves the default).
 *
 * The user's settings that are no part of the protocol are read where they
 * act: `XCSH_CACHE`/`XCSH_CACHE_DIR` (`discovery/cache-dir.ts`),
 * `XCSH_DATA_DIR` (`sessions/paths.ts`), `XCSH_VERBOSE` (`warnings.ts`),
 * `XCSH_NO_BWRAP` (`sandbox/probe.ts`), `XCSH_DEBUG` (`cli/main.ts`). Pure.
 *
 * @example
 * ```ts
 * readCallerState({ XCSH_TASK_DEPTH: "1", XCSH_SPAWNS: "explore" });
 * // { ok: true, state: { depth: 1, spawns: ["explore"] } }
 * ```
 *
 * @module
 */
import type { AgentDefinition } from "../types.ts";

/** A process's environment, as the readers take it. */
export type Env = Readonly<Record<string, string | undefined>>;

/** The depth of the process (unset = 0, the top level). */
export const TASK_DEPTH = "XCSH_TASK_DEPTH";
/** The agents the process may start: unset = any, `""` = none, CSV = those. */
export const SPAWNS = "XCSH_SPAWNS";
/**
 * The agent the process must not start (recursion prevention). The name is
 * the pi coding agent's, kept so that both runners honour each other's guard.
 */
export const BLOCKED_AGENT = "PI_BLOCKED_AGENT";
/** `1`: stdin is the parent's pipe, and its end means the parent went away. */
export const PARENT_PIPE = "XCSH_PARENT_PIPE";
/** Marks every process of a task's tree (the value is the task's mark). */
export const TASK_MARK = "XCSH_TASK_MARK";
/** Marks every process of a bash command's tree. */
export const COMMAND_MARK = "XCSH_COMMAND_MARK";
/** The session id a background run records. */
export const BACKGROUND_RUN = "XCSH_BACKGROUND_RUN";
/** The user's model choice, before config and agent. */
export const MODEL = "XCSH_MODEL";
/** The first retry delay of a model call, in ms. */
export const RETRY_BASE_MS = "XCSH_RETRY_BASE_MS";
/** How long a model stream may stay silent, in ms. */
export const MODEL_IDLE_TIMEOUT_MS = "XCSH_MODEL_IDLE_TIMEOUT_MS";
/** The MCP servers' start and call timeout, in ms. */
export const MCP_TIMEOUT_MS = "XCSH_MCP_TIMEOUT_MS";
/** web_fetch's timeout, in ms. */
export const WEB_FETCH_TIMEOUT_MS = "XCSH_WEB_FETCH_TIMEOUT_MS";

/** Whether `name` is a variable of the protocol (xcsh's own, and the blocked agent). */
export function isProtocolVariable(name: string): boolean {
  return name.startsWith("XCSH_") || name === BLOCKED_AGENT;
}

/**
 * The variables whose values the envelope carries too ({@link envelopeVariables}):
 * the spawn right and the blocked agent, both made of names a repository's
 * agent files chose.
 */
const CARRIED_BY_ENVELOPE: readonly string[] = [SPAWNS, BLOCKED_AGENT];

/**
 * Whether a launcher passes `name` to the far side on its command line:
 * a protocol variable the envelope does not carry. What the envelope
 * carries stays off every command line, so no repository text is ever a
 * word a far side's shell reads.
 */
export function travelsOnCommandLine(name: string): boolean {
  return isProtocolVariable(name) && !CARRIED_BY_ENVELOPE.includes(name);
}

/** The agent a child of `agent` may not start (itself, unless `recursive`), or none. */
export function blockedAgentOf(
  agent: Pick<AgentDefinition, "name" | "recursive">,
): string | undefined {
  return agent.recursive ? undefined : agent.name;
}

/** `XCSH_SPAWNS`'s value for a spawn right. */
function spawnsValue(spawns: "*" | readonly string[]): string {
  return spawns === "*" ? "*" : spawns.join(",");
}

/**
 * The protocol variables a child's envelope decides, as its environment
 * holds them: `XCSH_SPAWNS` from the tool set the parent decided,
 * `PI_BLOCKED_AGENT` from `blockedAgent` (`""`: none). The child lays them
 * over its own environment, so its `task` tool and the commands it runs (an
 * `xcsh run` in its bash) honour them however it was started, whatever it
 * inherited.
 */
export function envelopeVariables(
  plan: { blockedAgent?: string; toolSet: { spawns: "*" | readonly string[] } },
): Record<string, string> {
  return {
    [SPAWNS]: spawnsValue(plan.toolSet.spawns),
    [BLOCKED_AGENT]: plan.blockedAgent ?? "",
  };
}

/**
 * A number from a variable: unset or blank leaves `fallback`, and so does a
 * value that is not a finite number or is below the range (`positive`: > 0;
 * else ≥ 0).
 */
export function numberVariable(
  value: string | undefined,
  fallback: number,
  range: "positive" | "non-negative",
): number {
  if (value === undefined || value.trim() === "") return fallback;
  const n = Number(value);
  if (!Number.isFinite(n)) return fallback;
  return (range === "positive" ? n > 0 : n >= 0) ? n : fallback;
}

/** What the environment says about the process asking to spawn. */
export interface CallerState {
  depth: number;
  /** `"*"` = any agent; a list (possibly empty) = only those. */
  spawns: "*" | string[];
  /** The agent name `PI_BLOCKED_AGENT` forbids, if any. */
  blocked?: string;
}

/** Reads the caller's limits from the environment; bad values are errors. */
export function readCallerState(
  env: Env,
): { ok: true; state: CallerState } | { ok: false; message: string } {
  const rawDepth = env[TASK_DEPTH];
  let depth = 0;
  if (rawDepth !== undefined && rawDepth !== "") {
    if (!/^\d+$/.test(rawDepth.trim())) {
      return { ok: false, message: `${TASK_DEPTH} must be a whole number, not "${rawDepth}"` };
    }
    depth = Number(rawDepth.trim());
  }
  const rawSpawns = env[SPAWNS];
  let spawns: "*" | string[] = "*";
  if (rawSpawns !== undefined) {
    const list = rawSpawns.split(",").map((s) => s.trim()).filter((s) => s !== "");
    spawns = list.includes("*") ? "*" : list;
  }
  const blocked = env[BLOCKED_AGENT]?.trim() || undefined;
  return { ok: true, state: { depth, spawns, ...(blocked ? { blocked } : {}) } };
}

/**
 * The xcsh variables a child starts with: the tree's depth counter. Its
 * rights travel in its envelope.
 */
export function childEnvironment(parentDepth: number): Record<"XCSH_TASK_DEPTH", string> {
  return { XCSH_TASK_DEPTH: String(parentDepth + 1) };
}

/** The depth a child reports in its `start` event: a bad value reads as 0. */
export function reportedDepth(env: Env): number {
  return Math.max(0, Math.trunc(numberVariable(env[TASK_DEPTH], 0, "non-negative")));
}

/** Whether stdin is the parent's pipe (`XCSH_PARENT_PIPE=1`). */
export function parentPipe(env: Env): boolean {
  return env[PARENT_PIPE] === "1";
}

/** The user's `XCSH_MODEL`, as set. */
export function modelVariable(env: Env): string | undefined {
  return env[MODEL];
}

/** The first retry delay (`XCSH_RETRY_BASE_MS`, ≥ 0), else `fallback`. */
export function retryBaseMs(env: Env, fallback: number): number {
  return numberVariable(env[RETRY_BASE_MS], fallback, "non-negative");
}

/** The model stream's idle timeout (`XCSH_MODEL_IDLE_TIMEOUT_MS`, ≥ 0), else `fallback`. */
export function modelIdleTimeoutMs(env: Env, fallback: number): number {
  return numberVariable(env[MODEL_IDLE_TIMEOUT_MS], fallback, "non-negative");
}

/** The MCP timeout (`XCSH_MCP_TIMEOUT_MS`, > 0), else `fallback`. */
export function mcpTimeoutMs(env: Env, fallback: number): number {
  return numberVariable(env[MCP_TIMEOUT_MS], fallback, "positive");
}

/** web_fetch's timeout (`XCSH_WEB_FETCH_TIMEOUT_MS`, > 0), else `fallback`. */
export function webFetchTimeoutMs(env: Env, fallback: number): number {
  return numberVariable(env[WEB_FETCH_TIMEOUT_MS], fallback, "positive");
}
