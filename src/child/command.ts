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
import { isTerminal, writeErr, writeOutRaw } from "../stdio.ts";
import { EnvelopeTooLarge, readEnvelope } from "./stdin.ts";
import { homeDirectory } from "../home.ts";
import { runChild, StopReason, type TaskRunnerContext } from "./child-main.ts";
import { runId } from "../runner/artifacts.ts";
import { createLimiter } from "../process/concurrency.ts";
import { readCallerState } from "../runner/guards.ts";
import type { TaskRunner } from "../tools/types.ts";

/** Longest wait for a cancelled run to report before the process exits anyway. */
const SIGNAL_GRACE_MS = 3000;

/**
 * The `task` tool's runner: the same parent-side runner as `xcsh run`, with
 * this child as the caller (its depth, spawn rights and blocked agent come
 * from its own environment) and its model and schema as the parent's.
 * Guard refusals reach the model as the tool's error. Concurrent calls share
 * one cap of `task.maxConcurrency` sub-agents.
 */
function taskRunnerFor(ctx: TaskRunnerContext): TaskRunner {
  // The `task` calls of one turn run side by side: together they start at
  // most task.maxConcurrency sub-agents at once.
  const limiter = createLimiter(ctx.config.task.maxConcurrency);
  return async (req, signal) => {
    const caller = readCallerState(process.env);
    if (!caller.ok) throw new Error(caller.message);
    // The parent-side code loads only in a child that delegates.
    const { TaskTool } = await import("../runner/task-runner.ts");
    const tool = new TaskTool({
      env: { cwd: ctx.envelope.cwd, home: homeDirectory(), env: process.env },
      config: ctx.config,
      caller: caller.state,
      runId: runId(),
      parentSchema: ctx.envelope.outputSchema ?? undefined,
      parentModel: ctx.model,
      planMode: ctx.envelope.planMode,
      limiter,
      // Without envelope keys (a child started by hand), its own environment's.
      ...(ctx.envelope.keys ? { keys: ctx.envelope.keys } : {}),
      ...(ctx.envelope.agentSet ? { agentSet: ctx.envelope.agentSet } : {}),
      ...(ctx.envelope.sandbox ? { sandbox: ctx.envelope.sandbox } : {}),
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
    let input = "";
    try {
      if (!isTerminal(0)) {
        input = await readEnvelope({ watchParent, onParentGone: () => onSignal("parent exit") });
      }
    } catch (err) {
      if (!(err instanceof EnvelopeTooLarge)) throw err;
      // Its own error, reported as the protocol's result (not a model failure).
      writeOutRaw(
        JSON.stringify({ type: "result", id: "", status: "error", error: err.message }) + "\n",
      );
      process.exit(1);
    }
    const code = await runChild(input, {
      env: process.env,
      home: homeDirectory(),
      writeEvent: (line) => writeOutRaw(line),
      log: (line) => writeErr(line + "\n"),
      taskRunnerFor,
      abort: abort.signal,
    });
    finished = true;
    // Events are written synchronously, so the result is out: end now instead
    // of waiting for the watch on the parent's pipe, a keep-alive socket or a
    // straggling timer.
    process.exit(code);
    return code;
  } finally {
    process.off("SIGTERM", onTerm);
    process.off("SIGINT", onInt);
    process.off("SIGHUP", onHup);
  }
}
