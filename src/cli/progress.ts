/**
 * Shows task progress on stderr while `xcsh run` waits.
 *
 * Decides the two forms: on a terminal, one live line per task (state, the
 * tool calls running now, side by side when there are several, its turns
 * and tokens, elapsed time) and one total line for the run (done / running
 * / queued / waiting on a rate limit, tokens, dollars) redrawn in place,
 * colours unless `NO_COLOR` is set; elsewhere, one plain line per milestone
 * (start, tool calls, retries, a wait for a slot or a rate limit, end), so
 * logs stay readable. A model fallback is said on a line of its own in both,
 * and so is a note on the model's context window: each once per run and
 * agent, however many of its tasks start (siblings on one model share it).
 * An ending says only the status: the error is reported once, with the
 * results. Stdout is never touched.
 *
 * @module
 */
import process from "node:process";
import { isTerminal, writeErrRaw } from "../text/stdio.ts";
import { cleanText } from "../text/clean-text.ts";
import type { TaskResult } from "../types.ts";
import type { ChildEvent } from "../protocol/events.ts";
import { oneLine } from "../text/labels.ts";
import { compactLabel } from "../progress/compact-label.ts";
import { retryLabel } from "../progress/retry-label.ts";
import { RunningTools } from "../progress/running-tools.ts";
import { type BudgetSpend, runLine, RunTally, shortCount } from "../progress/run-tally.ts";

/** Where progress goes: stderr unless a test passes its own. */
export interface ProgressOutput {
  isTTY: boolean;
  write(text: string): void;
}

interface Row {
  id: string;
  agent: string;
  state: string;
  started: number;
  done?: TaskResult;
}

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)}s`;
}

export class Progress {
  private rows = new Map<string, Row>();
  private running = new RunningTools();
  private tally = new RunTally();
  private timer?: ReturnType<typeof setInterval>;
  private drawn = 0;
  private frame = 0;
  /** The start notes said so far, by agent: a sibling's same note is not said again. */
  private noted = new Set<string>();
  private readonly tty: boolean;
  private readonly color: boolean;

  private readonly out: ProgressOutput;

  constructor(out?: ProgressOutput) {
    this.out = out ?? { isTTY: isTerminal(2), write: writeErrRaw };
    this.tty = this.out.isTTY;
    this.color = this.tty && !process.env.NO_COLOR;
  }

  /** Under a budget: the total line says what it has counted so far against its limits. */
  budgetFrom(read: () => BudgetSpend): void {
    this.tally.budgetFrom(read);
  }

  add(id: string, agent: string): void {
    this.tally.add(id);
    this.rows.set(id, {
      id: cleanText(id),
      agent: cleanText(agent),
      state: "starting",
      started: Date.now(),
    });
    if (this.tty && !this.timer) {
      this.timer = setInterval(() => this.draw(), 120);
      this.timer.unref?.();
    }
  }

  event(id: string, e: ChildEvent): void {
    const row = this.rows.get(id);
    if (!row) return;
    this.tally.event(id, e);
    if (e.type === "waiting") {
      row.state = e.reason === "queued"
        ? "queued"
        : `waiting on ${cleanText(String(e.provider ?? "the provider"))}'s rate limit${
          e.ms ? ` (${seconds(e.ms)})` : ""
        }`;
      this.plain(`[${row.id}] ${row.state}`);
    } else if (e.type === "usage" && row.state.startsWith("waiting on")) {
      row.state = "thinking";
    } else if (e.type === "start") {
      row.state = `running (${cleanText(String(e.model))})`;
      if (e.note) this.note(row, String(e.note));
      if (e.windowNote) this.note(row, String(e.windowNote));
      this.plain(`[${row.id}] ${row.agent} started on ${cleanText(String(e.model))}`);
    } else if (e.type === "retry") {
      row.state = cleanText(retryLabel(e));
      this.plain(`[${row.id}] ${row.state}`);
    } else if (e.type === "compact") {
      this.say(`[${row.id}] ${row.agent}: ${cleanText(compactLabel(e))}`);
    } else if (e.type === "tool_start" || e.type === "tool_end") {
      // A tool_end with no tool_start reports a tool that could not be set
      // up (an MCP server that did not start): its message is shown whole.
      const paired = this.running.event(id, e);
      row.state = cleanText(this.running.label(id)) || "thinking";
      if (e.type === "tool_start") this.plain(`[${row.id}] ${row.state}`);
      else if (e.ok === false) {
        // A refused or failed call must not read like one that ran.
        const failed = `✗ ${cleanText(oneLine(e.tool, 30))} failed`;
        if (this.running.count(id) === 0) row.state = failed;
        this.plain(`[${row.id}] ${failed}: ${oneLine(e.summary ?? "", paired ? 100 : 300)}`);
      } else if (e.tool === "todo") {
        // The model's checklist shows as it changes.
        this.plain(`[${row.id}] checklist: ${oneLine(e.summary ?? "", 100)}`);
      }
    }
  }

  finish(result: TaskResult): void {
    const row = this.rows.get(result.id);
    if (!row) return;
    row.done = result;
    this.tally.finish(result.id, result.costUSD);
    this.plain(`[${row.id}] ${result.status} after ${seconds(Date.now() - row.started)}`);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.tty) this.draw();
  }

  /** Says a start note of `row`'s agent, once per run. */
  private note(row: Row, text: string): void {
    const key = `${row.agent}\0${text}`;
    if (this.noted.has(key)) return;
    this.noted.add(key);
    this.say(`[${row.id}] ${row.agent}: ${cleanText(text)}`);
  }

  private plain(line: string): void {
    if (!this.tty) this.out.write(cleanText(`xcsh: ${line}\n`));
  }

  /** A line that stays: above the live rows on a terminal, in the log elsewhere. */
  private say(line: string): void {
    if (!this.tty) return this.plain(line);
    let s = "";
    if (this.drawn > 0) s += `\x1b[${this.drawn}A\x1b[0J`;
    this.drawn = 0;
    this.out.write(`${s}\r\x1b[2Kxcsh: ${line}\n`);
    this.draw();
  }

  private paint(code: string, text: string): string {
    return this.color ? `\x1b[${code}m${text}\x1b[0m` : text;
  }

  private draw(): void {
    this.frame = (this.frame + 1) % FRAMES.length;
    const snapshot = this.tally.snapshot();
    const turns = new Map(snapshot.tasks.map((t) => [t.id, t]));
    const lines = [...this.rows].map(([key, r]) => {
      const elapsed = seconds(r.done?.durationMs ?? Date.now() - r.started);
      if (r.done) {
        const mark = r.done.status === "ok" ? this.paint("32", "✓") : this.paint("31", "✗");
        return `${mark} ${r.id} ${this.paint("2", r.agent)} ${r.done.status} ${elapsed}`;
      }
      const t = turns.get(key);
      const counts = t && t.turns > 0
        ? ` ${
          this.paint(
            "2",
            `turn ${t.turns} · ${shortCount(t.tokens)} tokens${
              t.costUSD ? ` · $${t.costUSD.toFixed(t.costUSD < 1 ? 4 : 2)}` : ""
            }`,
          )
        }`
        : "";
      return `${this.paint("36", FRAMES[this.frame])} ${r.id} ${
        this.paint("2", r.agent)
      } ${r.state}${counts} ${elapsed}`;
    });
    if (this.rows.size > 1) lines.push(this.paint("1", runLine(snapshot)));
    let s = this.drawn > 0 ? `\x1b[${this.drawn}A` : "";
    for (const l of lines) s += `\r\x1b[2K${l}\n`;
    this.drawn = lines.length;
    this.out.write(s);
  }
}
