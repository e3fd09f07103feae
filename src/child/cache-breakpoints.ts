/**
 * Where a turn's request asks Anthropic to cache its prompt, and what the
 * other providers are told for their own prompt caches.
 *
 * Anthropic caches a prefix only up to a `cache_control` breakpoint, at most
 * four per request. Each turn marks:
 * 1. the last tool (the tool list is the start of the prefix and never changes);
 * 2. the system prompt (stable for the whole task);
 * 3. the message that ended the previous turn's request (what the previous
 *    turn wrote to the cache is read back here, however many blocks the last
 *    turn added);
 * 4. the last message (written now, read by the next turn).
 * OpenAI (the `openai` provider type, Responses API) caches prefixes itself;
 * its requests carry a `prompt_cache_key` for the task so they reach the
 * same cache, and `store: false` (the whole conversation is sent each turn;
 * nothing is kept on OpenAI's side). Gemini and OpenAI-compatible servers get
 * nothing. Pure.
 *
 * @example
 * ```ts
 * import { type Message, toPrompt, type ToolDefinition, toProviderTools } from "./conversation.ts";
 *
 * declare const messages: Message[];
 * declare const defs: ToolDefinition[];
 * const { prompt, tools } = withAnthropicBreakpoints(toPrompt("Be brief.", messages), toProviderTools(defs));
 * ```
 *
 * @module
 */
import type { LanguageModelV4FunctionTool, LanguageModelV4Prompt } from "@ai-sdk/provider";
import type { ProviderType } from "../model/providers.ts";
import type { ProviderOptions } from "../model/capabilities.ts";

/** Anthropic's limit of breakpoints per request. */
export const MAX_BREAKPOINTS = 4;

const EPHEMERAL = { anthropic: { cacheControl: { type: "ephemeral" } } };

/** `options` with Anthropic's ephemeral cache control added. */
function mark<T extends { providerOptions?: Record<string, Record<string, unknown>> }>(
  item: T,
): T {
  const own = item.providerOptions ?? {};
  return {
    ...item,
    providerOptions: { ...own, anthropic: { ...own.anthropic, ...EPHEMERAL.anthropic } },
  };
}

/** The prompt and tools of one Anthropic request, with cache breakpoints. */
export function withAnthropicBreakpoints(
  prompt: LanguageModelV4Prompt,
  tools: LanguageModelV4FunctionTool[],
): { prompt: LanguageModelV4Prompt; tools: LanguageModelV4FunctionTool[] } {
  const markedTools = tools.map((t, i) => (i === tools.length - 1 ? mark(t) : t));
  const marks = new Set<number>();
  const system = prompt.findIndex((m) => m.role === "system");
  if (system >= 0) marks.add(system);
  const last = prompt.length - 1;
  if (last > system) marks.add(last);
  // The previous request ended just before the last assistant message.
  let assistant = last;
  while (assistant > 0 && prompt[assistant].role !== "assistant") assistant--;
  if (assistant - 1 > system && prompt[assistant]?.role === "assistant") marks.add(assistant - 1);
  const markedPrompt = prompt.map((m, i) => (marks.has(i) ? mark(m) : m)) as LanguageModelV4Prompt;
  return { prompt: markedPrompt, tools: markedTools };
}

/** Call-level provider options for prompt caching; `taskKey` names the task. */
export function cacheOptions(type: ProviderType, taskKey: string): ProviderOptions {
  if (type === "openai") return { openai: { promptCacheKey: taskKey, store: false } };
  return {};
}

/** `a` and `b` merged per provider (b's keys win inside a provider's options). */
export function mergeProviderOptions(a: ProviderOptions, b: ProviderOptions): ProviderOptions {
  const out: ProviderOptions = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = { ...out[k], ...v };
  return out;
}
