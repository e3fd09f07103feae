/**
 * The command line a launcher gets for one task (which launcher a call uses
 * is the plan's: `plan/launcher-choice.ts`).
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
import type { LauncherPlaceholder } from "../../config/launchers.ts";
import type { LaunchPlan } from "../../plan/launcher-choice.ts";
import { travelsOnCommandLine } from "../../protocol/variables.ts";

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
