/**
 * A child whose agent is remote (`kind: remote`, the envelope's `remote`):
 * the task's loop runs on the far side, over A2A. The child reads the card
 * (inline, or fetched under `web_fetch`'s address rules with the user's
 * `task.webFetchAllow`), sends the assignment as one message (streamed when
 * the card says the agent streams; a resumed session continues its A2A
 * context, and the task that waits for input), reports each status message
 * as text, and ends with one result (`a2a/task-outcome.ts`). A stream that
 * ends before the task settles is followed by one `get` of the task; a
 * blocking send that returns early is polled. The stop signal (the
 * envelope's timeout, a cancel) sends the task's cancel, then ends.
 * Session records: the assignment, then the answer with the A2A context
 * (`a2a.contextId`) a resume continues.
 *
 * @module
 */
import type { RemoteTarget, TaskEnvelope } from "../protocol/envelope.ts";
import type { Emit } from "../protocol/events.ts";
import type { XcshConfig } from "../types.ts";
import type { OutputValidator } from "../schema/output-schema.ts";
import type { LoopOutcome } from "./loop.ts";
import { StopReason } from "./child-steps.ts";
import { CONTROL_VERSION } from "../protocol/control.ts";
import type { CardRead } from "../a2a/agent-card.ts";
import { fetchCard, inlineCard } from "../a2a/card-source.ts";
import { A2ACallError, rpcCall, rpcStream, type RpcTarget } from "../a2a/json-rpc-client.ts";
import { type Continuing, sendParams, taskParams } from "../a2a/rpc-shapes.ts";
import { type TaskTracker, taskTracker } from "../a2a/task-tracker.ts";
import { taskOutcome } from "../a2a/task-outcome.ts";
import { INTERRUPTED_STATES } from "../a2a/task-updates.ts";
import { isRecord } from "../formats/values.ts";
import { sleep } from "../process/abortable-sleep.ts";

/** How long a cancel sent on the way out may take (within the parent's grace before its kill). */
export const CANCEL_WAIT_MS = 2_000;
/** The pause between two `get`s of a task a blocking send left running. */
export const POLL_MS = 500;

export interface RemoteRun {
  envelope: TaskEnvelope;
  remote: RemoteTarget;
  config: XcshConfig;
  emit: Emit;
  /** Ends the run: the envelope's timeout, or a cancel. */
  signal: AbortSignal;
  depth: number;
  /** The child reads the control channel. */
  control: boolean;
  validator: OutputValidator | undefined;
  /** Values no output may show (the credentials). */
  addSecrets(values: readonly string[]): void;
}

/** The A2A context (and waiting task) a resumed session continues. */
export function continuingFrom(history: readonly unknown[] | undefined): Continuing {
  for (const m of [...(history ?? [])].reverse()) {
    if (!isRecord(m) || !isRecord(m.a2a)) continue;
    const { contextId, taskId } = m.a2a;
    return {
      ...(typeof contextId === "string" && contextId ? { contextId } : {}),
      ...(typeof taskId === "string" && taskId ? { taskId } : {}),
    };
  }
  return {};
}

/**
 * The child's run for a remote agent: the task, then its one `result`
 * event; the exit code (0 only for an ok result). `stop` is released at the end.
 */
export async function remoteChild(
  r: Omit<RemoteRun, "signal"> & { stop: { signal: AbortSignal; release(): void } },
): Promise<number> {
  let outcome: LoopOutcome;
  try {
    outcome = await runRemoteTask({ ...r, signal: r.stop.signal });
  } catch (err) {
    outcome = {
      status: "error",
      error: `internal error: ${err instanceof Error ? err.message : err}`,
    };
  } finally {
    r.stop.release();
  }
  r.emit({ type: "result", id: r.envelope.id, ...outcome });
  return outcome.status === "ok" ? 0 : 1;
}

/** Runs the remote task; the caller emits the result. */
export async function runRemoteTask(r: RemoteRun): Promise<LoopOutcome> {
  const { envelope, remote, emit } = r;
  const id = envelope.id;
  r.addSecrets(Object.values(remote.headers).flatMap((h) => [h, h.replace(/^\S+\s+/, "")]));
  emit({
    type: "start",
    id,
    agent: envelope.agent.name,
    model: envelope.model ?? `a2a/${envelope.agent.name}`,
    depth: r.depth,
    ...(envelope.session ? { session: envelope.session } : {}),
    ...(r.control ? { control: CONTROL_VERSION } : {}),
  });
  const allow = r.config.task.webFetchAllow ?? [];
  const where = envelope.agent.filePath ?? envelope.agent.name;
  let card: CardRead;
  try {
    card = remote.cardJson !== undefined
      ? inlineCard(remote.cardJson, `${where}: agent_card_json`)
      : await fetchCard(remote.cardUrl ?? "", remote.headers, allow, r.signal);
  } catch (err) {
    return stopped(r, err, remote.cardUrl ?? where);
  }
  if (!card.ok) return { status: "error", error: card.error };
  const target: RpcTarget = { card: card.card, headers: remote.headers, allow, signal: r.signal };
  const tracker = taskTracker();
  const continuing = continuingFrom(envelope.history);
  if (envelope.session) {
    emit({ type: "message", id, message: { role: "user", content: envelope.assignment } });
  }
  try {
    await exchange(r, target, tracker, continuing);
  } catch (err) {
    if (r.signal.aborted) {
      await cancelOnTheWayOut(target, tracker);
      return stopped(r, r.signal.reason, card.card.url);
    }
    if (err instanceof A2ACallError) return { status: "error", error: err.message };
    throw err;
  }
  const outcome = taskOutcome(tracker, envelope.agent.name, r.validator);
  if (envelope.session) {
    const waiting = INTERRUPTED_STATES.includes(tracker.state);
    emit({
      type: "message",
      id,
      message: {
        role: "assistant",
        content: outcome.status === "ok" ? outcome.text : outcome.error,
        a2a: {
          contextId: tracker.contextId,
          ...(waiting && tracker.taskId ? { taskId: tracker.taskId } : {}),
        },
      },
    });
  }
  return outcome.status === "ok"
    ? { status: "ok", text: outcome.text, ...("data" in outcome ? { data: outcome.data } : {}) }
    : outcome;
}

/** Sends the assignment and follows the task until it settles. */
async function exchange(
  r: RemoteRun,
  target: RpcTarget,
  tracker: TaskTracker,
  continuing: Continuing,
): Promise<void> {
  const params = sendParams(
    target.card.version,
    r.envelope.assignment,
    crypto.randomUUID(),
    continuing,
  );
  const said = (text: string) => {
    if (text !== "") r.emit({ type: "text", id: r.envelope.id, delta: `${text}\n` });
  };
  if (target.card.streaming) {
    let broke: A2ACallError | undefined;
    try {
      for await (const update of rpcStream(target, params)) {
        tracker.apply(update);
        if (update.kind === "status") said(update.text);
        if (tracker.settled()) break;
      }
    } catch (err) {
      // A stream that breaks after naming its task: the task says how it went.
      if (!(err instanceof A2ACallError) || !tracker.taskId || r.signal.aborted) throw err;
      broke = err;
    }
    if (tracker.settled()) return;
    if (!tracker.taskId) {
      throw new A2ACallError(`${target.card.url}: the stream ended before it named a task`);
    }
    // The stream dropped: the task itself says how it ended.
    const got = await rpcCall(target, "get", taskParams(tracker.taskId)).catch((err) => {
      if (!(err instanceof A2ACallError)) throw err;
      throw new A2ACallError(
        `the stream dropped${broke ? ` (${broke.message.replace(/^.*: /, "")})` : ""} ` +
          `before task ${tracker.taskId} finished; ${err.message}`,
      );
    });
    if (got) tracker.apply(got);
    if (!tracker.settled()) {
      throw new A2ACallError(
        `${target.card.url}: the stream ended while task ${tracker.taskId} was still ` +
          `${tracker.state}`,
      );
    }
    return;
  }
  const first = await rpcCall(target, "send", params);
  if (first) tracker.apply(first);
  if (first?.kind === "task" || first?.kind === "status") said(tracker.statusText);
  while (!tracker.settled()) {
    if (!tracker.taskId) {
      throw new A2ACallError(`${target.card.url}: the answer named no task to follow`);
    }
    await sleep(POLL_MS, r.signal);
    const before = tracker.statusText;
    const got = await rpcCall(target, "get", taskParams(tracker.taskId));
    if (got) tracker.apply(got);
    if (tracker.statusText !== before) said(tracker.statusText);
  }
}

/** Asks the far side to cancel a task that has not settled (bounded; its answer is not needed). */
async function cancelOnTheWayOut(target: RpcTarget, tracker: TaskTracker): Promise<void> {
  if (!tracker.taskId || tracker.settled()) return;
  const signal = AbortSignal.timeout(CANCEL_WAIT_MS);
  await rpcCall({ ...target, signal }, "cancel", taskParams(tracker.taskId)).catch(() => {});
}

function stopped(r: RemoteRun, reason: unknown, url: string): LoopOutcome {
  if (reason instanceof StopReason && reason.message.startsWith("timed out")) {
    return {
      status: "error",
      error: `${reason.message} (limits.timeoutMs ${r.envelope.limits.timeoutMs}; ` +
        `remote agent at ${url})`,
    };
  }
  const message = reason instanceof Error ? reason.message : String(reason);
  return { status: "error", error: message };
}
