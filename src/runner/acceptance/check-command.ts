/**
 * How the parent runs an acceptance check's command: in the task's
 * workspace (its worktree or the project), in the same sandbox and with the
 * same environment rule as the agent's own `bash` commands, through the
 * same code (`prepareWorkspace` in `child/workspace.ts`,
 * `commandEnvironment` in `sandbox/command-env.ts`, `spawnCommand` in
 * `tools/bash.ts`): stdout and stderr merged, bounded in memory (a command
 * printing 100 MB keeps its head and tail), the whole process tree ended at
 * its time limit. A command the shell cannot find (exit 127) or a sandbox
 * that cannot start is the caller's problem, not the child's: `broken`.
 *
 * @module
 */
import { prepareWorkspace } from "../../child/workspace.ts";
import { commandEnvironment } from "../../sandbox/command-env.ts";
import { spawnCommand } from "../../tools/bash.ts";
import { keyVariables } from "../../model/providers.ts";
import { DEFAULT_CHECK_TIMEOUT_S } from "../../discovery/accept-checks.ts";
import type { TaskEnvelope } from "../../protocol/envelope.ts";
import type { XcshConfig } from "../../types.ts";

/** Where a task's check commands run. */
export interface CommandPlace {
  envelope: TaskEnvelope;
  config: XcshConfig;
  home: string;
  /** The parent's environment (provider keys and secrets are dropped from it). */
  env: Readonly<Record<string, string | undefined>>;
  signal?: AbortSignal;
}

export interface CommandRun {
  ok: boolean;
  /** The command's output, or why it did not run. */
  output: string;
  /** Set when the check could not run at all (missing command, no sandbox). */
  broken?: string;
}

/** Runs `cmd` as the check `name`; never throws. */
export async function runCheckCommand(
  cmd: string,
  timeoutS: number | undefined,
  at: CommandPlace,
): Promise<CommandRun> {
  const ws = prepareWorkspace({
    envelope: at.envelope,
    config: at.config,
    home: at.home,
    env: at.env,
    // A check is a command: it gets the sandbox a command of this task gets.
    toolNames: ["bash"],
    parentChecked: false,
  });
  if (!ws.ok) return { ok: false, output: ws.error, broken: ws.error };
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(at.env)) if (v !== undefined) env[k] = v;
  const commands = commandEnvironment(env, {
    remove: keyVariables(at.config),
    allow: at.config.task.allowEnv,
    gitSettings: at.envelope.commandGitSettings ?? [],
  });
  const seconds = timeoutS ?? DEFAULT_CHECK_TIMEOUT_S;
  try {
    const r = await spawnCommand(`exec 2>&1 </dev/null\n${cmd}`, {
      cwd: at.envelope.cwd,
      roots: ws.value.roots,
      folders: ws.value.folders,
      ...(ws.value.sandbox ? { sandbox: ws.value.sandbox } : {}),
      signal: at.signal ?? new AbortController().signal,
      env: commands.env,
    }, { timeoutMs: seconds * 1000, merge: true });
    const text = r.stdout.replace(/\s+$/, "");
    if (r.error) {
      const why = `could not run: ${r.error.message}`;
      return { ok: false, output: why, broken: why };
    }
    if (r.timedOut) {
      return { ok: false, output: `${text}\n[killed: timed out after ${seconds} s]`.trimStart() };
    }
    if (r.code === 127) {
      const why = `the command was not found (exit code 127)${text ? `: ${lastLine(text)}` : ""}`;
      return { ok: false, output: text || why, broken: why };
    }
    const status = r.code !== null ? `exit code ${r.code}` : `killed by ${r.signal}`;
    return { ok: r.code === 0, output: text === "" ? `[${status}]` : `${text}\n[${status}]` };
  } finally {
    ws.value.cleanup();
  }
}

function lastLine(text: string): string {
  const lines = text.split("\n");
  return lines[lines.length - 1].slice(0, 200);
}
