/**
 * Runs one task in a child copy of xcsh and reports what became of it.
 *
 * Decides how a child is started (this executable re-executed as
 * `xcsh __child` in its own process group, envelope on stdin), how its JSON
 * Lines events are read, and how a run ends: the child's `result` event; a
 * timeout or a cancellation (the child gets a `cancel` control message on
 * its stdin when it reads the channel, and SIGTERM, and ends its own tree,
 * so a sub-task never dies before its parent knows it is cancelled; what is
 * left of the tree, as it stood when the end began, gets SIGKILL when the
 * child exits or after a grace period, and so does every process carrying
 * the task's mark, `XCSH_TASK_MARK` in its environment, which finds what
 * double-forked out of the tree); or a child that exits without a result,
 * reported with the tail of its stderr. Under a budget it answers the
 * child's `budget_request` events on the child's stdin from the run's
 * budget, and refuses to run a child that does not read control messages.
 * A `rate_limit` event one child reports is merged here and sent on every
 * other running child's open channel as a `rate_limit` control message
 * (`model/pause-relay.ts`).
 *
 * @module
 */
import process from "node:process";
import { killMarked, killPids, killTree, listDescendants } from "../../process/process-tree.ts";
import { type PipedProcess, selfCommand, spawnPiped } from "../../runtime.ts";
import { launchCommand, protocolVariables } from "./launch-command.ts";
import type { LaunchPlan } from "../../plan/launcher-choice.ts";
import type { TaskResult, TokenUsage } from "../../types.ts";
import type { TaskEnvelope } from "../../protocol/envelope.ts";
import { envelopeText } from "../../protocol/envelope-builder.ts";
import { PARENT_PIPE, TASK_MARK } from "../../protocol/variables.ts";
import { type ChildEvent, parseEventLine } from "../../protocol/events.ts";
import { controlLine, RATE_LIMIT_VERSION } from "../../protocol/control.ts";
import type { BudgetLink } from "../../protocol/budget-link.ts";
import { learnedFromChild, listenDown, type PauseListener } from "../../model/pause-relay.ts";
import { admitForChild, readingFrom } from "../../model/provider-gate.ts";
import type { RateLimitReading, RateLimitScope } from "../../model/rate-limit-view.ts";
import type { SpareChild } from "./spare-child.ts";

let taskCount = 0;

/** How long a child has to exit after SIGTERM before it gets SIGKILL. */
export const KILL_GRACE_MS = 3000;
const STDERR_TAIL_BYTES = 8 * 1024;

export interface ChildRun {
  envelope: TaskEnvelope;
  /** The complete environment of the child. */
  env: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
  onEvent?: (event: ChildEvent) => void;
  /** Called once the child process exists. */
  onSpawn?: (pid: number) => void;
  /** Start the child through this launcher, running `binary` on the far side. */
  launch?: { plan: LaunchPlan; binary: readonly string[] };
  /** The run's budget: the child asks it before each model call, over its stdin. */
  budget?: BudgetLink;
  /** A child started ahead (`spare-child.ts`), used instead of a new one when it may serve. */
  spare?: SpareChild;
}

function lastLines(text: string, n: number): string {
  return text.trimEnd().split("\n").slice(-n).join("\n");
}

/** Starts the child, feeds it the envelope and waits for its outcome. */
export async function spawnChild(run: ChildRun): Promise<TaskResult> {
  const started = Date.now();
  // A spent budget starts no task; a budget makes the child ask before each call.
  if (run.budget?.exhausted()) {
    return {
      id: run.envelope.id,
      agent: run.envelope.agent.name,
      status: "budget",
      error: "not started: the run's budget is spent",
      durationMs: 0,
    };
  }
  // Every child is paced by this process: one view admits the tree's requests.
  const envelope: TaskEnvelope = {
    ...run.envelope,
    pace: true,
    ...(run.budget ? { budget: true as const } : {}),
  };
  // The child's admitted requests, until their answers are reported; their
  // waits end when the task does.
  const admitted = new Map<string, (reading?: RateLimitReading) => void>();
  const admissions = new AbortController();
  // The child's request ids and the grants they stand for, until settled.
  const grants = new Map<string, string>();
  // Whether the child said it reads control messages (its `start` event).
  let readsControl = false;
  // This child's share of the pauses its siblings find, once its channel is open.
  const hearPauses: PauseListener = (pauses) => {
    if (settled || ending) return;
    for (const p of pauses) {
      child?.write(controlLine({ type: "rate_limit", version: RATE_LIMIT_VERSION, ...p }));
    }
  };
  let unlisten: (() => void) | undefined;
  // A budget spent elsewhere in the tree: this child starts no sub-task either.
  let unlistenBudget: (() => void) | undefined;
  const self = selfCommand();
  const usage: TokenUsage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  let sawUsage = false;
  let turns = 0;
  let ranOn: string | undefined;
  let fallback: string | undefined;
  let textParts = "";
  let final: Extract<ChildEvent, { type: "result" }> | undefined;
  let stderr = "";
  let ending: "timeout" | "cancelled" | "protocol" | undefined;
  let protocolError = "";
  let graceTimer: ReturnType<typeof setTimeout> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let settled = false;
  let child: PipedProcess | undefined = undefined;
  // The tree as it stood when stopping began: the escalation must reach its members even
  // after the child is gone and they have been re-parented.
  let signalled: number[] = [];
  let resolve!: (r: TaskResult) => void;
  const outcome = new Promise<TaskResult>((r) => (resolve = r));

  const finish = (result: Omit<TaskResult, "id" | "agent" | "durationMs">) => {
    if (settled) return;
    settled = true;
    unlisten?.();
    unlistenBudget?.();
    admissions.abort();
    for (const leave of admitted.values()) leave();
    admitted.clear();
    clearTimeout(timer);
    clearTimeout(graceTimer);
    child?.end();
    run.signal?.removeEventListener("abort", onAbort);
    resolve({
      id: envelope.id,
      agent: envelope.agent.name,
      ...result,
      ...(sawUsage ? { usage } : {}),
      ...(ranOn !== undefined ? { model: ranOn, turns } : {}),
      ...(fallback ? { fallback: { reason: fallback } } : {}),
      durationMs: Date.now() - started,
    });
  };

  let mark = `${process.pid}-${++taskCount}-${Math.random().toString(36).slice(2)}`;
  const stop = (why: "timeout" | "cancelled" | "protocol") => {
    if (ending || settled) return;
    ending = why;
    // A child that reads the control channel hears it there too: through a
    // launcher the signal may not reach the far side, the pipe does.
    if (readsControl && why !== "protocol") {
      child?.write(controlLine({ type: "cancel", reason: why }));
    }
    const pid = child?.pid;
    if (pid !== undefined) {
      // The tree is collected first, so that its members can still be reached
      // once the child is gone and they have been re-parented.
      signalled = [pid, ...listDescendants(pid)];
      killPids([pid], "SIGTERM");
      graceTimer = setTimeout(() => {
        killTree(pid, "SIGKILL");
        killPids(signalled, "SIGKILL");
        killMarked(TASK_MARK, mark, "SIGKILL");
      }, KILL_GRACE_MS);
    }
  };
  const onAbort = () => stop("cancelled");

  const env = { ...run.env, [PARENT_PIPE]: "1", [TASK_MARK]: mark };
  const spawnWith = run.launch
    ? launchCommand(
      run.launch.plan,
      {
        task: envelope.id,
        agent: envelope.agent.name,
        session: envelope.session ?? "",
        cwd: envelope.cwd,
      },
      protocolVariables(env),
      run.launch.binary,
    )
    : { command: self.command, args: [...self.args, "__child"] };
  const launcher = run.launch
    ? `launcher '${run.launch.plan.name}' (${spawnWith.command})`
    : undefined;
  let sawEvent = false;

  let pending = "";
  const onStdout = (chunk: string) => {
    pending += chunk;
    let nl: number;
    while ((nl = pending.indexOf("\n")) >= 0) {
      const line = pending.slice(0, nl);
      const event = parseEventLine(line);
      pending = pending.slice(nl + 1);
      if (!event) {
        // Through a launcher, anything before the protocol means the far side
        // is not an xcsh child (a banner, a shell's error, another program).
        if (launcher && !sawEvent && line.trim() !== "" && !ending) {
          protocolError = `${launcher}: the far side wrote something other than xcsh's ` +
            `protocol on stdout: ${JSON.stringify(line.trim().slice(0, 200))}`;
          stop("protocol");
        }
        continue;
      }
      sawEvent = true;
      if (event.type === "budget_request" || event.type === "budget_spent") {
        onBudget(event);
        continue;
      }
      if (event.type === "pace_request" || event.type === "pace_done") {
        onPace(event);
        continue;
      }
      if (event.type === "start") {
        ranOn = event.model;
        fallback = event.note;
        readsControl = event.control !== undefined;
        if (readsControl && !unlisten) unlisten = listenDown(hearPauses);
        if (readsControl && run.budget && !unlistenBudget) {
          unlistenBudget = run.budget.onExhausted((reason) => {
            if (!settled && !ending) child?.write(controlLine({ type: "exhausted", reason }));
          });
        }
        if (run.budget && event.control === undefined && !ending) {
          protocolError = `the child reads no control channel (an xcsh older than this one?), ` +
            `so it cannot run under the run's budget`;
          stop("protocol");
        }
      } else if (event.type === "usage") {
        sawUsage = true;
        turns++;
        usage.input += event.input ?? 0;
        usage.output += event.output ?? 0;
        usage.cacheRead = (usage.cacheRead ?? 0) + (event.cacheRead ?? 0);
        usage.cacheWrite = (usage.cacheWrite ?? 0) + (event.cacheWrite ?? 0);
      } else if (event.type === "rate_limit") {
        // What one child learns about a provider holds every other task.
        learnedFromChild(event, readsControl ? hearPauses : undefined);
      } else if (event.type === "text") {
        textParts += event.delta ?? "";
      } else if (event.type === "result" && !final) {
        final = event;
      }
      run.onEvent?.(event);
    }
  };

  /** A budget question from the child, answered on its stdin; a report of what a call used. */
  const onBudget = (
    event: Extract<ChildEvent, { type: "budget_request" | "budget_spent" }>,
  ) => {
    const budget = run.budget;
    if (!budget || typeof event.reqId !== "string") return;
    if (event.type === "budget_spent") {
      const up = grants.get(event.reqId);
      if (up === undefined) return;
      grants.delete(event.reqId);
      budget.spent(up, event.model, {
        input: event.input,
        output: event.output,
        cacheRead: event.cacheRead,
        cacheWrite: event.cacheWrite,
      });
      return;
    }
    const reqId = event.reqId;
    void budget.request(event.model, event.input, event.output).then((answer) => {
      if (answer.ok) grants.set(reqId, answer.reqId);
      if (settled) return;
      child?.write(
        controlLine(
          answer.ok ? { type: "grant", reqId } : { type: "deny", reqId, reason: answer.reason },
        ),
      );
    });
  };

  /** A paced child's request, admitted by this process's view; an answer's limits. */
  const onPace = (event: Extract<ChildEvent, { type: "pace_request" | "pace_done" }>) => {
    if (typeof event.reqId !== "string" || event.reqId.length > 128) return;
    if (event.type === "pace_done") {
      const leave = admitted.get(event.reqId);
      admitted.delete(event.reqId);
      leave?.(readingFrom(event));
      return;
    }
    if (typeof event.provider !== "string" || typeof event.key !== "string") return;
    if (admitted.has(event.reqId)) return;
    const scope: RateLimitScope = { provider: event.provider, key: event.key };
    if (typeof event.model === "string") scope.model = event.model;
    const tokens = Number.isFinite(event.tokens) && event.tokens > 0 ? event.tokens : 0;
    const reqId = event.reqId;
    admitForChild(scope, tokens, {
      signal: admissions.signal,
      onWait: (ms) =>
        run.onEvent?.({
          type: "waiting",
          id: envelope.id,
          reason: "rate_limit",
          provider: event.provider,
          ms,
        }),
    }).then((leave) => {
      if (settled) return leave();
      admitted.set(reqId, leave);
      child?.write(controlLine({ type: "pace_grant", reqId }));
    }, () => {/* the task ended while its request waited */});
  };

  const onClose = (code: number | null, signal: string | null) => {
    // The child has had its chance to end its own tree; whatever of it
    // still runs ignored SIGTERM.
    if (ending && signalled.length > 1) killPids(signalled.slice(1), "SIGKILL");
    // Whatever of the task left the tree (a double fork) still carries its mark.
    if (ending) killMarked(TASK_MARK, mark, "SIGKILL");
    const tail = pending.trim() ? parseEventLine(pending) : undefined;
    if (tail?.type === "result" && !final) final = tail;
    if (ending === "protocol") {
      finish({ status: "error", error: protocolError });
    } else if (ending === "timeout") {
      finish({
        status: "error",
        error: `timed out after ${
          Math.round(run.timeoutMs / 1000)
        } s; the task's processes were ended`,
        ...(textParts ? { text: textParts } : {}),
      });
    } else if (ending === "cancelled") {
      finish({
        status: "cancelled",
        error: "cancelled",
        ...(textParts ? { text: textParts } : {}),
      });
    } else if (final) {
      // A failed task through a launcher also names what the launcher and
      // its engine said (a cancelled job step, a time limit, a lost node):
      // the last lines of stderr that are not the child's own `xcsh:` ones.
      const engine = launcher && final.status !== "ok" && code !== 0
        ? stderr.split("\n").map((l) => l.trim()).filter((l) => l !== "" && !l.startsWith("xcsh:"))
          .slice(-3).join("; ")
        : "";
      const error = final.error !== undefined && engine
        ? `${final.error} (${launcher} exited with code ${code ?? signal}: ${engine})`
        : final.error;
      finish({
        status: final.status === "ok"
          ? "ok"
          : final.reason === "max_turns" || final.reason === "stopped" ||
              final.reason === "budget"
          ? final.reason
          : "error",
        ...(final.data !== undefined ? { data: final.data } : {}),
        ...(final.text !== undefined ? { text: final.text } : textParts ? { text: textParts } : {}),
        ...(error !== undefined ? { error } : {}),
      });
    } else if (launcher) {
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      const last = lastLines(stderr, 1);
      finish({
        status: "error",
        error: `${launcher} ${how} without a result${last ? `: ${last}` : " (no stderr)"}`,
      });
    } else {
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      const detail = stderr.trim() ? `; its stderr ended with:\n${lastLines(stderr, 20)}` : "";
      finish({ status: "error", error: `the child process ${how} without a result${detail}` });
    }
  };

  const onStderr = (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_TAIL_BYTES);
  };
  const onError = (err: Error) =>
    finish({
      status: "error",
      error: `could not start ${launcher ?? "the child process"}: ${err.message}`,
    });
  // A child started ahead, already loading, when it may serve this task.
  const taken = run.spare?.take(
    { envelope, env: run.env, launched: run.launch !== undefined },
    { onStdout, onStderr, onClose, onError },
  );
  if (taken) mark = taken.mark;
  child = taken ? await taken.process : await spawnPiped({
    command: spawnWith.command,
    args: spawnWith.args,
    cwd: envelope.cwd,
    // The pipe stays open after the envelope: its end tells the child that
    // this process is gone, however it died, and the child then stops.
    env,
    detached: true,
    onStdout,
    onStderr,
    onClose,
    onError,
  });
  if (!settled) {
    timer = setTimeout(() => stop("timeout"), run.timeoutMs);
    if (run.signal?.aborted) queueMicrotask(onAbort);
    else run.signal?.addEventListener("abort", onAbort, { once: true });
    if (child.pid !== undefined) run.onSpawn?.(child.pid);
    child.write(envelopeText(envelope) + "\n");
  }
  return outcome;
}
