/**
 * The price of one model call of a task: the provider's wire type picks the
 * price list (a gateway or a local proxy of type `anthropic` is priced at
 * Anthropic's list prices: it forwards to the paid API), a self-hosted
 * model (Ollama, an OpenAI-compatible server on this machine or a private
 * address) costs 0, and any other OpenAI-compatible server has no known
 * price. The arithmetic is
 * cost.ts's.
 *
 * @example
 * ```ts
 * import { defaultConfig } from "../config/validate.ts";
 *
 * priceCall("ollama/qwen3:8b", { input: 10, output: 5 }, defaultConfig(), {}, new Date());
 * // { ok: true, usd: 0 }
 * ```
 *
 * @module
 */
import table from "./price-table.json" with { type: "json" };
import { callCost, type Cost, type PriceTable } from "./cost.ts";
import { resolveProvider, splitModelId } from "./providers.ts";
import { addressProblem, parseAddress } from "../net/net-address.ts";
import type { TokenUsage, XcshConfig } from "../types.ts";

/** What {@link selfHosted} said of each URL: every call of a task asks again. */
const hosted = new Map<string, boolean>();

/** True when `url` names this machine or an address no one outside the network reaches. */
function selfHosted(url: string): boolean {
  let known = hosted.get(url);
  if (known === undefined) hosted.set(url, known = hostIsPrivate(url));
  return known;
}

function hostIsPrivate(url: string): boolean {
  try {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
    if (host === "localhost") return true;
    return parseAddress(host) !== undefined && addressProblem(host) !== undefined;
  } catch {
    return false;
  }
}

/** What one call of `modelId` (`provider/model`) with `usage` cost. */
export function priceCall(
  modelId: string,
  usage: TokenUsage,
  config: XcshConfig,
  env: Readonly<Record<string, string | undefined>>,
  at: Date,
): Cost {
  const split = splitModelId(modelId);
  if (!split) return { ok: false, reason: `'${modelId}' names no provider` };
  const provider = resolveProvider(split.provider, config, env);
  if (!provider.ok) return { ok: false, reason: provider.error };
  const { type, baseURL, name } = provider.value;
  if (type === "openai-compatible" && (name === "ollama" || selfHosted(baseURL))) {
    return { ok: true, usd: 0 };
  }
  if (type === "openai-compatible") {
    return { ok: false, reason: `no prices are known for the OpenAI-compatible server '${name}'` };
  }
  return callCost(table as PriceTable, type, split.model, usage, at);
}
