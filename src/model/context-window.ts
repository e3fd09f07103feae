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
import { BUILTIN_PROVIDERS, splitModelId } from "./providers.ts";
import type { XcshConfig } from "../types.ts";

/** The window assumed when nothing tells (tokens): smaller than most current hosted models'. */
export const DEFAULT_CONTEXT_WINDOW = 128_000;

/** A model's window and where it was read. */
export interface ModelWindow {
  tokens: number;
  source: "config" | "server" | "catalogue" | "default";
}

/** The context window of `modelId` (`provider/model`) in the catalogue, or undefined when unknown. */
export function contextWindowOf(modelId: string, config: XcshConfig): number | undefined {
  const split = splitModelId(modelId);
  if (!split) return undefined;
  // The provider's wire type (its key does not matter here).
  // (A config entry for a built-in provider may set only some fields.)
  const type =
    (Object.hasOwn(config.providers, split.provider)
      ? config.providers[split.provider].type
      : undefined) ??
      (Object.hasOwn(BUILTIN_PROVIDERS, split.provider)
        ? BUILTIN_PROVIDERS[split.provider].type
        : undefined);
  if (type === undefined || type === "openai-compatible") return undefined;
  const models = (table as PriceTable).providers[type];
  return models?.find((m) => matches(m.match, split.model))?.contextWindow;
}

/** The window the config sets for `modelId`, if any. */
export function configuredWindow(modelId: string, config: XcshConfig): number | undefined {
  const split = splitModelId(modelId);
  if (!split || !Object.hasOwn(config.providers, split.provider)) return undefined;
  const set = config.providers[split.provider].contextWindow;
  if (typeof set === "number") return set;
  if (set && Object.hasOwn(set, split.model)) return set[split.model];
  return set && Object.hasOwn(set, "*") ? set["*"] : undefined;
}

/** The window of `modelId`: config, then the server's own (`served`), the catalogue, the default. */
export function windowOf(modelId: string, config: XcshConfig, served?: number): ModelWindow {
  const configured = configuredWindow(modelId, config);
  if (configured !== undefined) return { tokens: configured, source: "config" };
  if (served !== undefined && served > 0) return { tokens: served, source: "server" };
  const known = contextWindowOf(modelId, config);
  if (known !== undefined) return { tokens: known, source: "catalogue" };
  return { tokens: DEFAULT_CONTEXT_WINDOW, source: "default" };
}
