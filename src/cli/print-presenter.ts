/**
 * How `xcsh -p` prints a run (see claude-shapes.ts for the records): `text`
 * prints the result's text (an error on stderr), `json` one `result` object
 * at the end, `stream-json` one record per line as the task goes. Decides
 * the exit code as Claude Code does (0 success, 1 error). `--max-budget-usd`
 * is the run's budget (`runner/budget/run-budget.ts`), kept before each model call;
 * a task it stopped ends with the subtype `error_max_budget_usd`.
 *
 * @module
 */
import { writeErr, writeText } from "../text/stdio.ts";
import { EXIT_FAILURE, EXIT_OK } from "./errors.ts";
import { failureLine, resultBody } from "./results.ts";
import type { RunPresenter } from "./run.ts";
import type { OutputFormat } from "./output-format.ts";
import type { TaskResult } from "../types.ts";
import {
  initRecord,
  messageRecord,
  partialRecord,
  resultRecord,
  type Tally,
} from "./claude-shapes.ts";

export interface PrintOptions {
  format: OutputFormat;
  partial: boolean;
  cwd: string;
  agent: string;
  /** Where lines go (stdout). */
  write?: (line: string) => void;
}

export class PrintPresenter implements RunPresenter {
  private readonly started = Date.now();
  private readonly tally: Tally = { turns: 0, durationMs: 0, budgetStopped: false };
  private session?: string;
  private model?: string;
  private readonly write: (line: string) => void;

  constructor(private readonly o: PrintOptions) {
    this.write = o.write ?? ((line) => void writeText(1, line));
  }

  private record(r: Record<string, unknown>): void {
    this.write(JSON.stringify(r) + "\n");
  }

  begin(info: Parameters<RunPresenter["begin"]>[0]): void {
    const t = info.tasks[0];
    this.session = t?.session?.id;
    this.model = t?.envelope.model ?? undefined;
    if (this.o.format === "stream-json") {
      this.record(initRecord({
        session: this.session,
        cwd: t?.envelope.cwd ?? this.o.cwd,
        tools: t?.envelope.toolSet?.tools ?? [],
        model: this.model,
        agent: this.o.agent,
      }));
    }
  }

  event(_taskId: string, e: Parameters<RunPresenter["event"]>[1]): void {
    if (e.type === "start") this.model = e.model;
    if (e.type === "usage") this.tally.turns++;
    if (this.o.format !== "stream-json") return;
    if (e.type === "message") {
      const r = messageRecord(e.message, this.session);
      if (r) this.record(r);
    } else if (e.type === "text" && this.o.partial) {
      this.record(partialRecord(e.delta, this.session));
    }
  }

  result(_r: TaskResult): void {}

  refused(message: string, _kind: string): number {
    writeErr(`xcsh: ${message}\n`);
    if (this.o.format !== "text") {
      this.record(resultRecord(
        { id: "", agent: this.o.agent, status: "error", error: message },
        { ...this.tally, durationMs: Date.now() - this.started },
      ));
    }
    return EXIT_FAILURE;
  }

  end(results: TaskResult[]): number {
    const r = results[0];
    if (!r) return EXIT_FAILURE;
    this.tally.durationMs = Date.now() - this.started;
    this.tally.budgetStopped = r.status === "budget";
    const shaped = resultRecord(r, this.tally);
    if (this.o.format === "text") {
      if (r.status === "ok") this.write(resultBody(r) + "\n");
      else writeErr(failureLine(r) + "\n");
    } else this.record(shaped);
    return r.status === "ok" ? EXIT_OK : EXIT_FAILURE;
  }
}
