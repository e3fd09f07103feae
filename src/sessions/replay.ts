/**
 * What a resumed conversation holds: the session's messages made
 * well-formed for every provider, and what is dropped when it continues on
 * another model.
 *
 * Every provider refuses a conversation in which a tool call is not answered
 * by its result right after it (or a result answers no call). A run can end
 * between the two: a timeout, a cancel or a crash (SIGKILL) while a call
 * runs, or a session written before endings were recorded. On replay:
 * - a call left unanswered gets an error result saying the run was
 *   interrupted, placed with the results right after its assistant message;
 * - a result that answers no call of the assistant message before it is
 *   dropped (and a tool message left empty with it).
 * Provider metadata (Anthropic thinking signatures and redacted thinking,
 * OpenAI encrypted reasoning and item ids, Gemini thought signatures) is
 * valid only for the model that wrote it: continuing on another model drops
 * the reasoning parts and every part's provider metadata. What each
 * provider accepts beyond that (tool-call ids, blank text, an open tool loop
 * under Anthropic budget thinking) is `target-rules.ts`, applied to every
 * request the child sends, a resumed one included. Pure, on the stored JSON
 * (shapes are checked, not assumed).
 *
 * @example
 * ```ts
 * wellFormed([{ role: "user", content: "go" },
 *   { role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", toolName: "bash", input: {} }] }]);
 * // [..., { role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName: "bash",
 * //   output: { type: "error-text", value: "Interrupted: ..." } }] }]
 * ```
 *
 * @module
 */
import { isRecord } from "../formats/values.ts";
import { mapParts } from "./message-parts.ts";

/** The result a call gets when its run ended before it returned. */
export const INTERRUPTED_RESULT =
  "Interrupted: the run ended (timeout, cancel or crash) before this call returned; " +
  "its effects, if any, are unknown.";

type Part = Record<string, unknown>;

function parts(m: unknown): Part[] {
  return isRecord(m) && Array.isArray(m.content) ? m.content.filter(isRecord) : [];
}

function calls(m: unknown): { id: string; name: string }[] {
  if (!isRecord(m) || m.role !== "assistant") return [];
  return parts(m).filter((p) => p.type === "tool-call" && typeof p.toolCallId === "string")
    .map((p) => ({ id: p.toolCallId as string, name: String(p.toolName ?? "") }));
}

function isTool(m: unknown): boolean {
  return isRecord(m) && m.role === "tool";
}

/**
 * `messages` with every tool call answered right after its assistant
 * message (unanswered ones as interrupted) and no result without its call.
 * `repaired` counts the results added and dropped.
 */
export function wellFormed(
  messages: readonly unknown[],
): { messages: unknown[]; repaired: number } {
  const out: unknown[] = [];
  let repaired = 0;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (isTool(m)) {
      // A tool message not right after an assistant message's calls answers nothing.
      repaired += parts(m).length;
      continue;
    }
    out.push(m);
    const made = calls(m);
    if (made.length === 0) continue;
    // The results that follow, merged (the provider prompt merges them too).
    const results: Part[] = [];
    while (i + 1 < messages.length && isTool(messages[i + 1])) {
      results.push(...parts(messages[++i]));
    }
    const answered = new Map<string, Part>();
    for (const r of results) {
      const id = r.toolCallId;
      if (r.type === "tool-result" && typeof id === "string" && made.some((c) => c.id === id)) {
        if (!answered.has(id)) answered.set(id, r);
        else repaired++;
      } else repaired++;
    }
    out.push({
      role: "tool",
      content: made.map((c) => {
        const r = answered.get(c.id);
        if (r) return r;
        repaired++;
        return {
          type: "tool-result",
          toolCallId: c.id,
          toolName: c.name,
          output: { type: "error-text", value: INTERRUPTED_RESULT },
        };
      }),
    });
  }
  return { messages: out, repaired };
}

/**
 * `messages` without what only the model that wrote them can read: reasoning
 * parts, and every part's provider metadata. `dropped` counts the parts and
 * metadata removed; assistant messages left empty are dropped.
 */
export function withoutProviderData(
  messages: readonly unknown[],
): { messages: unknown[]; dropped: number } {
  let dropped = 0;
  const out = mapParts(messages, (p) => {
    if (p.type === "reasoning" || (p.type === "text" && p.text === "")) {
      // Empty text is kept only to carry metadata.
      dropped++;
      return undefined;
    }
    if (p.providerOptions === undefined) return p;
    dropped++;
    const { providerOptions: _dropped, ...rest } = p;
    return rest;
  });
  return { messages: out, dropped };
}

/** What a resumed task continues on: its model, its conversation, and what to say. */
export interface Continuation {
  model: string;
  messages: unknown[];
  /** Set when the model changed: from what to what, and what was dropped. */
  note?: string;
}

/**
 * The model a resumed session continues on: the one it last ran on, or the
 * `requested` one (`--model`) when given. A change of model drops the
 * provider data (`withoutProviderData`) and says so; `undefined` when there
 * is no model at all.
 */
export function continuation(
  messages: readonly unknown[],
  sessionModel: string | null,
  requested: string | undefined,
): Continuation | undefined {
  const model = requested ?? sessionModel;
  if (!model) return undefined;
  if (!sessionModel || model === sessionModel) return { model, messages: [...messages] };
  const stripped = withoutProviderData(messages);
  const what = stripped.dropped === 0
    ? ""
    : `; ${stripped.dropped} item${
      stripped.dropped === 1 ? "" : "s"
    } of reasoning and provider metadata (thinking and thought signatures, encrypted ` +
      "reasoning) dropped: they are valid only for the model that wrote them";
  return {
    model,
    messages: stripped.messages,
    note: `session switched from ${sessionModel} to ${model}${what}`,
  };
}
