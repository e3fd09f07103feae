/**
 * What a run's budget is, as the user writes it: `--max-budget-usd`,
 * `--max-tokens`, `--max-requests` and `--deadline` on the command line, and
 * `task.budget` (`usd`, `tokens`, `requests`, `deadline`) in config and in
 * the MCP `task` arguments. Decides which values are accepted (a positive
 * number of dollars, a whole positive number of tokens or requests, a
 * deadline in seconds or as `90s`, `30m`, `2h`) and how two settings
 * combine: each limit is the lower of the two.
 *
 * @example
 * ```ts
 * parseBudgetValue("deadline", "30m"); // { ok: true, value: 1800 }
 * parseBudgetValue("usd", "$5");       // { ok: false, message: "expected a positive number of US dollars (like 2.5), got \"$5\"" }
 * ```
 *
 * @module
 */

import type { BudgetSetting } from "../types.ts";

export type { BudgetSetting };

export type BudgetKey = keyof BudgetSetting;

export const BUDGET_KEYS: readonly BudgetKey[] = ["usd", "tokens", "requests", "deadline"];

/** The command-line flag of each limit. */
export const BUDGET_FLAGS: Record<BudgetKey, string> = {
  usd: "--max-budget-usd",
  tokens: "--max-tokens",
  requests: "--max-requests",
  deadline: "--deadline",
};

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600 };

/** One limit's value from text or a JSON value, or what is wrong with it. */
export function parseBudgetValue(
  key: BudgetKey,
  raw: unknown,
): { ok: true; value: number } | { ok: false; message: string } {
  const text = typeof raw === "number" ? String(raw) : typeof raw === "string" ? raw.trim() : "";
  const shown = JSON.stringify(raw) ?? String(raw);
  if (key === "deadline") {
    const m = /^(\d+(?:\.\d+)?)([smh]?)$/.exec(text);
    const n = m ? Number(m[1]) * UNITS[m[2] || "s"] : NaN;
    return Number.isFinite(n) && n > 0 ? { ok: true, value: n } : {
      ok: false,
      message:
        `expected a positive number of seconds or a duration like 90s, 30m, 2h, got ${shown}`,
    };
  }
  if (key === "usd") {
    const n = /^\d+(?:\.\d+)?$|^\.\d+$/.test(text) ? Number(text) : NaN;
    return Number.isFinite(n) && n > 0 ? { ok: true, value: n } : {
      ok: false,
      message: `expected a positive number of US dollars (like 2.5), got ${shown}`,
    };
  }
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? { ok: true, value: n } : {
    ok: false,
    message: `expected a whole number of ${key} ≥ 1, got ${shown}`,
  };
}

/** Each limit the lower of the two settings' (a limit set in only one is kept). */
export function lowerBudget(a: BudgetSetting, b: BudgetSetting): BudgetSetting {
  const out: BudgetSetting = {};
  for (const k of BUDGET_KEYS) {
    const x = a[k], y = b[k];
    const v = x === undefined ? y : y === undefined ? x : Math.min(x, y);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/** Whether any limit is set. */
export function hasBudget(s: BudgetSetting): boolean {
  return BUDGET_KEYS.some((k) => s[k] !== undefined);
}
