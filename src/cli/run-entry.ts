/**
 * `xcsh run`'s front door: `--background` is handled here, before the task
 * runner is loaded, so that starting a background run costs about as much
 * as `xcsh --version`. The flags are checked first (a mistake is reported
 * now, not in a log later); then `xcsh run` without `--background` starts
 * detached, and its run id is printed on stdout.
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

/** True when `--background` is among the flags (before any `--`). */
function wantsBackground(args: readonly string[]): boolean {
  for (const a of args) {
    if (a === "--") return false;
    if (a === "--background") return true;
  }
  return false;
}

export async function runEntry(args: string[]): Promise<number> {
  if (!wantsBackground(args)) return (await import("./run.ts")).runCommand(args);
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
