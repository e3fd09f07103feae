/**
 * How `xcsh -p` prints a run (see claude-shapes.ts for the records): `text`
 * prints the result's text (an error on stderr), `json` one `result` object
 * at the end, `stream-json` one record per line as the task goes. Decides
 * the exit code as Claude Code does (0 success, 1 error) and enforces
 * `--max-budget-usd`: after each model call the task's cost so far is
 * priced, and past the budget the task is stopped before its next call.
 *
 * @module
 */
import process from "node:process";
import { writeErr, writeText } from "../text/stdio.ts";
import { EXIT_FAILURE, EXIT_OK } from "./errors.ts";
import { failureLine, resultBody } from "./results.ts";
import type { RunPresenter } from "./run.ts";
import type { OutputFormat } from "./output-format.ts";
import type { PriceCall } from "../runner/task-cost.ts";
import type { TaskResult, XcshConfig } from "../types.ts";
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
  budgetUSD?: number;
  /** The pricing of a model call (loaded only when there is a budget). */
  price?: PriceCall;
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
  private config?: XcshConfig;
  private abort: () => void = () => {};
  private spentUSD = 0;
  private unpriced = false;
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
    this.config = info.config;
    this.abort = info.abort;
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
    if (e.type === "usage") {
      this.tally.turns++;
      this.checkBudget({
        input: e.input ?? 0,
        output: e.output ?? 0,
        cacheRead: e.cacheRead ?? 0,
        cacheWrite: e.cacheWrite ?? 0,
      });
    }
    if (this.o.format !== "stream-json") return;
    if (e.type === "message") {
      const r = messageRecord(e.message, this.session);
      if (r) this.record(r);
    } else if (e.type === "text" && this.o.partial) {
      this.record(partialRecord(e.delta, this.session));
    }
  }

  /** Adds one call's price; past the budget, stops the task. */
  private checkBudget(
    usage: { input: number; output: number; cacheRead: number; cacheWrite: number },
  ) {
    const { budgetUSD, price } = this.o;
    if (budgetUSD === undefined || !price || !this.config || this.tally.budgetStopped) return;
    if (this.model === undefined || this.unpriced) return;
    const cost = price(this.model, usage, this.config, process.env, new Date());
    if (!cost.ok) {
      this.unpriced = true;
      writeErr(`xcsh: --max-budget-usd cannot be kept: ${cost.reason}\n`);
      return;
    }
    this.spentUSD += cost.usd;
    if (this.spentUSD > budgetUSD) {
      this.tally.budgetStopped = true;
      writeErr(
        `xcsh: the task has cost $${
          this.spentUSD.toFixed(4)
        }, over --max-budget-usd ${budgetUSD}: stopped\n`,
      );
      this.abort();
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
    const why = this.tally.budgetStopped && r.status === "cancelled"
      ? { error: `stopped: the task cost more than --max-budget-usd ${this.o.budgetUSD}` }
      : {};
    const shaped = resultRecord({ ...r, ...why }, this.tally);
    if (this.o.format === "text") {
      if (r.status === "ok") this.write(resultBody(r) + "\n");
      else writeErr(failureLine({ ...r, ...why }) + "\n");
    } else this.record(shaped);
    return r.status === "ok" ? EXIT_OK : EXIT_FAILURE;
  }
}
