/**
 * How `xcsh run` (and `xcsh wait`, which prints a background run's outcome
 * the same way) shows results: one JSON document with `--json`; otherwise a
 * single task's body on stdout, or `== id (agent): status` sections for
 * several; failures, cut outputs and kept worktrees as notes on stderr. The
 * exit code follows: 0 when every task succeeded, else 1.
 *
 * @module
 */
import { writeErr, writeOut } from "../text/stdio.ts";
import { EXIT_FAILURE, EXIT_OK } from "./errors.ts";
import type { BudgetReport } from "../runner/budget/budget-governor.ts";
import { budgetLine } from "./budget-flags.ts";
import { printJson } from "./output.ts";
import type { TaskResult } from "../types.ts";
import type { OutputFormat } from "./output-format.ts";

/** What a successful task prints: its data (a string as itself, anything else as JSON), or its text. */
export function resultBody(r: TaskResult): string {
  // A rejected task keeps its result: the caller sees what was not accepted.
  if (r.status === "ok" || r.status === "rejected") {
    if (typeof r.data === "string") return r.data;
    if (r.data !== undefined) return JSON.stringify(r.data, null, 2);
    return r.text ?? "";
  }
  return "";
}

/** How a task that did not succeed is reported, once: `task ID failed: WHY` or `task ID was cancelled`. */
export function failureLine(r: TaskResult): string {
  if (r.status === "cancelled") {
    const why = r.error && r.error !== "cancelled" ? `: ${r.error}` : "";
    return `task ${r.id} was cancelled${why}`;
  }
  if (r.status === "max_turns") return `task ${r.id} stopped at its turn limit: ${r.error ?? ""}`;
  if (r.status === "rejected") {
    return `task ${r.id} was rejected: ${r.error ?? "its checks failed"}`;
  }
  if (r.status === "stopped") return `task ${r.id} was stopped by a hook: ${r.error ?? ""}`;
  if (r.status === "budget") return `task ${r.id} ${r.error ?? "was stopped by the run's budget"}`;
  return `task ${r.id} failed: ${r.error ?? "unknown error"}`;
}

/**
 * The notes on a task's acceptance checks: each one that failed or was
 * skipped with the last line of its output, and a task not verified.
 */
export function checkLines(r: TaskResult): string[] {
  const out: string[] = [];
  for (const c of r.checks ?? []) {
    if (c.ok) continue;
    // The last line, and the one before it when the last is a command's `[exit code N]`.
    const lines = c.output.trimEnd().split("\n");
    const last = lines.slice(/^\[.*\]$/.test(lines.at(-1) ?? "") ? -2 : -1).join(" ");
    // stderr drops terminal controls a check's program printed (text/stdio.ts).
    out.push(`check '${c.name}' ${c.skipped ? "skipped" : "failed"}: ${last}`);
  }
  if (r.status === "ok" && r.verified === false) {
    out.push("not verified: its acceptance checks did not all run");
  }
  return out;
}

/**
 * Prints the results of a run and returns its exit code. Under
 * `stream-json` the stream has already carried them: only the notes on
 * stderr remain.
 */
export function printResults(
  agent: string,
  results: readonly TaskResult[],
  format: OutputFormat,
  budget?: BudgetReport,
): number {
  const json = format !== "text";
  if (format === "json") {
    printJson({ version: 1, agent, results, ...(budget ? { budget } : {}) });
  } else if (format === "stream-json") {
    for (const r of results) if (r.status !== "ok") writeErr(`xcsh: ${failureLine(r)}\n`);
  } else if (results.length === 1) {
    const [r] = results;
    const body = resultBody(r);
    if (body) writeOut(body.endsWith("\n") ? body : body + "\n");
    if (r.status !== "ok") writeErr(`xcsh: ${failureLine(r)}\n`);
  } else {
    for (const r of results) {
      writeOut(`== ${r.id} (${r.agent}): ${r.status}\n`);
      const body = r.status === "ok" || r.status === "rejected"
        ? resultBody(r)
        : r.status === "cancelled" && (r.error ?? "cancelled") === "cancelled"
        ? "cancelled"
        : `error: ${r.error ?? "unknown error"}`;
      writeOut(body.endsWith("\n") ? body : body + "\n");
    }
  }
  for (const r of results) {
    if (!json) { for (const line of checkLines(r)) writeErr(`xcsh: task ${r.id}: ${line}\n`); }
    if (!json && r.worktree) {
      writeErr(
        `xcsh: task ${r.id}: changes kept in worktree ${r.worktree.path} (branch ${r.worktree.branch}): ${
          r.worktree.changed.join(", ")
        }\n`,
      );
    }
  }
  if (budget && format !== "json") writeErr(`xcsh: ${budgetLine(budget)}\n`);
  return results.every((r) => r.status === "ok") ? EXIT_OK : EXIT_FAILURE;
}
