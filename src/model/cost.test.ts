// Unit tests for model-call prices: the committed table is what the
// installed catalogue gives, and callCost agrees with the catalogue's own
// calculator on every model of the table (tiers and dated prices included).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { calcPrice } from "@pydantic/genai-prices";
import table from "./price-table.json" with { type: "json" };
import { callCost, matches, type PriceTable } from "./cost.ts";
import { priceCall } from "./price-call.ts";
import { defaultConfig } from "../config/validate.ts";
import { priceTableFromCatalogue } from "../../scripts/price-table-source.ts";

const t = table as PriceTable;

test("the committed table is current with the installed catalogue (bun scripts/price-table.ts)", () => {
  assert.deepEqual(priceTableFromCatalogue(), table);
});

describe("callCost", () => {
  test("agrees with the catalogue's calculator on every model, with and without cache, at tiers", () => {
    const usages = [
      { input: 1000, output: 200, cacheRead: 0, cacheWrite: 0 },
      { input: 50_000, output: 3_000, cacheRead: 40_000, cacheWrite: 5_000 },
      { input: 300_000, output: 20_000, cacheRead: 100_000, cacheWrite: 0 },
    ];
    const when = [new Date("2025-06-01T12:00:00Z"), new Date("2026-12-01T03:00:00Z")];
    let compared = 0;
    for (const [provider, models] of Object.entries(t.providers)) {
      for (const m of models) {
        for (const u of usages) {
          for (const at of when) {
            const ours = callCost(t, provider, m.id, u, at);
            const theirs = calcPrice(
              {
                input_tokens: u.input,
                output_tokens: u.output,
                cache_read_tokens: u.cacheRead,
                cache_write_tokens: u.cacheWrite,
              },
              m.id,
              { providerId: provider, timestamp: at },
            );
            if (theirs === null) continue;
            assert.ok(ours.ok, `${provider}/${m.id}`);
            assert.ok(
              Math.abs(ours.usd - theirs.total_price) < 1e-9,
              `${provider}/${m.id} ${
                JSON.stringify(u)
              } at ${at.toISOString()}: ${ours.usd} vs ${theirs.total_price}`,
            );
            compared++;
          }
        }
      }
    }
    assert.ok(compared > 500, `compared ${compared}`);
  });

  test("an unlisted model or provider has no price, with the reason", () => {
    const u = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 };
    assert.match(
      (callCost(t, "openai", "no-such-model-9", u, new Date()) as { reason: string }).reason,
      /no price is known for openai\/no-such-model-9 \(@pydantic\/genai-prices /,
    );
    assert.equal(callCost(t, "mistral", "x", u, new Date()).ok, false);
  });
});

test("matches: case-insensitive words, case-sensitive regex, and/or", () => {
  assert.ok(matches({ starts_with: "Claude-" }, "claude-opus-4"));
  assert.ok(matches({ or: [{ equals: "a" }, { ends_with: "-mini" }] }, "gpt-5-MINI"));
  assert.ok(!matches({ and: [{ contains: "gpt" }, { regex: "^o\\d" }] }, "gpt-5"));
  assert.ok(!matches({ regex: "^GPT" }, "gpt-5"));
});

describe("priceCall", () => {
  const u = { input: 1_000_000, output: 0, cacheRead: 0, cacheWrite: 0 };
  test("local models cost 0; hosted ones their list price, even through a local proxy", () => {
    const config = defaultConfig();
    config.providers.local = { type: "openai-compatible", baseURL: "http://127.0.0.1:8080/v1" };
    config.providers.corp = { type: "openai-compatible", baseURL: "https://llm.example.com/v1" };
    config.providers.lan = { type: "openai-compatible", baseURL: "http://192.168.1.20:8000/v1" };
    assert.deepEqual(priceCall("ollama/qwen3:8b", u, config, {}, new Date()), { ok: true, usd: 0 });
    assert.deepEqual(priceCall("local/qwen3", u, config, {}, new Date()), { ok: true, usd: 0 });
    assert.deepEqual(priceCall("lan/qwen3", u, config, {}, new Date()), { ok: true, usd: 0 });
    const corp = priceCall("corp/qwen3", u, config, {}, new Date());
    assert.match((corp as { reason: string }).reason, /OpenAI-compatible server 'corp'/);
    const proxied = priceCall("openai/gpt-5", u, config, {
      OPENAI_BASE_URL: "http://127.0.0.1:4000/v1",
      OPENAI_API_KEY: "sk-test",
    }, new Date());
    assert.ok(proxied.ok && proxied.usd > 0, JSON.stringify(proxied));
  });
});
