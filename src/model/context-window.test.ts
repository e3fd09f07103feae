// The context window of a model, from the price catalogue.

import { test } from "node:test";
import assert from "node:assert/strict";
import { defaultConfig } from "../config/validate.ts";
import { contextWindowOf } from "./context-window.ts";

test("known for the catalogue's models, unknown elsewhere", () => {
  const config = defaultConfig();
  assert.equal(contextWindowOf("anthropic/claude-sonnet-4-5", config), 200_000);
  assert.ok((contextWindowOf("openai/gpt-4o", config) ?? 0) >= 128_000);
  assert.equal(contextWindowOf("ollama/qwen3:8b", config), undefined);
  assert.equal(contextWindowOf("anthropic/not-a-model-at-all", config), undefined);
  assert.equal(contextWindowOf("no-provider", config), undefined);
});

test("config, then the server, then the catalogue, then the default", async () => {
  const { windowOf, DEFAULT_CONTEXT_WINDOW } = await import("./context-window.ts");
  const config = defaultConfig();
  config.providers.local = {
    type: "openai-compatible",
    baseURL: "http://x/v1",
    contextWindow: { big: 65_536, "*": 8_192 },
  };
  config.providers.anthropic = { contextWindow: 50_000 } as typeof config.providers.local;
  assert.deepEqual(windowOf("local/big", config, 4_096), { tokens: 65_536, source: "config" });
  assert.deepEqual(windowOf("local/other", config), { tokens: 8_192, source: "config" });
  assert.deepEqual(windowOf("anthropic/claude-sonnet-4-5", config), {
    tokens: 50_000,
    source: "config",
  });
  const plain = defaultConfig();
  assert.deepEqual(windowOf("ollama/qwen3:8b", plain, 40_960), {
    tokens: 40_960,
    source: "server",
  });
  assert.deepEqual(windowOf("anthropic/claude-sonnet-4-5", plain), {
    tokens: 200_000,
    source: "catalogue",
  });
  assert.deepEqual(windowOf("ollama/qwen3:8b", plain), {
    tokens: DEFAULT_CONTEXT_WINDOW,
    source: "default",
  });
});

test("the window before the catalogue agrees with windowOf, and leaves to it only catalogue models", async () => {
  const { windowOf } = await import("./context-window.ts");
  const { windowBeforeCatalogue } = await import("./configured-window.ts");
  const config = defaultConfig();
  config.providers.local = {
    type: "openai-compatible",
    baseURL: "http://x/v1",
    contextWindow: 8_192,
  };
  config.providers.box = { type: "openai-compatible", baseURL: "http://y/v1" };
  const cases: [string, number | undefined][] = [
    ["local/any", undefined],
    ["box/any", 4_096],
    ["box/any", undefined],
    ["ollama/qwen3:8b", undefined],
    ["anthropic/claude-sonnet-4-5", 1_000],
    ["nowhere/model", undefined],
    ["no-provider", undefined],
  ];
  for (const [id, served] of cases) {
    assert.deepEqual(windowBeforeCatalogue(id, config, served), windowOf(id, config, served), id);
  }
  // A model only the catalogue knows is left to it.
  assert.equal(windowBeforeCatalogue("anthropic/claude-sonnet-4-5", config), undefined);
  assert.equal(windowBeforeCatalogue("openai/gpt-4o", config), undefined);
});
