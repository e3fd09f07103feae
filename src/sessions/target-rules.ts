/**
 * What a provider accepts in a conversation it is sent, and the one
 * sanitiser that makes any stored history fit it. Used on every resume and
 * switch (`replay.ts`) and before every request of a running task
 * (`child/model-caller.ts`), so the same rules hold in both places:
 * - tool-call ids: Anthropic takes `^[a-zA-Z0-9_-]+$`, OpenAI (Responses and
 *   chat) a `call_id` of at most 64 characters; Gemini's ids are optional
 *   and not checked. An id the target refuses becomes `call_` and 24 hex
 *   digits of its SHA-256, the same for the call and its result, so they
 *   stay paired; ids that fit are kept as they are;
 * - whitespace-only or empty text parts are dropped (Anthropic refuses
 *   them: "text content blocks must contain non-whitespace text"); other
 *   targets keep one only when it carries provider metadata (a Gemini thought
 *   signature rides on an empty text part); an empty tool result says so in
 *   words instead (Anthropic refuses an empty `is_error` result);
 * - an assistant message left empty is dropped.
 * Pure, on the stored JSON (shapes are checked, not assumed).
 *
 * @example
 * ```ts
 * forTarget([{ role: "assistant", content: [{ type: "text", text: "\n\n" },
 *   { type: "tool-call", toolCallId: "functions.read:20", toolName: "read", input: {} }] }], "anthropic");
 * // [{ role: "assistant", content: [{ type: "tool-call", toolCallId: "call_…", ... }] }]
 * ```
 *
 * @module
 */
import { sha256Hex } from "../runtime.ts";
import { isRecord } from "../formats/values.ts";
import { mapParts } from "./message-parts.ts";

/** The wire a conversation is sent on (the provider types of the config). */
export type TargetWire = "anthropic" | "openai" | "google" | "openai-compatible";

/** Anthropic's `tool_use.id` pattern. */
const ANTHROPIC_ID = /^[a-zA-Z0-9_-]+$/;
/** OpenAI's longest `call_id` / `tool_call_id`. */
const OPENAI_ID_MAX = 64;

/** Whether `target` takes `id` as a tool-call id. */
export function idFits(target: TargetWire, id: string): boolean {
  if (id === "") return false;
  switch (target) {
    case "anthropic":
      return ANTHROPIC_ID.test(id);
    case "openai":
    case "openai-compatible":
      return id.length <= OPENAI_ID_MAX;
    case "google":
      return true;
  }
}

/** `id` as `target` takes it: unchanged when it fits, else a short hash-based id. */
export function fittedId(target: TargetWire, id: string): string {
  if (idFits(target, id)) return id;
  return `call_${sha256Hex(id).slice(0, 24)}`;
}

/** The text a tool result with no output carries instead. */
export const EMPTY_RESULT = "(no output)";

const blank = (s: unknown) => typeof s === "string" && s.trim() === "";

/**
 * `messages` as `target` accepts them (see the module comment); `changed`
 * counts the ids rewritten and the parts dropped or filled in.
 */
export function forTarget(
  messages: readonly unknown[],
  target: TargetWire,
): { messages: unknown[]; changed: number } {
  let changed = 0;
  const id = (v: unknown) => {
    if (typeof v !== "string") return v;
    const out = fittedId(target, v);
    if (out !== v) changed++;
    return out;
  };
  const out = mapParts(messages, (p) => {
    if (p.type === "text" && (p.text === undefined || blank(p.text))) {
      if (target === "anthropic" || p.providerOptions === undefined) {
        changed++;
        return undefined;
      }
    }
    if (p.type !== "tool-call" && p.type !== "tool-result") return p;
    const part: Record<string, unknown> = { ...p, toolCallId: id(p.toolCallId) };
    const output = p.output;
    if (p.type !== "tool-result" || !isRecord(output) || !blank(output.value)) return part;
    changed++;
    return { ...part, output: { ...output, value: EMPTY_RESULT } };
  });
  return { messages: out, changed };
}

/**
 * Whether the conversation ends inside a tool loop whose last assistant
 * message does not start with reasoning: Anthropic with budget thinking
 * refuses that ("a final `assistant` message must start with a thinking
 * block"), and its extended-thinking guide lets thinking be off for a turn
 * that was written without it. The caller then sends that request without
 * thinking.
 */
export function openLoopWithoutThinking(messages: readonly unknown[]): boolean {
  const last = messages.at(-1);
  const inLoop = isRecord(last) && last.role === "tool" ||
    isRecord(last) && last.role === "user" && isRecord(messages.at(-2)) &&
      (messages.at(-2) as Record<string, unknown>).role === "tool";
  if (!inLoop) return false;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (!isRecord(m) || m.role !== "assistant") continue;
    if (!Array.isArray(m.content)) return false;
    const parts = m.content.filter(isRecord);
    if (!parts.some((p) => p.type === "tool-call")) return false;
    return parts[0]?.type !== "reasoning";
  }
  return false;
}
