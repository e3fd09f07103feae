/**
 * Which built-in provider a bare model id belongs to, judged by its family
 * prefix as each ecosystem writes it: `claude-…` is Anthropic's; `gpt-…`,
 * `o1…`, `o3…`, `o4…`, `codex-…` and `chatgpt-…` are OpenAI's; `gemini-…` is
 * Google's. Also the example id each provider's hints show. Pure.
 *
 * @example
 * ```ts
 * providerOfBareId("claude-sonnet-4-20250514"); // "anthropic"
 * providerOfBareId("gpt-5.1-codex");            // "openai"
 * providerOfBareId("qwen3:8b");                 // undefined
 * ```
 *
 * @module
 */
import { CLAUDE_TIERS } from "./claude-tiers.ts";

/** Family prefixes, checked in order, and the provider each means. */
const FAMILIES: readonly { test: RegExp; provider: string }[] = [
  { test: /^claude-/, provider: "anthropic" },
  { test: /^(?:gpt-|codex-|chatgpt-)/, provider: "openai" },
  { test: /^o[134](?:$|[-.])/, provider: "openai" },
  { test: /^gemini-/, provider: "google" },
];

/** The built-in provider of a model id written without `provider/`, or undefined. */
export function providerOfBareId(id: string): string | undefined {
  const lower = id.trim().toLowerCase();
  return FAMILIES.find((f) => f.test.test(lower))?.provider;
}

/** The families a bare id may start with, for messages. */
export const FAMILY_LIST = "claude-…, gpt-…, o1/o3/o4…, codex-…, chatgpt-…, gemini-…";

/** A model id that works with each built-in provider, for hints. */
export const EXAMPLE_MODELS: Readonly<Record<string, string>> = {
  anthropic: `anthropic/${CLAUDE_TIERS.sonnet.model}`,
  openai: "openai/gpt-5",
  google: "google/gemini-2.5-pro",
  ollama: "ollama/qwen3:8b",
};

/** A correct `provider/model` example for `provider` (a placeholder model for custom ones). */
export function exampleModel(provider: string): string {
  return Object.hasOwn(EXAMPLE_MODELS, provider) ? EXAMPLE_MODELS[provider] : `${provider}/MODEL`;
}
