/**
 * How many tokens a model's context window holds, and where that number
 * comes from. In order: the config (`providers.<name>.contextWindow`, a
 * number for every model of the provider or a mapping by model name), what
 * the server said (Ollama's `/api/show` `model_info.<family>.context_length`),
 * the price catalogue (`price-table.json`, from `@pydantic/genai-prices`,
 * for the models behind the Anthropic, OpenAI and Google wire types), and
 * else {@link DEFAULT_CONTEXT_WINDOW}, which the caller says once. The
 * catalogue carries no output limits: the output a request reserves is the
 * one it asks for (`maxOutputTokens`, `model/capabilities.ts`).
 *
 * @example
 * ```ts
 * import { defaultConfig } from "../config/validate.ts";
 *
 * contextWindowOf("anthropic/claude-sonnet-4-5", defaultConfig()); // 200000
 * contextWindowOf("ollama/qwen3:8b", defaultConfig()); // undefined
 * windowOf("ollama/qwen3:8b", defaultConfig(), 40960); // { tokens: 40960, source: "server" }
 * ```
 *
 * @module
 */
import table from "./price-table.json" with { type: "json" };
import { matches, type PriceTable } from "./cost.ts";
import { splitModelId } from "./providers.ts";
import type { XcshConfig } from "../types.ts";
import {
  catalogueType,
  DEFAULT_CONTEXT_WINDOW,
  type ModelWindow,
  windowBeforeCatalogue,
} from "./configured-window.ts";

export { configuredWindow, DEFAULT_CONTEXT_WINDOW, type ModelWindow } from "./configured-window.ts";

/** The context window of `modelId` (`provider/model`) in the catalogue, or undefined when unknown. */
export function contextWindowOf(modelId: string, config: XcshConfig): number | undefined {
  const type = catalogueType(modelId, config);
  const split = splitModelId(modelId);
  if (type === undefined || !split) return undefined;
  const models = (table as PriceTable).providers[type];
  return models?.find((m) => matches(m.match, split.model))?.contextWindow;
}

/** The window of `modelId`: config, then the server's own (`served`), the catalogue, the default. */
export function windowOf(modelId: string, config: XcshConfig, served?: number): ModelWindow {
  const before = windowBeforeCatalogue(modelId, config, served);
  if (before) return before;
  const known = contextWindowOf(modelId, config);
  if (known !== undefined) return { tokens: known, source: "catalogue" };
  return { tokens: DEFAULT_CONTEXT_WINDOW, source: "default" };
}
