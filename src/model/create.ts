/**
 * Turns a resolved provider and a model name into a provider model
 * (`LanguageModelV4`, spoken to directly by `src/child/turn.ts`).
 * The only module that knows the providers' model factories, each loaded
 * only when a child uses it (a child talks to one provider; loading all four
 * costs start-up time). The `openai` type speaks OpenAI's Responses API
 * (prompt cache keys, reasoning items kept across turns) through the AI
 * SDK's package, as do `anthropic` and `google`; OpenAI-compatible servers
 * speak Chat Completions through `chat-completions.ts`.
 *
 * @example
 * ```ts
 * import { defaultConfig } from "../config/validate.ts";
 * import { resolveProvider } from "./providers.ts";
 *
 * const p = resolveProvider("anthropic", defaultConfig(), process.env);
 * if (p.ok) await createLanguageModel(p.value, "claude-sonnet-4-5");
 * ```
 *
 * @module
 */
import type { LanguageModelV4 } from "@ai-sdk/provider";
import type { ResolvedProvider } from "./providers.ts";

/**
 * A language model for `provider` and `model` (the part after `provider/`).
 * `includeUsage: false` leaves out the `stream_options` an OpenAI-compatible
 * server refused.
 */
export async function createLanguageModel(
  provider: ResolvedProvider,
  model: string,
  options: { includeUsage?: boolean } = {},
): Promise<LanguageModelV4> {
  const { baseURL, apiKey } = provider;
  switch (provider.type) {
    case "anthropic": {
      const { createAnthropic } = await import("@ai-sdk/anthropic");
      return createAnthropic({ baseURL, apiKey: apiKey ?? "" })(model);
    }
    case "openai": {
      const { createOpenAI } = await import("@ai-sdk/openai");
      return createOpenAI({ baseURL, apiKey: apiKey ?? "" }).responses(model);
    }
    case "google": {
      const { createGoogleGenerativeAI } = await import("@ai-sdk/google");
      return createGoogleGenerativeAI({ baseURL, apiKey: apiKey ?? "" })(model);
    }
    case "openai-compatible": {
      const { chatCompletionsModel } = await import("./chat-completions.ts");
      return chatCompletionsModel({
        providerName: provider.name,
        baseURL,
        model,
        ...(apiKey ? { apiKey } : {}),
        includeUsage: options.includeUsage ?? true,
      });
    }
  }
}
