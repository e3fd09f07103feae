import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { defaultConfig } from "../config/validate.ts";
import { thinkingShown } from "./thinking-shown.ts";

describe("thinkingShown", () => {
  const config = defaultConfig();
  test("a built-in provider, with or without its key", () => {
    assert.equal(
      thinkingShown("openai/gpt-5.4-mini", "minimal", config, {}),
      "reasoning.effort low (gpt-5.4-mini has no minimal)",
    );
    assert.equal(
      thinkingShown("anthropic/claude-opus-4-6", "high", config, { ANTHROPIC_API_KEY: "k" }),
      "adaptive thinking, output_config.effort high",
    );
  });
  test("no level", () => {
    assert.equal(
      thinkingShown("google/gemini-3-pro-preview", undefined, config, {}),
      "nothing (no thinking level)",
    );
  });
  test("a config provider", () => {
    const c = defaultConfig();
    c.providers.box = { type: "openai-compatible", baseURL: "http://127.0.0.1:11434/v1" };
    assert.equal(
      thinkingShown("box/qwen3", "minimal", c, {}),
      "reasoning_effort low (qwen3 has no minimal), unless the server says the model cannot think",
    );
  });
  test("an id that names no provider", () => {
    assert.equal(thinkingShown("nowhere/m", "low", config, {}), undefined);
    assert.equal(thinkingShown("bare", "low", config, {}), undefined);
  });
});
