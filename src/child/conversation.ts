/**
 * The conversation a child keeps between turns, and how it maps to the
 * provider interface: our messages and parts become the provider prompt (with
 * their provider metadata passed back as options), our tool definitions the
 * provider's function tools, and a streamed tool call's JSON text a parsed,
 * prototype-safe input or the reason it cannot be run.
 *
 * @example
 * ```ts
 * toPrompt("Be brief.", [{ role: "user", content: "hi" }]);
 * // [{ role: "system", content: "Be brief." }, { role: "user", content: [{ type: "text", text: "hi" }] }]
 * ```
 *
 * @module
 */
import type {
  LanguageModelV4,
  LanguageModelV4FunctionTool,
  LanguageModelV4Message,
  LanguageModelV4Prompt,
  SharedV4ProviderOptions,
} from "@ai-sdk/provider";
import type { JsonSchemaObject } from "../tools/tool-spec.ts";

/** The language model a child talks to. */
export type LanguageModel = LanguageModelV4;

/** Provider-specific data on a part: metadata coming back, options going out. */
export type PartMetadata = SharedV4ProviderOptions;

export interface TextPart {
  type: "text";
  text: string;
  providerOptions?: PartMetadata;
}

export interface ReasoningPart {
  type: "reasoning";
  text: string;
  providerOptions?: PartMetadata;
}

export interface ToolCallPart {
  type: "tool-call";
  toolCallId: string;
  toolName: string;
  /** The parsed arguments (an object). */
  input: unknown;
  providerOptions?: PartMetadata;
}

export interface ToolResultPart {
  type: "tool-result";
  toolCallId: string;
  toolName: string;
  output: { type: "text"; value: string } | { type: "error-text"; value: string };
}

/** One message of the conversation the loop keeps between turns. */
export type Message =
  | { role: "user"; content: string }
  | { role: "assistant"; content: string | Array<TextPart | ReasoningPart | ToolCallPart> }
  | { role: "tool"; content: ToolResultPart[] };

/** A tool as the model sees it. */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: JsonSchemaObject;
  /** Ask the provider to constrain the arguments to the schema (OpenAI strict mode). */
  strict?: boolean;
}

/** A tool call the model made. `invalid` says why it cannot be run. */
export interface ToolCall {
  id: string;
  name: string;
  input: unknown;
  invalid?: string;
}

/** The provider's tool list for a list of definitions (calls come back to us). */
export function toProviderTools(defs: readonly ToolDefinition[]): LanguageModelV4FunctionTool[] {
  return defs.map((d) => ({
    type: "function",
    name: d.name,
    description: d.description,
    inputSchema: d.inputSchema as LanguageModelV4FunctionTool["inputSchema"],
    ...(d.strict ? { strict: true } : {}),
  }));
}

/** `part` with its provider metadata attached, when it has any. */
export function withOptions<T extends object>(part: T, options: PartMetadata | undefined): T {
  return options ? { ...part, providerOptions: options } : part;
}

/**
 * The provider prompt for a conversation: the system prompt first (none when
 * it is blank: Anthropic refuses a whitespace-only text block), user text,
 * assistant parts with their provider options (empty text without options
 * dropped), and tool results (consecutive tool messages merged).
 */
export function toPrompt(system: string, messages: readonly Message[]): LanguageModelV4Prompt {
  const prompt: LanguageModelV4Prompt = system.trim() === ""
    ? []
    : [{ role: "system", content: system }];
  for (const m of messages) {
    switch (m.role) {
      case "user":
        prompt.push({ role: "user", content: [{ type: "text", text: m.content }] });
        break;
      case "assistant": {
        if (typeof m.content === "string") {
          prompt.push({ role: "assistant", content: [{ type: "text", text: m.content }] });
          break;
        }
        const content: Extract<LanguageModelV4Message, { role: "assistant" }>["content"] = [];
        for (const p of m.content) {
          switch (p.type) {
            case "text":
              if (p.text !== "" || p.providerOptions) {
                content.push(withOptions({ type: "text", text: p.text }, p.providerOptions));
              }
              break;
            case "reasoning":
              content.push(withOptions({ type: "reasoning", text: p.text }, p.providerOptions));
              break;
            case "tool-call":
              content.push(withOptions({
                type: "tool-call",
                toolCallId: p.toolCallId,
                toolName: p.toolName,
                input: p.input,
              }, p.providerOptions));
              break;
          }
        }
        prompt.push({ role: "assistant", content });
        break;
      }
      case "tool": {
        const parts = m.content.map((p) => ({
          type: "tool-result" as const,
          toolCallId: p.toolCallId,
          toolName: p.toolName,
          output: { type: p.output.type, value: p.output.value },
        }));
        const last = prompt.at(-1);
        if (last?.role === "tool") last.content.push(...parts);
        else if (parts.length > 0) prompt.push({ role: "tool", content: parts });
        break;
      }
    }
  }
  return prompt;
}

/** Parses JSON, refusing `__proto__` keys and `constructor.prototype` (prototype poisoning). */
function parseJsonSafely(text: string): unknown {
  return JSON.parse(text, function (key, value) {
    if (
      key === "__proto__" ||
      (key === "constructor" && value && typeof value === "object" && "prototype" in value)
    ) {
      throw new SyntaxError(`forbidden key '${key}'`);
    }
    return value;
  });
}

/**
 * A tool call as the stream delivered it (`input` is JSON text) checked
 * against the offered tools: unknown names and input that is not JSON come
 * back with `invalid` set, for the loop to report to the model.
 */
export function parseToolCall(
  part: { toolCallId: string; toolName: string; input: string },
  offered: readonly ToolDefinition[],
): ToolCall {
  const call: ToolCall = { id: part.toolCallId, name: part.toolName, input: part.input };
  const text = typeof part.input === "string" ? part.input : JSON.stringify(part.input ?? {});
  let parseError: string | undefined;
  try {
    call.input = text.trim() === "" ? {} : parseJsonSafely(text);
  } catch (err) {
    parseError = err instanceof Error ? err.message : String(err);
  }
  if (!offered.some((d) => d.name === part.toolName)) {
    call.invalid = `Model tried to call unavailable tool '${part.toolName}'. Available tools: ${
      offered.map((d) => d.name).join(", ")
    }.`;
  } else if (parseError !== undefined) {
    call.invalid = `input is not valid JSON: ${parseError}`;
  }
  return call;
}
