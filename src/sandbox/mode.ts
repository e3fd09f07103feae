/**
 * Which sandbox the commands a task starts get: its `bash` commands and its
 * hooks alike.
 *
 * Decides whether a task starts commands at all ({@link startsCommands}: a
 * `bash` tool or any hook), the spelling of a mode (`read-only`, `workspace-write`, `off`, and
 * Codex's `danger-full-access` for `off`), the precedence (`--sandbox`, then
 * the agent's `sandbox`, then `task.sandbox`, then the default
 * `workspace-write`), that a mode the user asked for (`--sandbox`,
 * `task.sandbox`) is required: it fails rather than run unsandboxed, while
 * the default and an agent's own choice (a file that may come from anywhere,
 * and must not stop working on a machine without bubblewrap) degrade, and
 * that a delegated task is never less confined than the task that started
 * it. Pure.
 *
 * @example
 * ```ts
 * chooseSandbox({ agent: "read-only", config: "off", network: true });
 * // { mode: "read-only", network: true, required: false, source: "agent" }
 * ```
 *
 * @module
 */
import { type AgentHooks, SANDBOX_MODES, type SandboxMode, type SandboxSetting } from "../types.ts";
import { narrowNetwork, type SandboxNetwork } from "./net-policy.ts";

/** Codex's `sandbox_mode` values that mean an xcsh mode of another name. */
const ALIASES: Readonly<Record<string, SandboxMode>> = { "danger-full-access": "off" };

/** The accepted spellings, for messages. */
export const SANDBOX_CHOICES = `${SANDBOX_MODES.join(", ")} (or danger-full-access for off)`;

/** A mode from its written value, or undefined when it names none. */
export function parseSandboxMode(value: unknown): SandboxMode | undefined {
  if (typeof value !== "string") return undefined;
  const v = value.trim().toLowerCase();
  if ((SANDBOX_MODES as readonly string[]).includes(v)) return v as SandboxMode;
  return ALIASES[v];
}

/**
 * Whether a task starts commands the sandbox must hold: it has the `bash`
 * tool (`tools` absent means every tool) or any hook. Both sides ask it, the
 * parent before probing bubblewrap, the child before making the sandbox, so
 * that hooks get the sandbox `bash` would get whether or not the agent has
 * `bash`.
 */
export function startsCommands(
  agent: { tools?: readonly string[]; hooks?: AgentHooks },
): boolean {
  if (agent.tools === undefined || agent.tools.includes("bash")) return true;
  return Object.values(agent.hooks ?? {}).some((groups) =>
    (groups ?? []).some((g) => g.hooks.length > 0)
  );
}

/** How much a mode confines: higher is stricter. */
const STRICTNESS: Readonly<Record<SandboxMode, number>> = {
  "off": 0,
  "workspace-write": 1,
  "read-only": 2,
};

/** True when mode `a` confines less than mode `b` (`off` is looser than `read-only`). */
export function looserThan(a: SandboxMode, b: SandboxMode): boolean {
  return STRICTNESS[a] < STRICTNESS[b];
}

/** Where the chosen mode came from (named in errors). */
export type SandboxSource = "--sandbox" | "agent" | "task.sandbox" | "default" | "caller";

export interface SandboxChoice extends SandboxSetting {
  source: SandboxSource;
}

export interface SandboxInputs {
  flag?: SandboxMode;
  agent?: SandboxMode;
  config?: SandboxMode;
  /** `task.sandboxNetwork`. */
  network: SandboxNetwork;
  /** The calling task's sandbox: a delegated task is never looser. */
  caller?: SandboxSetting;
}

/** The sandbox of one task. */
export function chooseSandbox(i: SandboxInputs): SandboxChoice {
  const [mode, source]: [SandboxMode, SandboxSource] = i.flag !== undefined
    ? [i.flag, "--sandbox"]
    : i.agent !== undefined
    ? [i.agent, "agent"]
    : i.config !== undefined
    ? [i.config, "task.sandbox"]
    : ["workspace-write", "default"];
  const required = source === "--sandbox" || source === "task.sandbox";
  const c = i.caller;
  const net = c ? narrowNetwork(i.network, c.network ? c.reach ?? true : false) : i.network;
  const own: SandboxChoice = { mode, ...networkFields(net), required, source };
  if (!c) return own;
  if (STRICTNESS[c.mode] > STRICTNESS[own.mode]) {
    return { ...own, mode: c.mode, required: c.required, source: "caller" };
  }
  // The same mode is required when either side asked for it.
  const same = c.mode === own.mode;
  return { ...own, required: own.required || (same && c.required) };
}

/** A setting's `network` and `reach` (none for any public host). */
function networkFields(n: SandboxNetwork): Pick<SandboxSetting, "network" | "reach"> {
  if (typeof n === "boolean") return { network: n };
  return Object.keys(n).length === 0 ? { network: true } : { network: true, reach: n };
}

/** How the source of a mode reads in a message: `--sandbox read-only`. */
export function describeSource(c: SandboxChoice): string {
  switch (c.source) {
    case "--sandbox":
      return `--sandbox ${c.mode}`;
    case "agent":
      return `the agent's sandbox: ${c.mode}`;
    case "task.sandbox":
      return `task.sandbox: ${c.mode}`;
    case "caller":
      return `the calling task's sandbox (${c.mode})`;
    default:
      return `the default sandbox (${c.mode})`;
  }
}
