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
import { homeDirectory } from "../home.ts";
import { runChild, StopReason, type TaskRunnerContext } from "./run.ts";
import { runId } from "../task/artifacts.ts";
import { readCallerState } from "../task/guards.ts";
import { TaskTool } from "../task/tool.ts";
import type { TaskRunner } from "../tools/types.ts";

/** Longest wait for a cancelled run to report before the process exits anyway. */
const SIGNAL_GRACE_MS = 3000;

/**
 * The envelope from stdin. A parent xcsh keeps the pipe open after the first
 * line (`XCSH_PARENT_PIPE=1`) so that its end means the parent is gone: then
 * `onParentGone` runs. Anyone else may simply pipe the envelope and close.
 */
function readEnvelope(watchParent: boolean, onParentGone: () => void): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    let done = false;
    process.stdin.setEncoding("utf8");
    process.stdin.on("data", (chunk: string) => {
      if (done) return;
      text += chunk;
      const nl = watchParent ? text.indexOf("\n") : -1;
      if (nl >= 0) {
        done = true;
        resolve(text.slice(0, nl));
      }
    });
    process.stdin.on("end", () => {
      if (!done) {
        done = true;
        resolve(text);
      } else if (watchParent) onParentGone();
    });
    process.stdin.on("error", (err) => (done ? onParentGone() : reject(err)));
  });
}

/**
 * The `task` tool's runner: the same parent-side runner as `xcsh run`, with
 * this child as the caller (its depth, spawn rights and blocked agent come
 * from its own environment) and its model and schema as the parent's.
 * Guard refusals reach the model as the tool's error.
 */
function taskRunnerFor(ctx: TaskRunnerContext): TaskRunner {
  return async (req, signal) => {
    const caller = readCallerState(process.env);
    if (!caller.ok) throw new Error(caller.message);
    const tool = new TaskTool({
      env: { cwd: ctx.envelope.cwd, home: homeDirectory(), env: process.env },
      config: ctx.config,
      caller: caller.state,
      runId: runId(),
      parentSchema: ctx.envelope.outputSchema ?? undefined,
      parentModel: ctx.model,
      planMode: ctx.envelope.planMode,
    });
    const outcome = await tool.execute(req, signal);
    if (!outcome.ok) throw new Error(outcome.message);
    return outcome.results;
  };
}

/** Entry point for `xcsh __child`. */
export async function childCommand(_args: string[]): Promise<number> {
  // The AI SDK logs warnings with console.warn; keep stdout for events only.
  (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
  const abort = new AbortController();
  let finished = false;
  const onSignal = (why: string) => {
    abort.abort(
      new StopReason(
        why === "parent exit" ? "the parent process went away" : `interrupted by ${why}`,
      ),
    );
    const t = setTimeout(() => {
      if (!finished) process.exit(1);
    }, SIGNAL_GRACE_MS);
    t.unref?.();
  };
  const onTerm = () => onSignal("SIGTERM");
  const onInt = () => onSignal("SIGINT");
  const onHup = () => onSignal("SIGHUP");
  process.on("SIGTERM", onTerm);
  process.on("SIGINT", onInt);
  process.on("SIGHUP", onHup);
  try {
    const watchParent = process.env.XCSH_PARENT_PIPE === "1";
    const input = process.stdin.isTTY
      ? ""
      : await readEnvelope(watchParent, () => onSignal("parent exit"));
    const code = await runChild(input, {
      env: process.env,
      home: homeDirectory(),
      writeEvent: (line) => process.stdout.write(line),
      log: (line) => process.stderr.write(line + "\n"),
      taskRunnerFor,
      abort: abort.signal,
    });
    finished = true;
    // Stop watching the parent's pipe, so nothing keeps this process alive.
    process.stdin.destroy();
    // Anything still open (a keep-alive socket, a straggling timer) must not
    // keep the process alive once the result is out.
    const t = setTimeout(() => process.exit(code), 1000);
    t.unref?.();
    return code;
  } finally {
    process.off("SIGTERM", onTerm);
    process.off("SIGINT", onInt);
    process.off("SIGHUP", onHup);
  }
}
