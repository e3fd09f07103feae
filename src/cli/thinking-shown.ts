/**
 * What a thinking level becomes on a resolved `provider/model`, in the words
 * `agents show` and `run --dry-run` print: the capability table's line for
 * the provider the id names (`capabilities.ts`), without asking any server.
 * Pure: config and environment are passed in.
 *
 * @example
 * ```ts
 * import { defaultConfig } from "../config/validate.ts";
 *
 * thinkingShown("openai/gpt-5.4-mini", "minimal", defaultConfig(), {});
 * // "reasoning.effort low (gpt-5.4-mini has no minimal)"
 * ```
 *
 * @module
 */
import { modelRequest } from "../model/capabilities.ts";
import {
  BUILTIN_PROVIDERS,
  providerTypeNamed,
  resolveProvider,
  splitModelId,
} from "../model/providers.ts";
import type { ThinkingLevel, XcshConfig } from "../types.ts";

/** The line, or undefined when the id names no provider this config knows. */
export function thinkingShown(
  modelId: string,
  level: ThinkingLevel | undefined,
  config: XcshConfig,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const split = splitModelId(modelId);
  if (!split) return undefined;
  const { provider: name, model } = split;
  const builtin = Object.hasOwn(BUILTIN_PROVIDERS, name) ? BUILTIN_PROVIDERS[name] : undefined;
  const custom = Object.hasOwn(config.providers, name) ? config.providers[name] : undefined;
  const type = providerTypeNamed(name, config);
  if (!type) return undefined;
  // A missing key does not change what would be sent: only the type and URL matter.
  const resolved = resolveProvider(name, config, env);
  const baseURL = resolved.ok ? resolved.value.baseURL : custom?.baseURL ?? builtin?.baseURL;
  return modelRequest(
    { type, provider: name, model, level },
    baseURL ?? "",
  ).sent;
}
