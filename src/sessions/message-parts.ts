/**
 * How a stored conversation's parts are rewritten one at a time: each part
 * of each message whose content is a list is kept, replaced or dropped by
 * the caller's rule, other messages pass unchanged, and an assistant
 * message left with no parts is dropped (no provider accepts one). Pure, on
 * the stored JSON: shapes are checked, not assumed.
 *
 * @example
 * ```ts
 * mapParts([{ role: "assistant", content: [{ type: "reasoning", text: "…" }] }], (p) =>
 *   p.type === "reasoning" ? undefined : p);
 * // []
 * ```
 *
 * @module
 */
import { isRecord } from "../formats/values.ts";

/**
 * `messages` with each part that is an object passed through `rule`: what it
 * returns replaces the part, `undefined` drops it. Parts that are not
 * objects are kept as they are.
 */
export function mapParts(
  messages: readonly unknown[],
  rule: (part: Record<string, unknown>) => Record<string, unknown> | undefined,
): unknown[] {
  const out: unknown[] = [];
  for (const m of messages) {
    if (!isRecord(m) || !Array.isArray(m.content)) {
      out.push(m);
      continue;
    }
    const content: unknown[] = [];
    for (const p of m.content) {
      if (!isRecord(p)) {
        content.push(p);
        continue;
      }
      const kept = rule(p);
      if (kept !== undefined) content.push(kept);
    }
    if (m.role === "assistant" && content.length === 0) continue;
    out.push({ ...m, content });
  }
  return out;
}
