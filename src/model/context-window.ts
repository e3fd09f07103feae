/**
 * How many tokens a model's context window holds, when xcsh knows: the
 * window the price catalogue (`price-table.json`, from
 * `@pydantic/genai-prices`) gives for the model behind the provider's wire
 * type (Anthropic, OpenAI, Google). Any other model (a local server, an
 * OpenAI-compatible one) is unknown: callers use their own conservative
 * default.
 *
 * @example
 * ```ts
 * import { defaultConfig } from "../config/validate.ts";
 *
 * contextWindowOf("anthropic/claude-sonnet-4-5", defaultConfig()); // 200000
 * contextWindowOf("ollama/qwen3:8b", defaultConfig()); // undefined
 * ```
 *
 * @module
 */
import table from "./price-table.json" with { type: "json" };
import { matches, type PriceTable } from "./cost.ts";
import { BUILTIN_PROVIDERS, splitModelId } from "./providers.ts";
import type { XcshConfig } from "../types.ts";

/** The context window of `modelId` (`provider/model`) in tokens, or undefined when unknown. */
export function contextWindowOf(modelId: string, config: XcshConfig): number | undefined {
  const split = splitModelId(modelId);
  if (!split) return undefined;
  // The provider's wire type (its key does not matter here).
  const type = Object.hasOwn(config.providers, split.provider)
    ? config.providers[split.provider].type
    : Object.hasOwn(BUILTIN_PROVIDERS, split.provider)
    ? BUILTIN_PROVIDERS[split.provider].type
    : undefined;
  if (type === undefined || type === "openai-compatible") return undefined;
  const models = (table as PriceTable).providers[type];
  return models?.find((m) => matches(m.match, split.model))?.contextWindow;
}
