/**
 * `xcsh run`'s front door: `--background` is handled here, before the task
 * runner is loaded, so that starting a background run costs about as much
 * as `xcsh --version`. The flags are checked first (a mistake is reported
 * now, not in a log later); then `xcsh run` without `--background` starts
 * detached, and its run id is printed on stdout.
 *
 * A run in this process starts its spare child here, before the rest of
 * `xcsh run` loads and the config is read, from what the flags and the
 * environment say (`earlySpareSetting`, `runner/spawn/spare-start.ts`): the
 * child loads while this process plans. `runCommand` keeps it when the
 * config puts the call's children in the same place, and releases it
 * otherwise; whatever a call leaves untaken ends with it.
 *
 * @module
 */
import process from "node:process";
import { writeOut } from "../text/stdio.ts";
import { parseFlags } from "./args.ts";
import { discoveryEnv } from "./context.ts";
import { EXIT_OK, UsageError } from "./errors.ts";
import { RUN_FLAGS } from "./run-flags.ts";
import { homeDirectory } from "../fs/home.ts";
import { dataDirectory } from "../sessions/paths.ts";
import { BACKGROUND_RUN, readCallerState } from "../protocol/variables.ts";
import { type SpareChild, startSpareChild } from "../runner/spawn/spare-child.ts";
import { earlySpareSetting } from "../runner/spawn/spare-start.ts";

/**
 * The spare child of a run in this process, started now, or undefined when
 * the flags or the environment already rule one out (or are wrong: the run
 * reports that itself). A background run's own process starts its spare
 * later: its environment changes first.
 */
function earlySpare(args: readonly string[]): SpareChild | undefined {
  if (process.env[BACKGROUND_RUN] !== undefined) return undefined;
  const caller = readCallerState(process.env);
  if (!caller.ok) return undefined;
  let cwd: string;
  let setting: ReturnType<typeof earlySpareSetting>;
  try {
    const { values } = parseFlags("run", [...args], RUN_FLAGS);
    if (values.help || values.resume !== undefined) return undefined;
    cwd = discoveryEnv(values.cwd).cwd;
    setting = earlySpareSetting({
      depth: caller.state.depth,
      env: process.env,
      call: {
        ...(values.isolation === "worktree" ? { isolation: "worktree" as const } : {}),
        ...(values.launcher !== undefined ? { launcher: values.launcher } : {}),
      },
      dryRun: values["dry-run"] === true,
    });
  } catch {
    return undefined;
  }
  return setting ? startSpareChild(setting.env, cwd) : undefined;
}

/** True when `--background` is among the flags (before any `--`). */
function wantsBackground(args: readonly string[]): boolean {
  for (const a of args) {
    if (a === "--") return false;
    if (a === "--background") return true;
  }
  return false;
}

export async function runEntry(args: string[]): Promise<number> {
  if (!wantsBackground(args)) {
    const early = earlySpare(args);
    try {
      return await (await import("./run.ts")).runCommand(args, early);
    } finally {
      early?.release(); // nothing once a task took it
    }
  }
  const { values, positionals } = parseFlags("run", args, RUN_FLAGS);
  if (values["dry-run"]) throw new UsageError("run: --background and --dry-run do not go together");
  const agent = values.resume !== undefined ? "(resume)" : positionals[0];
  if (!agent) {
    throw new UsageError("run: expected an AGENT name", "Run 'xcsh run --help' for usage.");
  }
  if (values.resume === undefined && positionals.length < 2 && (values.task ?? []).length === 0) {
    throw new UsageError(
      "run --background: give the assignment as arguments or with --task (stdin is not read)",
    );
  }
  const env = discoveryEnv(values.cwd);
  const data = dataDirectory(process.env, homeDirectory());
  if (!data) throw new UsageError("run --background needs a home folder or XCSH_DATA_DIR");
  const { launchBackground } = await import("../sessions/background.ts");
  const rest = args.filter((a) => a !== "--background");
  let id: string;
  try {
    id = await launchBackground({
      data,
      args: rest,
      agent,
      cwd: process.cwd(),
      folder: env.cwd,
      env: process.env,
    });
  } catch (err) {
    throw new Error(`cannot start the background run: ${(err as Error).message}`);
  }
  writeOut(id + "\n");
  return EXIT_OK;
}
