/**
 * The price table as it follows from the installed `@pydantic/genai-prices`:
 * for each provider xcsh prices, each model's id, match rule and prices
 * (only the four text keys) and context window in tokens where the catalogue
 * knows it. Shared by scripts/price-table.ts, which writes
 * it, and the test that checks the committed table is current.
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { findProvider } from "@pydantic/genai-prices";

const pkg = JSON.parse(
  readFileSync(
    new URL("../node_modules/@pydantic/genai-prices/package.json", import.meta.url),
    "utf8",
  ),
);

export const PRICED_PROVIDERS = ["anthropic", "openai", "google"] as const;
const KEYS = ["input_mtok", "output_mtok", "cache_read_mtok", "cache_write_mtok"];

// deno-lint-ignore no-explicit-any
type Json = any;

function keep(prices: Json): Json {
  const out: Json = {};
  for (const k of KEYS) if (prices[k] !== undefined) out[k] = prices[k];
  return out;
}

export function priceTableFromCatalogue(): Json {
  const providers: Json = {};
  for (const id of PRICED_PROVIDERS) {
    const p = findProvider({ providerId: id });
    if (!p) throw new Error(`@pydantic/genai-prices has no provider '${id}'`);
    providers[id] = p.models.map((m) => ({
      id: m.id,
      match: m.match,
      ...(typeof m.context_window === "number" ? { contextWindow: m.context_window } : {}),
      prices: Array.isArray(m.prices)
        ? m.prices.map((c) => ({
          ...(c.constraint ? { constraint: c.constraint } : {}),
          prices: keep(c.prices),
        }))
        : keep(m.prices),
    }));
  }
  return { source: `@pydantic/genai-prices ${pkg.version}`, providers };
}
