/**
 * A model's context window before the price catalogue is asked: the
 * config's (`providers.<name>.contextWindow`), the server's, or, for a
 * model the catalogue cannot know (an OpenAI-compatible server, an unknown
 * provider), the default. `context-window.ts` adds the catalogue; this
 * module does not load it, so that a child whose window is settled here
 * never parses the 88 KB table.
 *
 * @example
 * ```ts
 * import { defaultConfig } from "../config/validate.ts";
 *
 * windowBeforeCatalogue("ollama/qwen3:8b", defaultConfig(), 40960); // { tokens: 40960, source: "server" }
 * windowBeforeCatalogue("anthropic/claude-sonnet-4-5", defaultConfig()); // undefined: ask the catalogue
 * ```
 *
 * @module
 */
import { type ProviderType, providerTypeNamed, splitModelId } from "./providers.ts";
import type { XcshConfig } from "../types.ts";

/** The window assumed when nothing tells (tokens): smaller than most current hosted models'. */
export const DEFAULT_CONTEXT_WINDOW = 128_000;

/** A model's window and where it was read. */
export interface ModelWindow {
  tokens: number;
  source: "config" | "server" | "catalogue" | "default";
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

/**
 * The wire type whose models the catalogue lists for `modelId`
 * (`provider/model`), or undefined when it lists none of them.
 */
export function catalogueType(modelId: string, config: XcshConfig): ProviderType | undefined {
  const split = splitModelId(modelId);
  if (!split) return undefined;
  // The provider's wire type (its key does not matter here).
  const type = providerTypeNamed(split.provider, config);
  return type === "openai-compatible" ? undefined : type;
}

/**
 * The window of `modelId` from the config, then the server's own
 * (`served`), then the default where the catalogue lists no such model;
 * undefined when the catalogue must be asked.
 */
export function windowBeforeCatalogue(
  modelId: string,
  config: XcshConfig,
  served?: number,
): ModelWindow | undefined {
  const configured = configuredWindow(modelId, config);
  if (configured !== undefined) return { tokens: configured, source: "config" };
  if (served !== undefined && served > 0) return { tokens: served, source: "server" };
  if (catalogueType(modelId, config) === undefined) {
    return { tokens: DEFAULT_CONTEXT_WINDOW, source: "default" };
  }
  return undefined;
}
