/**
 * Where a run stands, from its tasks' events: per task its current step
 * (`model call`, or the tools running now), its turns, tokens and dollars
 * (of the calls the runner priced: `usage` events with `costUSD`; a task's
 * own total once it ends), and for the run how many tasks are done,
 * running, queued for a slot, or waiting on a provider's rate limit, with
 * the tokens used and the dollars so far, and, under a budget, what the budget has counted
 * so far against its limits (every settled call, running tasks' too). One
 * tally feeds the terminal's total line, the
 * `run_progress` records of `stream-json` and MCP progress notifications.
 * Pure: events and results in, a {@link RunSnapshot} out.
 *
 * @example
 * ```ts
 * const tally = new RunTally();
 * tally.add("t1");
 * tally.event("t1", { type: "usage", id: "t1", input: 10, output: 5, cacheRead: 0, cacheWrite: 0 });
 * runLine(tally.snapshot()); // "0 done · 1 running · 15 tokens"
 * ```
 *
 * @module
 */
import type { ChildEvent } from "../protocol/events.ts";

type TaskState = "pending" | "queued" | "waiting" | "running" | "done";

/** One task in a snapshot. */
export interface TaskSnapshot {
  id: string;
  state: TaskState;
  /** `model call`, `starting`, or the tools running now (comma-separated). */
  step: string;
  turns: number;
  tokens: number;
  /** Dollars of its calls priced so far (its total once done); absent: none priced. */
  costUSD?: number;
}

/** What the run's budget has counted so far against its dollar and token limits. */
export interface BudgetSpend {
  limits: { usd?: number; tokens?: number };
  spent: { usd: number; tokens: number };
}

/** The whole run at one moment. */
export interface RunSnapshot {
  done: number;
  running: number;
  queued: number;
  /** Held until a provider's rate limit lets them go. */
  waiting: number;
  tokens: { input: number; output: number };
  /** Dollars so far: the ended tasks' totals and the running tasks' priced calls. */
  costUSD: number;
  /** Under a budget: spent so far, settled calls of running tasks included. */
  budget?: BudgetSpend;
  tasks: TaskSnapshot[];
}

interface TaskTally {
  state: TaskState;
  turns: number;
  tokens: number;
  costUSD?: number;
  tools: Map<string, string>;
}

export class RunTally {
  private readonly tasks = new Map<string, TaskTally>();
  private input = 0;
  private output = 0;
  private cost = 0;
  private budget?: () => BudgetSpend;

  /** Reads the run's budget at each snapshot (the governor holds the running totals). */
  budgetFrom(read: () => BudgetSpend): void {
    this.budget = read;
  }

  /** A task the run is about to start. */
  add(id: string): void {
    this.tasks.set(id, { state: "pending", turns: 0, tokens: 0, tools: new Map() });
  }

  /** Takes in one event of task `id` (a task not added yet is added). */
  event(id: string, e: ChildEvent): void {
    if (!this.tasks.has(id)) this.add(id);
    const t = this.tasks.get(id)!;
    if (t.state === "done") return;
    switch (e.type) {
      case "waiting":
        t.state = e.reason === "queued" ? "queued" : "waiting";
        break;
      case "start":
        t.state = "running";
        break;
      case "usage":
        t.state = "running";
        t.turns++;
        t.tokens += e.input + e.output;
        this.input += e.input;
        this.output += e.output;
        if (typeof e.costUSD === "number") t.costUSD = (t.costUSD ?? 0) + e.costUSD;
        break;
      case "tool_start":
        t.state = "running";
        t.tools.set(e.callId, e.tool);
        break;
      case "tool_end":
        t.tools.delete(e.callId);
        break;
      case "retry":
      case "text":
        t.state = "running";
        break;
    }
  }

  /** A task ended; `costUSD` counts when it was priced. */
  finish(id: string, costUSD?: number | null): void {
    const t = this.tasks.get(id);
    if (!t || t.state === "done") return;
    t.state = "done";
    t.tools.clear();
    if (typeof costUSD === "number") {
      t.costUSD = costUSD;
      this.cost += costUSD;
    } else delete t.costUSD;
  }

  snapshot(): RunSnapshot {
    const count = (s: TaskState) => [...this.tasks.values()].filter((t) => t.state === s).length;
    const b = this.budget?.();
    let running = 0;
    for (const t of this.tasks.values()) if (t.state !== "done") running += t.costUSD ?? 0;
    return {
      done: count("done"),
      // A task started but not yet heard from is running.
      running: count("running") + count("pending"),
      queued: count("queued"),
      waiting: count("waiting"),
      tokens: { input: this.input, output: this.output },
      costUSD: this.cost + running,
      ...(b
        ? {
          budget: {
            limits: {
              ...(b.limits.usd !== undefined ? { usd: b.limits.usd } : {}),
              ...(b.limits.tokens !== undefined ? { tokens: b.limits.tokens } : {}),
            },
            spent: { usd: b.spent.usd, tokens: b.spent.tokens },
          },
        }
        : {}),
      tasks: [...this.tasks].map(([id, t]) => ({
        id,
        state: t.state,
        step: t.state === "done"
          ? "done"
          : t.state === "queued"
          ? "queued"
          : t.state === "waiting"
          ? "waiting on a rate limit"
          : t.tools.size > 0
          ? [...new Set(t.tools.values())].join(", ")
          : t.state === "pending"
          ? "starting"
          : "model call",
        turns: t.turns,
        tokens: t.tokens,
        ...(t.costUSD !== undefined ? { costUSD: t.costUSD } : {}),
      })),
    };
  }
}

/** `1.2k`, `3.4M`: a count in a short form. */
export function shortCount(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/**
 * The run's one total line, e.g. `3 done · 5 running · 8 queued · 12.3k tokens · $0.04`;
 * under a budget its spend so far against each limit, e.g. `… · $0.0412 of $0.50 budget`.
 */
export function runLine(s: RunSnapshot): string {
  const parts = [`${s.done} done`, `${s.running} running`];
  if (s.queued > 0) parts.push(`${s.queued} queued`);
  if (s.waiting > 0) parts.push(`${s.waiting} waiting on a rate limit`);
  const b = s.budget;
  parts.push(
    b?.limits.tokens !== undefined
      ? `${shortCount(b.spent.tokens)} of ${shortCount(b.limits.tokens)} budget tokens`
      : `${shortCount(s.tokens.input + s.tokens.output)} tokens`,
  );
  if (b?.limits.usd !== undefined) {
    parts.push(`$${b.spent.usd.toFixed(4)} of $${b.limits.usd.toFixed(2)} budget`);
  } else if (s.costUSD > 0) parts.push(`$${s.costUSD.toFixed(2)}`);
  return parts.join(" · ");
}
