/**
 * The body of a streamed Chat Completions request (`POST /chat/completions`)
 * for an OpenAI-compatible server (Ollama, vLLM, LM Studio, llama.cpp,
 * OpenRouter and the like), from the provider interface's call options.
 * Pure.
 *
 * What is sent:
 * - `messages`: the system prompt; a user message's text (one part as a
 *   string, several as text parts); an assistant message's text, its
 *   reasoning as `reasoning_content` (what DeepSeek, vLLM and Ollama read
 *   back) and its tool calls with their arguments as JSON text (`content`
 *   is null beside tool calls when there is no text); one `tool` message
 *   per tool result, its text as the content (a JSON result as JSON text);
 * - `tools` as functions and `tool_choice` (`auto`, `none`, `required`, or
 *   one function), both left out when there are no tools;
 * - `max_tokens`, `temperature`, `top_p`, `frequency_penalty`,
 *   `presence_penalty`, `stop`, `seed` when set; `top_k` is not part of the
 *   format and is never sent;
 * - `reasoning_effort` from the provider options' `reasoningEffort`, and
 *   any other key of the provider's options as it is;
 * - `stream: true`, and `stream_options.include_usage` unless the server
 *   refused it.
 *
 * @example
 * ```ts
 * chatRequestBody("qwen3:8b", {
 *   prompt: [
 *     { role: "system", content: "Be brief." },
 *     { role: "user", content: [{ type: "text", text: "hi" }] },
 *   ],
 *   maxOutputTokens: 100,
 * }, { providerName: "ollama", includeUsage: true });
 * // { model: "qwen3:8b", max_tokens: 100, messages: [{ role: "system", content: "Be brief." },
 * //   { role: "user", content: "hi" }], stream: true, stream_options: { include_usage: true } }
 * ```
 *
 * @module
 */
import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Prompt,
  LanguageModelV4ToolResultOutput,
} from "@ai-sdk/provider";

/** One message of the Chat Completions format. */
export type ChatMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string | { type: "text"; text: string }[] }
  | {
    role: "assistant";
    content: string | null;
    reasoning_content?: string;
    tool_calls?: {
      id: string;
      type: "function";
      function: { name: string; arguments: string };
    }[];
  }
  | { role: "tool"; tool_call_id: string; content: string };

/** Provider options this module reads itself (the rest go into the body as they are). */
const READ_OPTIONS = new Set(["reasoningEffort", "user"]);

/** A `tool-call` part's input as JSON text: text that is JSON stays as it is. */
export function argumentsText(input: unknown): string {
  if (typeof input === "string") {
    try {
      JSON.parse(input);
      return input;
    } catch {
      return JSON.stringify(input);
    }
  }
  return JSON.stringify(input ?? {});
}

/** A tool result's output as the `tool` message's text. */
function outputText(output: LanguageModelV4ToolResultOutput): string {
  switch (output.type) {
    case "text":
    case "error-text":
      return output.value;
    case "json":
    case "error-json":
      return JSON.stringify(output.value);
    case "execution-denied":
      return output.reason ?? "Tool call execution denied.";
    case "content":
      return JSON.stringify(output.value);
  }
}

/** `prompt` as Chat Completions messages; an unsupported part is an error naming it. */
export function chatMessages(prompt: LanguageModelV4Prompt): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const message of prompt) {
    switch (message.role) {
      case "system":
        out.push({ role: "system", content: message.content });
        break;
      case "user": {
        const texts = message.content.map((p) => {
          if (p.type !== "text") {
            throw new Error(`an OpenAI-compatible chat request cannot carry a ${p.type} part`);
          }
          return { type: "text" as const, text: p.text };
        });
        out.push({ role: "user", content: texts.length === 1 ? texts[0].text : texts });
        break;
      }
      case "assistant": {
        let text = "";
        let reasoning = "";
        const calls: NonNullable<Extract<ChatMessage, { role: "assistant" }>["tool_calls"]> = [];
        for (const p of message.content) {
          if (p.type === "text") text += p.text;
          else if (p.type === "reasoning") reasoning += p.text;
          else if (p.type === "tool-call") {
            calls.push({
              id: p.toolCallId,
              type: "function",
              function: { name: p.toolName, arguments: argumentsText(p.input) },
            });
          }
        }
        out.push({
          role: "assistant",
          content: calls.length > 0 ? text || null : text,
          ...(reasoning ? { reasoning_content: reasoning } : {}),
          ...(calls.length > 0 ? { tool_calls: calls } : {}),
        });
        break;
      }
      case "tool":
        for (const p of message.content) {
          if (p.type !== "tool-result") continue;
          out.push({ role: "tool", tool_call_id: p.toolCallId, content: outputText(p.output) });
        }
        break;
    }
  }
  return out;
}

/** The `tools` and `tool_choice` fields, or nothing when the call offers no tools. */
function toolFields(
  tools: LanguageModelV4CallOptions["tools"],
  choice: LanguageModelV4CallOptions["toolChoice"],
): Record<string, unknown> {
  const functions = (tools ?? []).filter((t) => t.type === "function");
  if (functions.length === 0) return {};
  return {
    tools: functions.map((t) => ({
      type: "function",
      function: {
        name: t.name,
        ...(t.description !== undefined ? { description: t.description } : {}),
        parameters: t.inputSchema,
        ...(t.strict !== undefined ? { strict: t.strict } : {}),
      },
    })),
    ...(choice === undefined
      ? {}
      : choice.type === "tool"
      ? { tool_choice: { type: "function", function: { name: choice.toolName } } }
      : { tool_choice: choice.type }),
  };
}

/**
 * The streamed request's body for `model`, with the options of the provider
 * named `providerName` (`providerOptions[providerName]`).
 */
export function chatRequestBody(
  model: string,
  o: Pick<
    LanguageModelV4CallOptions,
    | "prompt"
    | "maxOutputTokens"
    | "temperature"
    | "topP"
    | "frequencyPenalty"
    | "presencePenalty"
    | "stopSequences"
    | "seed"
    | "reasoning"
    | "providerOptions"
    | "tools"
    | "toolChoice"
  >,
  at: { providerName: string; includeUsage: boolean },
): Record<string, unknown> {
  const own = (o.providerOptions?.[at.providerName] ?? {}) as Record<string, unknown>;
  const extra = Object.fromEntries(Object.entries(own).filter(([k]) => !READ_OPTIONS.has(k)));
  const effort = own.reasoningEffort !== undefined
    ? own.reasoningEffort
    : o.reasoning !== undefined && o.reasoning !== "provider-default"
    ? o.reasoning
    : undefined;
  const set = (key: string, value: unknown) => value === undefined ? {} : { [key]: value };
  return {
    model,
    ...set("user", own.user),
    ...set("max_tokens", o.maxOutputTokens),
    ...set("temperature", o.temperature),
    ...set("top_p", o.topP),
    ...set("frequency_penalty", o.frequencyPenalty),
    ...set("presence_penalty", o.presencePenalty),
    ...set("stop", o.stopSequences),
    ...set("seed", o.seed),
    ...extra,
    ...set("reasoning_effort", effort),
    messages: chatMessages(o.prompt),
    ...toolFields(o.tools, o.toolChoice),
    stream: true,
    ...(at.includeUsage ? { stream_options: { include_usage: true } } : {}),
  };
}
