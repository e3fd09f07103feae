/**
 * The budget flags of `xcsh run` and `xcsh -p` (`--max-budget-usd`,
 * `--max-tokens`, `--max-requests`, `--deadline`, `--budget-unpriced-free`),
 * read into a {@link BudgetSetting}; a bad value is a usage error naming
 * its flag. Also the one stderr line that sums up what a run spent.
 *
 * @module
 */
import { UsageError } from "./errors.ts";
import {
  BUDGET_FLAGS,
  BUDGET_KEYS,
  type BudgetSetting,
  parseBudgetValue,
} from "../config/budget-setting.ts";
import type { BudgetReport } from "../runner/budget-governor.ts";

export const BUDGET_FLAG_SPECS = {
  "max-budget-usd": { type: "string" },
  "max-tokens": { type: "string" },
  "max-requests": { type: "string" },
  deadline: { type: "string" },
  "budget-unpriced-free": { type: "boolean" },
} as const;

export const BUDGET_HELP =
  `  --max-budget-usd N     stop the whole run (every task it starts) before a model call
                         that could take its spend past N US dollars (status budget)
  --max-tokens N         the same for input + output tokens
  --max-requests N       the same for model requests
  --deadline TIME        no model call after TIME (seconds, or 90s, 30m, 2h)
  --budget-unpriced-free count a model with no known price as free under --max-budget-usd
`;

/** The budget the flags set (empty: none). */
export function readBudgetFlags(values: Record<string, unknown>): BudgetSetting {
  const out: BudgetSetting = {};
  for (const key of BUDGET_KEYS) {
    const flag = BUDGET_FLAGS[key];
    const raw = values[flag.slice(2)];
    if (raw === undefined) continue;
    const r = parseBudgetValue(key, raw);
    if (!r.ok) throw new UsageError(`${flag}: ${r.message}`);
    out[key] = r.value;
  }
  return out;
}

/** One line: what the run spent against each limit it had. */
export function budgetLine(r: BudgetReport): string {
  const parts: string[] = [];
  const usd = (n: number) => `$${n.toFixed(4)}`;
  if (r.limits.usd !== undefined) parts.push(`${usd(r.spent.usd)} of ${usd(r.limits.usd)}`);
  if (r.limits.tokens !== undefined) parts.push(`${r.spent.tokens} of ${r.limits.tokens} tokens`);
  if (r.limits.requests !== undefined) {
    parts.push(`${r.spent.requests} of ${r.limits.requests} requests`);
  }
  if (r.limits.deadlineMs !== undefined) {
    parts.push(
      `${(r.spent.elapsedMs / 1000).toFixed(1)} s of ${(r.limits.deadlineMs / 1000).toFixed(0)} s`,
    );
  }
  const end = r.exhausted ? `; the ${r.exhausted} limit stopped the run` : "";
  return `budget: spent ${parts.join(", ")}${end}`;
}
