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
