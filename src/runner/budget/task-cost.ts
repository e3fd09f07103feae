/**
 * What a finished task cost: the sum of its model calls' prices, each call
 * priced on its own (a long-context tier applies per call), on the model
 * the task ran on. No model (no child started): no cost field; a call
 * whose price is unknown makes the whole cost `null`, with the reason.
 * Pure: the pricing function is passed in.
 *
 * @example
 * ```ts
 * import { priceCall } from "../../model/price-call.ts";
 * import { defaultConfig } from "../../config/validate.ts";
 * withCost(
 *   { id: "a", agent: "explore", status: "ok", model: "ollama/qwen3:8b" },
 *   [{ input: 100, output: 10, cacheRead: 0, cacheWrite: 0 }],
 *   priceCall,
 *   defaultConfig(),
 *   {},
 * ); // { …, costUSD: 0 }
 * ```
 *
 * @module
 */
import type { Cost } from "../../model/cost.ts";
import type { TaskResult, TokenUsage, XcshConfig } from "../../types.ts";

export type PriceCall = (
  modelId: string,
  usage: TokenUsage,
  config: XcshConfig,
  env: Readonly<Record<string, string | undefined>>,
  at: Date,
) => Cost;

/** `result` with `costUSD` (and `costNote` when it is unknown). */
export function withCost(
  result: TaskResult,
  calls: readonly TokenUsage[],
  price: PriceCall,
  config: XcshConfig,
  env: Readonly<Record<string, string | undefined>>,
  at: Date = new Date(),
): TaskResult {
  if (result.model === undefined) return result;
  let usd = 0;
  for (const call of calls) {
    const p = price(result.model, call, config, env, at);
    if (!p.ok) return { ...result, costUSD: null, costNote: p.reason };
    usd += p.usd;
  }
  return { ...result, costUSD: usd };
}
