/**
 * `xcsh run --output-format stream-json`: the run as JSON Lines on stdout,
 * written as it happens, one object per line, each line written whole
 * (parallel tasks never interleave mid-line), nothing else on stdout.
 *
 * The records are those a session file holds and `xcsh logs --json`
 * prints — `{"type": "event", "event": {…}}` for each child event and
 * `{"type": "result", "at", "result": {…}}` for each task's outcome — between
 * a first `run_start` and a last `run_result` record that only the stream
 * has, and a `run_progress` record (done / running / queued / waiting tasks,
 * tokens, dollars, each task's step) every second and once before the last. Conversation `message` events are left out: answer text arrives as
 * `text` deltas. When the reader goes away (`| head -1`), `onClosed` is
 * told once and nothing more is written.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * const stream = new StreamJson(() => controller.abort());
 * stream.runStart("explore", [{ id: "0-explore" }]);
 * ```
 *
 * @module
 */
import type { BudgetReport } from "../runner/budget/budget-governor.ts";
import { writeText } from "../text/stdio.ts";
import type { TaskResult } from "../types.ts";
import type { ChildEvent } from "../protocol/events.ts";
import type { RunSnapshot } from "../progress/run-tally.ts";

/** The version of the stream's records; fields are only ever added within a version. */
export const STREAM_VERSION = 1;

export class StreamJson {
  private closed = false;

  constructor(
    private readonly onClosed: () => void,
    private readonly write: (line: string) => boolean = (line) => writeText(1, line),
  ) {}

  private line(record: Record<string, unknown>): void {
    if (this.closed) return;
    if (!this.write(JSON.stringify(record) + "\n")) {
      this.closed = true;
      this.onClosed();
    }
  }

  /** The first line: the agent and the tasks about to start. */
  runStart(agent: string, tasks: readonly { id: string; session?: string }[]): void {
    this.line({ type: "run_start", version: STREAM_VERSION, agent, tasks });
  }

  /** A child's event, as its session records it. */
  event(event: ChildEvent): void {
    if (event.type !== "message") this.line({ type: "event", event });
  }

  /** Where the run stands (`progress/run-tally.ts`): written every second while it runs, and last before `run_result`. */
  runProgress(snapshot: RunSnapshot): void {
    this.line({ type: "run_progress", at: new Date().toISOString(), ...snapshot });
  }

  /** One task's outcome, as its session records it. */
  result(result: TaskResult): void {
    this.line({ type: "result", at: new Date().toISOString(), result });
  }

  /** The last line: every task's outcome and the exit code, or why nothing started. */
  runResult(
    agent: string,
    outcome:
      | { results: readonly TaskResult[]; budget?: BudgetReport }
      | { error: string; kind: string },
    exitCode: number,
  ): void {
    this.line({ type: "run_result", version: STREAM_VERSION, agent, ...outcome, exitCode });
  }
}
