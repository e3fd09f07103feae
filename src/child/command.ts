/**
 * `xcsh __child`: the process side of the parent–child protocol. Reads the
 * envelope from stdin, writes JSON Lines events to stdout (nothing else goes
 * there), human text to stderr, and exits 0 only when the result is ok.
 * SIGTERM and SIGINT cancel the model call and every command, report an
 * error result and exit. Started by a parent xcsh, it ends when the parent
 * is gone: noticed at the end of the parent's pipe, and by the orphan watch
 * (`child/orphan-watch.ts`) when the main thread is too busy to notice.
 * Hidden from `--help`: it is meant for the parent.
 *
 * @module
 */
import process from "node:process";
import { isTerminal, writeErr, writeOutRaw } from "../text/stdio.ts";
import { EnvelopeTooLarge, readEnvelope } from "./stdin.ts";
import type { ControlMessage } from "../protocol/control.ts";
import { homeDirectory } from "../fs/home.ts";
import { type ChildDeps, childMain, StopReason } from "./child-main.ts";
import { COMMAND_MARK, parentPipe } from "../protocol/variables.ts";
import { orphanWatch } from "./orphan-watch.ts";
import { commandMarkPrefix } from "../tools/command-groups.ts";

/** Longest wait for a cancelled run to report before the process exits anyway. */
const SIGNAL_GRACE_MS = 3000;

/**
 * Entry point for `xcsh __child`; `taskRunnerFor` builds the runner of the
 * child's `task` tool (the parent side's, handed in by the dispatcher).
 */
export async function childCommand(
  _args: string[],
  taskRunnerFor?: ChildDeps["taskRunnerFor"],
): Promise<number> {
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
    const watchParent = parentPipe(process.env);
    // The pipe's end is noticed by the main thread; a main thread that is
    // busy for good (a runaway computation on what the model sent) is ended
    // by the orphan watch, which also ends every command it started. It
    // starts with the first tool call: before it, nothing the model sent is
    // worked on, and a child that only answers does not pay for a thread.
    const watch = watchParent
      ? orphanWatch({
        graceMs: SIGNAL_GRACE_MS,
        mark: { name: COMMAND_MARK, prefix: commandMarkPrefix() },
      })
      : undefined;
    const control = controlHub();
    let input = "";
    try {
      if (!isTerminal(0)) {
        input = await readEnvelope({
          watchParent,
          onParentGone: () => {
            control.gone();
            onSignal("parent exit");
          },
          onControl: (m) => {
            if (m.type === "cancel") onSignal("a cancel from the parent");
            else control.message(m);
          },
        });
      }
    } catch (err) {
      if (!(err instanceof EnvelopeTooLarge)) throw err;
      // Its own error, reported as the protocol's result (not a model failure).
      writeOutRaw(
        JSON.stringify({ type: "result", id: "", status: "error", error: err.message }) + "\n",
      );
      process.exit(1);
    }
    const code = await childMain(input, {
      env: process.env,
      home: homeDirectory(),
      writeEvent: (line) => writeOutRaw(line),
      log: (line) => writeErr(line + "\n"),
      ...(taskRunnerFor ? { taskRunnerFor } : {}),
      abort: abort.signal,
      ...(watch ? { beforeTool: () => void watch.start() } : {}),
      ...(watchParent ? { control } : {}),
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

/** Where the control messages read on stdin go once the child listens for them. */
function controlHub() {
  let onMessage: ((m: ControlMessage) => void) | undefined;
  let onGone: (() => void) | undefined;
  let gone = false;
  return {
    listen(m: (m: ControlMessage) => void, g: () => void) {
      onMessage = m;
      onGone = g;
      if (gone) g();
    },
    message: (m: ControlMessage) => onMessage?.(m),
    gone() {
      gone = true;
      onGone?.();
    },
  };
}
