/**
 * The budget flags of `xcsh run` and `xcsh -p` (`--max-budget-usd`,
 * `--max-tokens`, `--max-requests`, `--deadline`, `--budget-unpriced-free`),
 * read into a {@link BudgetSetting}; a bad value is a usage error naming
 * its flag.
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
import { budgetLine } from "../runner/budget/budget-governor.ts";

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

export { budgetLine };
