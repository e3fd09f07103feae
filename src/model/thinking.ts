/**
 * What a `thinkingLevel` asks of each provider: the provider options the AI
 * SDK forwards (Anthropic's thinking budget, OpenAI's reasoning effort,
 * Gemini's thinking budget or level, `reasoning_effort` for OpenAI-compatible
 * servers). No level, or `off` where a provider has no off switch, sends
 * nothing, so models without reasoning are not sent options they reject. Pure.
 *
 * @example
 * ```ts
 * reasoningOptions("anthropic", "anthropic", "claude-sonnet-4-5", "high");
 * // { anthropic: { thinking: { type: "enabled", budgetTokens: 16000 } } }
 * reasoningOptions("openai-compatible", "ollama", "qwen3", "low");
 * // { ollama: { reasoningEffort: "low" } }
 * ```
 *
 * @module
 */
import type { ThinkingLevel } from "../types.ts";
import type { ProviderType } from "./providers.ts";

// deno-lint-ignore no-explicit-any
export type ProviderOptions = Record<string, Record<string, any>>;

/** Anthropic thinking budgets in tokens (the API's minimum is 1024). */
export const ANTHROPIC_BUDGETS: Readonly<Record<Exclude<ThinkingLevel, "off">, number>> = {
  minimal: 1024,
  low: 4000,
  medium: 8000,
  high: 16000,
  xhigh: 32000,
};

/** Gemini 2.x thinking budgets in tokens. */
const GEMINI_BUDGETS: Readonly<Record<ThinkingLevel, number>> = {
  off: 0,
  minimal: 512,
  low: 2048,
  medium: 8192,
  high: 16384,
  xhigh: 24576,
};

/** Gemini 3 levels, clamped to the ones the API takes (`low`, `medium`, `high`). */
const GEMINI_LEVELS: Readonly<Record<Exclude<ThinkingLevel, "off">, string>> = {
  minimal: "low",
  low: "low",
  medium: "medium",
  high: "high",
  xhigh: "high",
};

/**
 * Gemini's options by generation: 1.x and 2.0 models do not think (nothing
 * is sent); 2.5 models take a token budget, and only Flash models can turn
 * thinking off; later models take a level, and cannot turn it off.
 */
function geminiOptions(modelId: string, level: ThinkingLevel): ProviderOptions {
  if (/gemini-(1\.|2\.0)/.test(modelId)) return {};
  if (/gemini-2\.5/.test(modelId)) {
    if (level === "off" && !/flash/.test(modelId)) return {};
    return {
      google: { thinkingConfig: { thinkingBudget: GEMINI_BUDGETS[level], includeThoughts: false } },
    };
  }
  if (level === "off") return {};
  return {
    google: { thinkingConfig: { thinkingLevel: GEMINI_LEVELS[level], includeThoughts: false } },
  };
}

/** Output tokens to allow per model call (thinking budgets come on top). */
export const MAX_OUTPUT_TOKENS = 16384;

/**
 * Provider options for one call. `providerName` keys the options of
 * OpenAI-compatible providers (the SDK looks them up under that name).
 */
export function reasoningOptions(
  type: ProviderType,
  providerName: string,
  modelId: string,
  level: ThinkingLevel | undefined,
): ProviderOptions {
  if (level === undefined) return {};
  switch (type) {
    case "anthropic":
      if (level === "off") return { anthropic: { thinking: { type: "disabled" } } };
      return {
        anthropic: { thinking: { type: "enabled", budgetTokens: ANTHROPIC_BUDGETS[level] } },
      };
    case "openai":
      if (level === "off") return {};
      return { openai: { reasoningEffort: level } };
    case "google":
      return { ...geminiOptions(modelId, level) };
    case "openai-compatible":
      if (level === "off") return {};
      return { [providerName]: { reasoningEffort: level } };
  }
}
