import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { reasoningOptions } from "./thinking.ts";

describe("reasoningOptions", () => {
  test("no level sends nothing", () => {
    for (const t of ["anthropic", "openai", "google", "openai-compatible"] as const) {
      assert.deepEqual(reasoningOptions(t, "p", "m", undefined), {});
    }
  });

  test("each provider gets its own option", () => {
    assert.deepEqual(reasoningOptions("anthropic", "anthropic", "claude", "high"), {
      anthropic: { thinking: { type: "enabled", budgetTokens: 16000 } },
    });
    assert.deepEqual(reasoningOptions("anthropic", "anthropic", "claude", "off"), {
      anthropic: { thinking: { type: "disabled" } },
    });
    assert.deepEqual(reasoningOptions("openai", "openai", "gpt-5", "minimal"), {
      openai: { reasoningEffort: "minimal" },
    });
    assert.deepEqual(reasoningOptions("openai", "openai", "gpt-4o", "off"), {});
    assert.deepEqual(reasoningOptions("google", "google", "gemini-2.5-flash", "off"), {
      google: { thinkingConfig: { thinkingBudget: 0, includeThoughts: false } },
    });
    assert.deepEqual(reasoningOptions("google", "google", "gemini-3-pro", "high"), {
      google: { thinkingConfig: { thinkingLevel: "high", includeThoughts: false } },
    });
    assert.deepEqual(reasoningOptions("openai-compatible", "ollama", "qwen3", "low"), {
      ollama: { reasoningEffort: "low" },
    });
  });
});
