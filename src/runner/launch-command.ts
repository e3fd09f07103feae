/**
 * Which launcher starts a call's children, and the command line it gets.
 *
 * Decides, for a top-level call: the call's own `launcher` (`--launcher`,
 * the MCP argument), else the agent's, else `task.launcher`, else none; a
 * name must be `local` or an entry of `task.launchers`. Children started
 * by a child (depth ≥ 1) always start on the machine their parent runs on:
 * a task already on a cluster node does not submit jobs of its own.
 *
 * The command is the launcher's arguments with their placeholders filled,
 * then `env NAME=VALUE… BINARY __child`: the protocol variables travel on
 * the command line so that launchers that do not forward the environment
 * (ssh, kubectl, podman) work too; those the envelope carries (the spawn
 * right and the blocked agent, names a repository chose) do not, and keys
 * never do: they stay in the envelope, on stdin. When the launcher's far
 * side is a shell (its `shell`, declared or inferred in
 * `config/launchers.ts`), every placeholder's value and every word of the
 * xcsh command is shell-quoted, so a value is never more than one word to
 * it.
 *
 * @example
 * ```ts
 * launchCommand(
 *   {
 *     name: "cluster",
 *     key: "task.launchers.cluster",
 *     args: ["srun", "-J", "{job}", "--"],
 *     shell: false,
 *   },
 *   { task: "0-explore", agent: "explore", session: "s1", cwd: "/p" },
 *   { XCSH_TASK_DEPTH: "1" },
 *   ["/opt/xcsh"],
 * );
 * // { command: "srun", args: ["-J", "xcsh-explore-0-explore", "--", "env",
 * //   "XCSH_TASK_DEPTH=1", "/opt/xcsh", "__child"] }
 * ```
 *
 * @module
 */
import { type LauncherPlaceholder, LOCAL_LAUNCHER } from "../config/launchers.ts";
import type { LauncherEntry, XcshConfig } from "../types.ts";
import { travelsOnCommandLine } from "../protocol/variables.ts";

/** A launcher chosen for a call. */
export interface LaunchPlan {
  /** Its name, or `task.launcher` for an unnamed list. */
  name: string;
  /** The config key it came from, for messages. */
  key: string;
  /** The program and its arguments, placeholders unfilled; never empty. */
  args: string[];
  /** Its far side reads the words as a shell command: every value is quoted. */
  shell: boolean;
}

export type LauncherChoice =
  | { ok: true; plan?: LaunchPlan }
  | { ok: false; message: string };

/** The launcher for a call at `depth`, or none (local). Pure. */
export function chooseLauncher(
  task: Pick<XcshConfig["task"], "launcher" | "launchers">,
  depth: number,
  requested: { call?: string; agent?: string; agentFile?: string },
): LauncherChoice {
  if (depth > 0) return { ok: true };
  const named = (name: string, from: string): LauncherChoice => {
    if (name === LOCAL_LAUNCHER) return { ok: true };
    const entry = task.launchers?.[name];
    if (entry === undefined) {
      const known = [LOCAL_LAUNCHER, ...Object.keys(task.launchers ?? {})].join(", ");
      return {
        ok: false,
        message: `${from} names the launcher '${name}', which task.launchers does not define ` +
          `(known: ${known})`,
      };
    }
    return entry.args.length === 0
      ? { ok: true }
      : { ok: true, plan: { name, key: `task.launchers.${name}`, ...copy(entry) } };
  };
  if (requested.call !== undefined) return named(requested.call, "--launcher");
  if (requested.agent !== undefined) {
    return named(requested.agent, `${requested.agentFile ?? "the agent"}: 'launcher'`);
  }
  const dflt = task.launcher;
  if (dflt === undefined) return { ok: true };
  if (typeof dflt === "string") return named(dflt, "task.launcher");
  return { ok: true, plan: { name: "task.launcher", key: "task.launcher", ...copy(dflt) } };
}

function copy(entry: LauncherEntry): LauncherEntry {
  return { args: [...entry.args], shell: entry.shell };
}

/**
 * A job name every engine accepts, Kubernetes' pod names being the
 * strictest: `xcsh-AGENT-TASK` in lower-case letters, digits and `-`, at
 * most 63 characters, ending in a letter or digit. Pure.
 */
export function jobName(agent: string, task: string): string {
  return `xcsh-${agent}-${task}`.toLowerCase().replace(/[^a-z0-9]+/g, "-").slice(0, 63)
    .replace(/-+$/, "");
}

/** A word as a POSIX shell reads it back unchanged. Pure. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:,=@%+-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The launcher's command line for one task. Pure. */
export function launchCommand(
  plan: LaunchPlan,
  values: Omit<Record<LauncherPlaceholder, string>, "job">,
  protocolEnv: Readonly<Record<string, string>>,
  binary: readonly string[],
): { command: string; args: string[] } {
  const viaShell = plan.shell;
  const fill: Record<LauncherPlaceholder, string> = {
    ...values,
    job: jobName(values.agent, values.task),
  };
  const quote = viaShell ? shellQuote : (s: string) => s;
  const filled = plan.args.map((a) =>
    a.replace(/\{([a-z]+)\}/g, (_, p: LauncherPlaceholder) => quote(fill[p] ?? `{${p}}`))
  );
  const tail = [
    "env",
    ...Object.entries(protocolEnv).map(([k, v]) => `${k}=${v}`),
    ...binary,
    "__child",
  ];
  return {
    command: filled[0],
    args: viaShell ? [...filled.slice(1), ...tail.map(shellQuote)] : [...filled.slice(1), ...tail],
  };
}

/**
 * The variables a far child gets on its command line, from a local child's
 * environment: xcsh's own, less those the envelope carries. Pure.
 */
export function protocolVariables(
  env: Readonly<Record<string, string>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (travelsOnCommandLine(k)) out[k] = v;
  }
  return out;
}
