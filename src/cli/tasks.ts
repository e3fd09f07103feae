/**
 * `xcsh tasks [--json]`: the background runs, oldest first, with their id,
 * agent, status (running, ok, failed, cancelled, died), start and duration.
 *
 * @module
 */
import { writeOut } from "../text/stdio.ts";
import { parseFlags } from "./args.ts";
import { formatDuration, requireDataDir } from "./data-dir.ts";
import { EXIT_OK } from "./errors.ts";
import { formatTable, printJson } from "./output.ts";
import { listRuns } from "../sessions/background.ts";

const HELP = `Usage: xcsh tasks [--json]

Lists background runs (started with 'xcsh run --background'): id, agent,
status (running, ok, failed, cancelled, died), start time and duration.
See also: xcsh wait ID, xcsh logs ID [-f], xcsh cancel ID.
`;

export async function tasksCommand(args: string[]): Promise<number> {
  const { values } = parseFlags("tasks", args, {
    json: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) {
    writeOut(HELP);
    return EXIT_OK;
  }
  const runs = listRuns(requireDataDir("tasks"));
  if (values.json) {
    printJson({
      version: 1,
      runs: runs.map((r) => ({
        id: r.record.id,
        agent: r.record.agent,
        status: r.status,
        started: r.record.started,
        durationMs: r.durationMs,
        pid: r.record.pid,
        cwd: r.record.cwd,
        sessions: r.sessions,
        ...(r.exit ? { code: r.exit.code } : {}),
      })),
    });
    return await Promise.resolve(EXIT_OK);
  }
  if (runs.length === 0) {
    writeOut("no background runs\n");
    return EXIT_OK;
  }
  writeOut(formatTable(
    ["ID", "AGENT", "STATUS", "STARTED", "DURATION"],
    runs.map((r) => [
      r.record.id,
      r.record.agent,
      r.status,
      r.record.started.replace("T", " ").slice(0, 19),
      formatDuration(r.durationMs),
    ]),
  ));
  return EXIT_OK;
}
