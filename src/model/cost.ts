/**
 * What a model call cost, in US dollars, at list prices: the uncached input
 * tokens at the input price, cache reads and cache writes at theirs (the
 * input price where the model has none), output tokens (reasoning included)
 * at the output price. A long-context tier applies to the whole call when
 * its input passes the tier's start, and a dated price applies from its
 * date. The prices come from price-table.json (made by
 * scripts/price-table.ts from a maintained catalogue); a model is found by
 * the catalogue's match rules, case-insensitively. Pure.
 *
 * A local model (Ollama, or any server on this machine) costs 0; a model
 * the table does not list costs `null`, with the reason.
 *
 * @example
 * ```ts
 * declare const table: PriceTable;
 * callCost(table, "openai", "gpt-5", { input: 1000, output: 100, cacheRead: 0, cacheWrite: 0 }, new Date());
 * // { ok: true, usd: 0.00225 }
 * ```
 *
 * @module
 */
import type { TokenUsage } from "../types.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

type Match =
  | { or: Match[] }
  | { and: Match[] }
  | { equals: string }
  | { starts_with: string }
  | { ends_with: string }
  | { contains: string }
  | { regex: string };

type Price = number | { base: number; tiers: { start: number; price: number }[] };
type Prices = Partial<
  Record<"input_mtok" | "output_mtok" | "cache_read_mtok" | "cache_write_mtok", Price>
>;

export interface PriceTable {
  source: string;
  providers: Record<
    string,
    { id: string; match: Match; contextWindow?: number; prices: Prices | Json[] }[]
  >;
}

export type Cost = { ok: true; usd: number } | { ok: false; reason: string };

/** True when `id` is matched by `m`. */
export function matches(m: Match, id: string): boolean {
  const s = id.toLowerCase();
  if ("or" in m) return m.or.some((x) => matches(x, id));
  if ("and" in m) return m.and.every((x) => matches(x, id));
  if ("equals" in m) return s === m.equals.toLowerCase();
  if ("starts_with" in m) return s.startsWith(m.starts_with.toLowerCase());
  if ("ends_with" in m) return s.endsWith(m.ends_with.toLowerCase());
  if ("contains" in m) return s.includes(m.contains.toLowerCase());
  if ("regex" in m) return new RegExp(m.regex).test(id);
  return false;
}

function secondsOfDay(hms: string): number {
  const [h, m, s] = hms.split(":").map(Number);
  return (h || 0) * 3600 + (m || 0) * 60 + (s || 0);
}

/** The prices in force at `at`: the last dated entry whose constraint holds. */
function pricesAt(prices: Prices | Json[], at: Date): Prices {
  if (!Array.isArray(prices)) return prices;
  for (let i = prices.length - 1; i >= 0; i--) {
    const c = prices[i].constraint;
    if (c === undefined) return prices[i].prices;
    if (c.type === "start_date" && at >= new Date(c.start_date)) return prices[i].prices;
    if (c.type === "time_of_date") {
      const now = at.getUTCHours() * 3600 + at.getUTCMinutes() * 60 + at.getUTCSeconds() +
        at.getUTCMilliseconds() / 1000;
      const from = secondsOfDay(c.start_time);
      const to = secondsOfDay(c.end_time);
      if (to < from ? now >= from || now < to : now >= from && now < to) return prices[i].prices;
    }
  }
  return prices[0].prices;
}

/** Dollars for `tokens` at `price` (per million), the tier chosen by the call's input. */
function dollars(price: Price | undefined, tokens: number, input: number): number {
  if (price === undefined || tokens <= 0) return 0;
  if (typeof price === "number") return (price * tokens) / 1e6;
  let rate = price.base;
  for (const t of price.tiers) if (input > t.start) rate = t.price;
  return (rate * tokens) / 1e6;
}

/** The cost of one call of `model` at `provider` (a key of the table) with `usage`. */
export function callCost(
  table: PriceTable,
  provider: string,
  model: string,
  usage: TokenUsage,
  at: Date,
): Cost {
  const models = table.providers[provider];
  if (!models) return { ok: false, reason: `no prices are known for provider '${provider}'` };
  const found = models.find((m) => matches(m.match, model));
  if (!found) {
    return { ok: false, reason: `no price is known for ${provider}/${model} (${table.source})` };
  }
  const p = pricesAt(found.prices, at);
  const read = usage.cacheRead ?? 0;
  const write = usage.cacheWrite ?? 0;
  const plain = Math.max(0, usage.input - read - write);
  const usd = dollars(p.input_mtok, plain, usage.input) +
    dollars(p.cache_read_mtok ?? p.input_mtok, read, usage.input) +
    dollars(p.cache_write_mtok ?? p.input_mtok, write, usage.input) +
    dollars(p.output_mtok, usage.output, usage.input);
  return { ok: true, usd };
}
