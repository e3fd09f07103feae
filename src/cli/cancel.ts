/**
 * `xcsh cancel ID`: ends a background run's whole process tree (SIGTERM,
 * then SIGKILL for whatever is left after a grace period) and waits for it
 * to go. The run's own tasks report themselves cancelled. Ending a run that
 * already ended is not an error; an unknown id is.
 *
 * @module
 */
import { writeOut } from "../text/stdio.ts";
import { parseFlags } from "./args.ts";
import { requireDataDir } from "./data-dir.ts";
import { EXIT_OK, UsageError } from "./errors.ts";
import { knownRun } from "./wait.ts";
import { markCancelled } from "../sessions/background.ts";
import process from "node:process";
import { killPids, killTree, listDescendants } from "../process/process-tree.ts";
import { isProcessAlive } from "../sessions/liveness.ts";

const HELP = `Usage: xcsh cancel ID

Ends background run ID and every process it started.
`;

const GRACE_MS = 5000;

export async function cancelCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("cancel", args, {
    help: { type: "boolean", short: "h" },
  });
  if (values.help) {
    writeOut(HELP);
    return EXIT_OK;
  }
  const [id] = positionals;
  if (!id || positionals.length > 1) throw new UsageError("cancel: expected one run ID");
  const data = requireDataDir("cancel");
  let run = knownRun(data, id, "cancel");
  // Just launched: wait (bounded) for the process to record itself.
  for (let i = 0; i < 100 && run.status === "running" && run.record.pid === 0; i++) {
    await new Promise((r) => setTimeout(r, 50));
    run = knownRun(data, id, "cancel");
  }
  if (run.status !== "running") {
    writeOut(`run ${id} is not running (${run.status})\n`);
    return EXIT_OK;
  }
  markCancelled(data, id);
  if (run.record.pid <= 0) {
    // Never signal pid 0 (this process group): the run has not started.
    writeOut(`run ${id} has not started its process; marked cancelled\n`);
    return EXIT_OK;
  }
  const { pid, mark } = run.record;
  // The run itself cancels its tasks (they report so); what is left after
  // the grace period is killed.
  const tree = [pid, ...listDescendants(pid)];
  try {
    process.kill(pid, "SIGTERM");
  } catch {
    // gone meanwhile
  }
  const until = Date.now() + GRACE_MS;
  while (isProcessAlive(pid, mark) && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100));
  }
  if (isProcessAlive(pid, mark)) killTree(pid, "SIGKILL");
  killPids(tree.slice(1), "SIGKILL");
  writeOut(`cancelled run ${id}\n`);
  return EXIT_OK;
}
