/**
 * `xcsh logs ID [--json] [-f]`: a session's transcript — the assignment,
 * each tool call with its arguments and summary, follow-ups, the result.
 * ID is a session id, or a background run's id (then each of its sessions).
 * `--json` prints the session's records as JSON Lines; `-f` keeps printing
 * as the session grows until no process holds it any more. An unknown id is
 * a usage error naming it; a corrupt line is an error naming it (the records
 * before it are shown); a last line cut off by an interrupted write is left
 * out with a note on stderr. The file is read record by record, never whole.
 *
 * @module
 */
import { statSync } from "node:fs";
import { writeOut } from "../text/stdio.ts";
import { parseFlags } from "./args.ts";
import { requireDataDir } from "./data-dir.ts";
import { EXIT_FAILURE, EXIT_OK, UsageError } from "./errors.ts";
import { readRun } from "../sessions/background.ts";
import { isValidId } from "../sessions/ids.ts";
import { lockHolder } from "../sessions/lock.ts";
import { sessionsDirectory } from "../sessions/paths.ts";
import {
  scanSession,
  sessionFile,
  sessionLockFile,
  type SessionRecord,
} from "../sessions/store.ts";
import { transcriptLines } from "../sessions/transcript.ts";
import { writeErr } from "../text/stdio.ts";

const HELP = `Usage: xcsh logs ID [--json] [-f]

Prints the transcript of session ID (or of every session of background run
ID): the assignment, each tool call with its arguments and summary, and the
result. --json prints the session's records as JSON Lines; -f follows a
session that is still running until it ends.
`;

const POLL_MS = 200;

function exists(file: string): boolean {
  return statSync(file, { throwIfNoEntry: false }) !== undefined;
}

function print(r: SessionRecord, json: boolean): void {
  if (json) writeOut(JSON.stringify(r) + "\n");
  else for (const line of transcriptLines(r)) writeOut(line + "\n");
}

/**
 * Prints one session, record by record as it is read (the file is never
 * held whole); with `follow`, until no live process holds its lock.
 */
async function showSession(
  dir: string,
  id: string,
  json: boolean,
  follow: boolean,
): Promise<number> {
  const file = sessionFile(dir, id);
  const lock = sessionLockFile(dir, id);
  const pos = { offset: 0, line: 0 };
  for (;;) {
    const live = follow && lockHolder(lock) !== undefined;
    if (exists(file)) {
      const scanned = scanSession(file, id, pos, {
        final: !live,
        onRecord: (r) => {
          print(r, json);
          return true;
        },
      });
      if (!scanned.ok) {
        writeErr(`xcsh: ${scanned.message}\n`);
        return EXIT_FAILURE;
      }
      if (scanned.note) writeErr(`xcsh: note: ${scanned.note}\n`);
      if (!live && pos.line === 0) {
        writeErr(`xcsh: session ${id} is empty (${file})\n`);
        return EXIT_FAILURE;
      }
    }
    if (!live) return EXIT_OK;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

export async function logsCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("logs", args, {
    json: { type: "boolean" },
    follow: { type: "boolean", short: "f" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) {
    writeOut(HELP);
    return EXIT_OK;
  }
  const [id] = positionals;
  if (!id || positionals.length > 1) throw new UsageError("logs: expected one session or run ID");
  const data = requireDataDir("logs");
  const dir = sessionsDirectory(data);
  const json = values.json === true;
  const follow = values.follow === true;
  if (isValidId(id) && exists(sessionFile(dir, id))) {
    return await showSession(dir, id, json, follow);
  }
  let run = readRun(data, id);
  if (!run) {
    throw new UsageError(
      `logs: no session or background run '${id}'`,
      "Run 'xcsh tasks' for runs.",
    );
  }
  // A run that has just started may not know its sessions yet.
  while (follow && run.sessions.length === 0 && run.status === "running") {
    await new Promise((r) => setTimeout(r, POLL_MS));
    run = readRun(data, id) ?? run;
  }
  let code = EXIT_OK;
  for (const s of run.sessions) {
    if (run.sessions.length > 1 && !json) writeOut(`=== ${s}\n`);
    code = Math.max(code, await showSession(dir, s, json, follow));
  }
  if (run.sessions.length === 0 && !json) writeOut(`run ${id} has no session (${run.status})\n`);
  return code;
}
