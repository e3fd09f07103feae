/**
 * `xcsh wait ID [--json]`: waits for a background run to end, prints its
 * outcome as `xcsh run` would have, and exits with its code. A run whose
 * process died says so (exit 1); a run that stopped on a usage error shows
 * that error (exit 2). An unknown id is a usage error naming it.
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { writeErr, writeOut } from "../text/stdio.ts";
import { parseFlags } from "./args.ts";
import { requireDataDir } from "./data-dir.ts";
import { EXIT_FAILURE, EXIT_OK, UsageError } from "./errors.ts";
import { printResults } from "./results.ts";
import { readRun, runOutputFiles, type RunState } from "../sessions/background.ts";

const HELP = `Usage: xcsh wait ID [--json]

Waits for background run ID to end, prints its result as 'xcsh run' would
(one JSON document with --json) and exits with the run's exit code.
`;

const POLL_MS = 200;

/** Reads run `id`, or throws a usage error naming it. */
export function knownRun(data: string, id: string, command: string): RunState {
  const run = readRun(data, id);
  if (!run) {
    throw new UsageError(`${command}: no background run '${id}'`, "Run 'xcsh tasks' for the list.");
  }
  return run;
}

export async function waitCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("wait", args, {
    json: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) {
    writeOut(HELP);
    return EXIT_OK;
  }
  const [id] = positionals;
  if (!id || positionals.length > 1) throw new UsageError("wait: expected one run ID");
  const data = requireDataDir("wait");
  let run = knownRun(data, id, "wait");
  while (run.status === "running") {
    await new Promise((r) => setTimeout(r, POLL_MS));
    run = knownRun(data, id, "wait");
  }
  if (run.exit?.results && run.exit.agent) {
    const code = printResults(run.exit.agent, run.exit.results, values.json ? "json" : "text");
    return run.exit.code ?? code;
  }
  if (run.exit) {
    // It stopped before running any task: its own message says why.
    try {
      writeErr(readFileSync(runOutputFiles(data, id).stderr, "utf8"));
    } catch {
      writeErr(`xcsh: run ${id} ended with code ${run.exit.code}\n`);
    }
    return run.exit.code;
  }
  writeErr(
    run.status === "cancelled"
      ? `xcsh: run ${id} was cancelled\n`
      : `xcsh: run ${id} died: its process (pid ${run.record.pid}) ended without a result\n`,
  );
  return EXIT_FAILURE;
}
