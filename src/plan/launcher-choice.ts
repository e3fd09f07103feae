/**
 * Which launcher starts a call's children, and with which xcsh.
 *
 * Decides, for a top-level call: the call's own `launcher` (`--launcher`,
 * the MCP argument), else the agent's, else `task.launcher`, else none; a
 * name must be `local` or an entry of `task.launchers`. Children started
 * by a child (depth ≥ 1) always start on the machine their parent runs on:
 * a task already on a cluster node does not submit jobs of its own. The
 * launcher's program must exist here before any child starts (a dry run
 * starts none: it warns instead); the far side runs `task.launcherBinary`,
 * else this xcsh.
 *
 * @module
 */
import { LOCAL_LAUNCHER } from "../config/launchers.ts";
import { selfCommand } from "../runtime.ts";
import type {
  AgentDefinition,
  Diagnostic,
  LauncherEntry,
  TaskRequest,
  XcshConfig,
} from "../types.ts";
import { programPath } from "./program-path.ts";

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
 * The launcher `req`'s children start through, with the xcsh the far side
 * runs, or the one line saying why none can be used. `warn` hears a dry
 * run's missing program.
 */
export function childLauncher(
  req: TaskRequest,
  agent: AgentDefinition,
  i: {
    task: XcshConfig["task"];
    /** The calling task's depth (0: the top level). */
    depth: number;
    /** The PATH the launcher's program is looked for on. */
    path: string | undefined;
    dryRun: boolean;
    warn: (warning: Diagnostic) => void;
  },
):
  | { ok: true; value?: { plan: LaunchPlan; binary: string[] } }
  | { ok: false; message: string } {
  const choice = chooseLauncher(i.task, i.depth, {
    call: req.launcher,
    agent: agent.launcher,
    agentFile: agent.filePath,
  });
  if (!choice.ok) return choice;
  if (!choice.plan) return { ok: true };
  const program = choice.plan.args[0];
  if (programPath(program, i.path) === undefined) {
    const missing = `launcher '${choice.plan.name}' (${choice.plan.key}): the program ` +
      `'${program}' was not found${program.includes("/") ? "" : " on PATH"}`;
    if (!i.dryRun) return { ok: false, message: `${missing}; no task was started` };
    i.warn({
      level: "warning",
      field: choice.plan.key,
      message: `${missing}; a real run would start no task`,
    });
  }
  const self = selfCommand();
  const binary = i.task.launcherBinary !== undefined
    ? [i.task.launcherBinary]
    : [self.command, ...self.args];
  return { ok: true, value: { plan: choice.plan, binary } };
}
