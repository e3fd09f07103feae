/**
 * The rounds of a task with acceptance checks: after the child submits,
 * the parent runs the checks; when one fails and rounds are left, the
 * child's conversation goes on with the failures as its next user message
 * (the session's messages so far as its history, so both rounds are in its
 * session); when they still fail, the task ends `rejected`, keeping its
 * result, the checks' outcomes and its artifacts. A task that did not end
 * `ok` is not checked. A check that cannot run at all fails the task
 * (`error`) naming the check. A task without a session (its messages are not
 * recorded) cannot be continued: it is judged on its first round.
 *
 * @module
 */
import { wellFormed } from "../../sessions/replay.ts";
import { redact } from "../../text/redact.ts";
import type { TaskEnvelope } from "../../protocol/envelope.ts";
import type { TaskResult } from "../../types.ts";
import type { AcceptPlan } from "../../plan/accept-plan.ts";
import type { StartState } from "./changes.ts";
import type { ScriptPins } from "./check-scripts.ts";
import type { CommandPlace } from "./check-command.ts";
import { evaluateChecks } from "./evaluate.ts";
import { checkFeedback } from "./feedback.ts";

export interface Rounds {
  plan: AcceptPlan;
  /** The envelope of the first round (its folder decided). */
  envelope: TaskEnvelope;
  start: StartState | { error: string } | undefined;
  /** The check commands' scripts, pinned before the child started. */
  pins?: ScriptPins;
  place: Omit<CommandPlace, "envelope">;
  /** Values hidden from what the child is told (the run's secrets). */
  secrets: readonly string[];
  /** Runs one round of the child; `messages` receives the messages it adds. */
  runRound: (envelope: TaskEnvelope, messages: unknown[]) => Promise<TaskResult>;
}

function sum(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0);
}

/** The later round's result, with the earlier rounds' usage, turns and time added. */
function merged(before: TaskResult, after: TaskResult): TaskResult {
  const u = before.usage;
  const v = after.usage;
  const usage = u && v
    ? {
      input: u.input + v.input,
      output: u.output + v.output,
      ...(u.cacheRead !== undefined || v.cacheRead !== undefined
        ? { cacheRead: (u.cacheRead ?? 0) + (v.cacheRead ?? 0) }
        : {}),
      ...(u.cacheWrite !== undefined || v.cacheWrite !== undefined
        ? { cacheWrite: (u.cacheWrite ?? 0) + (v.cacheWrite ?? 0) }
        : {}),
    }
    : v ?? u;
  const turns = sum(before.turns, after.turns);
  const durationMs = sum(before.durationMs, after.durationMs);
  return {
    ...after,
    ...(usage ? { usage } : {}),
    ...(turns !== undefined ? { turns } : {}),
    ...(durationMs !== undefined ? { durationMs } : {}),
  };
}

/** Runs the child until its work is accepted or its rounds run out. */
export async function runRounds(r: Rounds): Promise<TaskResult> {
  let envelope = r.envelope;
  const added: unknown[] = [];
  let result = await r.runRound(envelope, added);
  for (let round = 0;; round++) {
    if (result.status !== "ok") return result;
    const ev = await evaluateChecks({
      checks: r.plan.checks,
      skipped: r.plan.skipped,
      data: result.data,
      start: r.start,
      pins: r.pins,
      place: { ...r.place, envelope },
    });
    const checked: TaskResult = {
      ...result,
      checks: ev.outcomes,
      verified: ev.outcomes.every((o) => o.ok),
      ...(round > 0 ? { acceptRounds: round } : {}),
    };
    if (ev.broken) return { ...checked, status: "error", error: ev.broken };
    const failed = ev.outcomes.filter((o) => !o.ok && !o.skipped);
    if (failed.length === 0) return checked;
    const names = failed.map((o) => `'${o.name}'`).join(", ");
    if (round >= r.plan.retries || envelope.session === undefined) {
      const why = round >= r.plan.retries
        ? round === 0 ? "" : ` after ${round + 1} rounds`
        : " (no session was kept, so the child could not be sent back)";
      return {
        ...checked,
        status: "rejected",
        error: `acceptance check${failed.length === 1 ? "" : "s"} ${names} failed${why}`,
      };
    }
    const history = wellFormed([...(envelope.history ?? []), ...added]).messages;
    added.length = 0;
    envelope = {
      ...envelope,
      assignment: redact(checkFeedback(ev.outcomes, r.plan.retries - round - 1), r.secrets),
      history,
    };
    result = merged(checked, await r.runRound(envelope, added));
  }
}
