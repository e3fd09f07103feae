/**
 * A child started before its task is planned: `xcsh run` starts one
 * `xcsh __child` as soon as it knows where and with what environment a local
 * child would run, so that the child loads while the parent discovers agents
 * and plans; the first task then writes its envelope to it instead of
 * starting a process (`executor.ts`).
 *
 * Decides when a spare may serve a task ({@link spareServes}): the task runs
 * locally (no launcher), in the spare's folder, with the spare's environment
 * (the envelope carries everything else, the spawn right and the blocked
 * agent included). Otherwise the task starts
 * its own child and the spare is released: its stdin closes, it reads no
 * envelope and exits. Until a task takes it, its output is kept, and its end
 * reported to the task that takes it.
 *
 * @example
 * ```ts
 * const spare = startSpareChild({ PATH: "/usr/bin", XCSH_TASK_DEPTH: "1" }, "/home/ada/app");
 * spare.release(); // no task took it: it exits
 * ```
 *
 * @module
 */
import process from "node:process";
import { type PipedProcess, type PipedSpawn, selfCommand, spawnPiped } from "../../runtime.ts";
import { PARENT_PIPE, TASK_MARK } from "../../protocol/variables.ts";
import type { TaskEnvelope } from "../../protocol/envelope.ts";

let spares = 0;

/** What a task binds to a spare: where its output and its end go. */
export type SpareHandlers = Pick<PipedSpawn, "onStdout" | "onStderr" | "onClose" | "onError">;

/** A child taken by a task: its process, its mark, and its output bound. */
export interface TakenSpare {
  /** The value of `XCSH_TASK_MARK` in its environment. */
  mark: string;
  process: Promise<PipedProcess>;
}

export interface SpareChild {
  readonly cwd: string;
  /** Its environment, without `XCSH_PARENT_PIPE` and `XCSH_TASK_MARK`. */
  readonly env: Readonly<Record<string, string>>;
  /**
   * The child for a task that {@link spareServes} allows, its output bound to
   * `handlers` (what it wrote before is passed on first); undefined when it
   * was taken, released or already ended, or may not serve `task`.
   */
  take(task: SpareTask, handlers: SpareHandlers): TakenSpare | undefined;
  /** Ends a spare no task took (its stdin closes); nothing once taken. */
  release(): void;
}

/** What decides whether a spare may serve a task. */
export interface SpareTask {
  envelope: TaskEnvelope;
  /** The environment the task's child would get. */
  env: Readonly<Record<string, string>>;
  /** A launcher: the child runs elsewhere. */
  launched: boolean;
}

/**
 * Whether a spare started in `cwd` with `env` may serve `task`: the same
 * folder and the same environment, whole (the envelope carries everything
 * else, the spawn right and the blocked agent included). Pure.
 */
export function spareServes(
  spare: { cwd: string; env: Readonly<Record<string, string>> },
  task: SpareTask,
): boolean {
  if (task.launched || task.envelope.cwd !== spare.cwd) return false;
  const keys = new Set([...Object.keys(spare.env), ...Object.keys(task.env)]);
  for (const k of keys) if (spare.env[k] !== task.env[k]) return false;
  return true;
}

/** Starts `xcsh __child` in `cwd` with `env`, waiting for an envelope on stdin. */
export function startSpareChild(env: Readonly<Record<string, string>>, cwd: string): SpareChild {
  const mark = `${process.pid}-spare${++spares}-${Math.random().toString(36).slice(2)}`;
  let handlers: SpareHandlers | undefined;
  let state: "waiting" | "taken" | "released" = "waiting";
  let stdout = "";
  let stderr = "";
  let ended: { code: number | null; signal: string | null } | { error: Error } | undefined;
  const self = selfCommand();
  const started = spawnPiped({
    command: self.command,
    args: [...self.args, "__child"],
    cwd,
    env: { ...env, [PARENT_PIPE]: "1", [TASK_MARK]: mark },
    detached: true,
    onStdout: (text) => handlers ? handlers.onStdout(text) : void (stdout += text),
    onStderr: (text) => handlers ? handlers.onStderr(text) : void (stderr += text),
    onClose: (code, signal) =>
      handlers ? handlers.onClose(code, signal) : void (ended = { code, signal }),
    onError: (error) => handlers ? handlers.onError(error) : void (ended = { error }),
  });
  // A spawn that failed outright is an end too.
  started.catch((error: Error) => void (ended ??= { error }));
  return {
    cwd,
    env,
    take(task, bind) {
      if (state !== "waiting" || ended !== undefined || !spareServes({ cwd, env }, task)) {
        return undefined;
      }
      state = "taken";
      handlers = bind;
      if (stdout) bind.onStdout(stdout);
      if (stderr) bind.onStderr(stderr);
      stdout = stderr = "";
      return { mark, process: started };
    },
    release() {
      if (state !== "waiting") return;
      state = "released";
      // Its output is not wanted: it says only that no envelope came.
      handlers = { onStdout: () => {}, onStderr: () => {}, onClose: () => {}, onError: () => {} };
      started.then((child) => child.end(), () => {});
    },
  };
}
