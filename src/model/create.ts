/**
 * Turns a resolved provider and a model name into an AI SDK language model.
 * The only module that knows the SDK's provider factories. OpenAI is spoken
 * through its Chat Completions API, which OpenAI-compatible proxies share.
 *
 * @example
 * ```ts
 * const p = resolveProvider("anthropic", config, process.env);
 * if (p.ok) createLanguageModel(p.value, "claude-sonnet-4-5");
 * ```
 *
 * @module
 */
import type { LanguageModel } from "ai";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { ResolvedProvider } from "./providers.ts";

/** A language model for `provider` and `model` (the part after `provider/`). */
export function createLanguageModel(provider: ResolvedProvider, model: string): LanguageModel {
  const { baseURL, apiKey } = provider;
  switch (provider.type) {
    case "anthropic":
      return createAnthropic({ baseURL, apiKey: apiKey ?? "" })(model);
    case "openai":
      return createOpenAI({ baseURL, apiKey: apiKey ?? "" }).chat(model);
    case "google":
      return createGoogleGenerativeAI({ baseURL, apiKey: apiKey ?? "" })(model);
    case "openai-compatible":
      return createOpenAICompatible({
        name: provider.name,
        baseURL,
        apiKey,
        includeUsage: true,
      })(model);
  }
}
