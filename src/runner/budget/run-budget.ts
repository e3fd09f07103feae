/**
 * The run's budget as the top of a run holds it: the governor's arithmetic
 * (`budget-governor.ts`) with each call priced by the same table as a
 * task's `costUSD` (`task-cost.ts`'s {@link PriceCall}). A call is reserved
 * at its input estimate plus the output it may ask for, uncached, and
 * settled at what it used. Under a dollar limit, a model with no known
 * price is refused (never counted as free) unless the user opted in to
 * count it as 0.
 *
 * @example
 * ```ts
 * import { priceCall } from "../../model/price-call.ts";
 * import { defaultConfig } from "../../config/validate.ts";
 * const budget = createRunBudget({
 *   limits: { usd: 1 },
 *   price: priceCall,
 *   config: defaultConfig(),
 *   env: {},
 *   unpricedFree: false,
 * });
 * await budget.request("ollama/qwen3:8b", 1000, 4096); // { ok: true, reqId: "1" }
 * ```
 *
 * @module
 */
import type { TokenUsage, XcshConfig } from "../../types.ts";
import {
  type BudgetAnswer,
  type BudgetLink,
  exhaustionNotice,
} from "../../protocol/budget-link.ts";
import type { PriceCall } from "./task-cost.ts";
import { type BudgetLimits, type BudgetReport, createGovernor } from "./budget-governor.ts";
import type { BudgetSetting } from "../../config/budget-setting.ts";

export interface RunBudgetOptions {
  limits: BudgetLimits;
  price: PriceCall;
  config: XcshConfig;
  env: Readonly<Record<string, string | undefined>>;
  /** Count a model with no known price as free (`--budget-unpriced-free`). */
  unpricedFree: boolean;
  /** The clock, in ms; default `Date.now`. */
  now?: () => number;
}

export interface RunBudget extends BudgetLink {
  /** What was spent against each limit so far. */
  report(): BudgetReport;
  /** Under a dollar limit, the line refusing the first of `models` with no known price. */
  unpriced(models: readonly (string | null | undefined)[]): string | undefined;
}

/** The run's budget for `setting`, priced by the price table, its clock started now. */
export async function runBudgetFor(
  setting: BudgetSetting,
  config: XcshConfig,
  env: Readonly<Record<string, string | undefined>>,
  unpricedFree: boolean,
): Promise<RunBudget> {
  const { priceCall } = await import("../../model/price-call.ts");
  const now = Date.now();
  return createRunBudget({
    limits: {
      ...(setting.usd !== undefined ? { usd: setting.usd } : {}),
      ...(setting.tokens !== undefined ? { tokens: setting.tokens } : {}),
      ...(setting.requests !== undefined ? { requests: setting.requests } : {}),
      ...(setting.deadline !== undefined ? { deadlineAt: now + setting.deadline * 1000 } : {}),
    },
    price: priceCall,
    config,
    env,
    unpricedFree,
  });
}

/** The one line refusing a dollar budget over a model with no price. */
function unpricedLine(model: string, reason: string): string {
  return `--max-budget-usd: no price is known for ${model} (${reason}), so its spend cannot be ` +
    `counted; pass --budget-unpriced-free to count it as 0`;
}

export function createRunBudget(o: RunBudgetOptions): RunBudget {
  const now = o.now ?? Date.now;
  const governor = createGovernor(o.limits, now());
  const notice = exhaustionNotice();
  let next = 0;
  /** The dollars `usage` on `model` costs, or the reason it cannot be priced. */
  const usd = (model: string, usage: TokenUsage): { ok: true; usd: number } | {
    ok: false;
    reason: string;
  } => {
    if (o.limits.usd === undefined) return { ok: true, usd: 0 };
    const p = o.price(model, usage, o.config, o.env, new Date(now()));
    if (p.ok) return { ok: true, usd: p.usd };
    return o.unpricedFree ? { ok: true, usd: 0 } : { ok: false, reason: p.reason };
  };
  return {
    request(model, input, output): Promise<BudgetAnswer> {
      const reqId = String(++next);
      const cost = usd(model, { input, output, cacheRead: 0, cacheWrite: 0 });
      if (!cost.ok) {
        return Promise.resolve({
          ok: false,
          reason: unpricedLine(model, cost.reason),
        });
      }
      const g = governor.reserve(reqId, { usd: cost.usd, tokens: input + output }, now());
      if (!g.ok && governor.exhausted() !== undefined) notice.tell(g.reason);
      return Promise.resolve(g.ok ? { ok: true, reqId } : { ok: false, reason: g.reason });
    },
    spent(reqId, model, usage) {
      const cost = usd(model, usage);
      governor.settle(reqId, {
        usd: cost.ok ? cost.usd : 0,
        tokens: usage.input + usage.output,
      });
    },
    exhausted: () => governor.exhausted() !== undefined,
    onExhausted: notice.listen,
    unpriced(models) {
      for (const model of models) {
        if (!model) continue;
        const c = usd(model, { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
        if (!c.ok) return unpricedLine(model, c.reason);
      }
      return undefined;
    },
    report: () => governor.report(now()),
  };
}
