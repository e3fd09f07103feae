/**
 * `xcsh __child`: the process side of the parent–child protocol. Reads the
 * envelope from stdin, writes JSON Lines events to stdout (nothing else goes
 * there), human text to stderr, and exits 0 only when the result is ok.
 * SIGTERM and SIGINT cancel the model call and every command, report an
 * error result and exit. Hidden from `--help`: it is meant for the parent.
 *
 * @module
 */
import process from "node:process";
import { homedir } from "node:os";
import { runChild, StopReason } from "./run.ts";
import { unavailableTaskRunner } from "../tools/task.ts";
import type { TaskRunner } from "../tools/types.ts";

/** Longest wait for a cancelled run to report before the process exits anyway. */
const SIGNAL_GRACE_MS = 3000;

function readStdin(): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    process.stdin.on(
      "data",
      (c: Buffer | string) => chunks.push(typeof c === "string" ? Buffer.from(c) : c),
    );
    process.stdin.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    process.stdin.on("error", reject);
  });
}

/** The task runner for the `task` tool; the parent-side runner plugs in here. */
function taskRunner(): TaskRunner {
  return unavailableTaskRunner;
}

/** Entry point for `xcsh __child`. */
export async function childCommand(_args: string[]): Promise<number> {
  // The AI SDK logs warnings with console.warn; keep stdout for events only.
  (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
  const abort = new AbortController();
  let finished = false;
  const onSignal = (signal: NodeJS.Signals) => {
    abort.abort(new StopReason(`interrupted by ${signal}`));
    const t = setTimeout(() => {
      if (!finished) process.exit(1);
    }, SIGNAL_GRACE_MS);
    t.unref?.();
  };
  const onTerm = () => onSignal("SIGTERM");
  const onInt = () => onSignal("SIGINT");
  process.on("SIGTERM", onTerm);
  process.on("SIGINT", onInt);
  try {
    const input = process.stdin.isTTY ? "" : await readStdin();
    const code = await runChild(input, {
      env: process.env,
      home: process.env.HOME ?? homedir(),
      writeEvent: (line) => process.stdout.write(line),
      log: (line) => process.stderr.write(line + "\n"),
      runTask: taskRunner(),
      abort: abort.signal,
    });
    finished = true;
    // Anything still open (a keep-alive socket, a straggling timer) must not
    // keep the process alive once the result is out.
    const t = setTimeout(() => process.exit(code), 1000);
    t.unref?.();
    return code;
  } finally {
    process.off("SIGTERM", onTerm);
    process.off("SIGINT", onInt);
  }
}
