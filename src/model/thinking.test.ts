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

describe("Gemini by generation", () => {
  const budget = (n: number) => ({
    google: { thinkingConfig: { thinkingBudget: n, includeThoughts: false } },
  });
  const level = (l: string) => ({
    google: { thinkingConfig: { thinkingLevel: l, includeThoughts: false } },
  });
  const cases: [string, Parameters<typeof reasoningOptions>[3], unknown][] = [
    ["gemini-1.5-pro", "high", {}],
    ["gemini-2.0-flash", "xhigh", {}],
    ["gemini-2.5-flash", "off", budget(0)],
    ["gemini-2.5-pro", "off", {}],
    ["gemini-2.5-pro", "minimal", budget(512)],
    ["gemini-3-pro-preview", "minimal", level("low")],
    ["gemini-3-pro-preview", "medium", level("medium")],
    ["gemini-3-pro-preview", "xhigh", level("high")],
    ["gemini-3-pro-preview", "off", {}],
  ];
  for (const [model, lvl, expected] of cases) {
    test(`${model} at ${lvl}`, () =>
      assert.deepEqual(reasoningOptions("google", "google", model, lvl), expected));
  }
});
