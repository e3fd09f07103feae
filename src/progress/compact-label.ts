/**
 * How a `compact` event reads in one line: what replaced the older turns,
 * the estimated tokens before and after, and why the summary failed the
 * first time it did. Shared by the CLI's progress and the MCP server's
 * progress messages. Pure.
 *
 * @example
 * ```ts
 * compactLabel({ type: "compact", id: "0", trigger: "auto", method: "summary", tokensBefore: 150000, tokensAfter: 30000, messages: 40 });
 * // "compacted the conversation to fit the window: 40 older messages summarised (150000 → 30000 tokens)"
 * ```
 *
 * @module
 */
import { oneLine } from "../text/labels.ts";
import type { ChildEvent } from "../protocol/events.ts";

/** A compaction: `compacted the conversation …: N older messages summarised (B → A tokens)`. */
export function compactLabel(e: Extract<ChildEvent, { type: "compact" }>): string {
  const what = e.method === "summary" ? "summarised" : "cut";
  const why = e.trigger === "overflow"
    ? "after the provider refused its size"
    : "to fit the window";
  return `compacted the conversation ${why}: ${e.messages} older messages ${what} ` +
    `(${e.tokensBefore} → ${e.tokensAfter} tokens)${e.note ? `; ${oneLine(e.note, 200)}` : ""}`;
}
