/**
 * How a child reports: one JSON object per line on stdout (the protocol's
 * events), every string scrubbed of secret values first, and exactly one
 * `result` per run (later ones are dropped). Human-readable text never goes
 * here; it goes to stderr. The parent reads each line back with
 * {@link parseEventLine}: a line that is not an event object is skipped.
 *
 * @example
 * ```ts
 * import { writeOut } from "../text/stdio.ts";
 *
 * const emit = createEmitter((line) => writeOut(line), ["sk-secret"]);
 * emit({ type: "text", id: "0", delta: "key is sk-secret" }); // writes {"type":"text",…,"delta":"key is [redacted]"}
 * ```
 *
 * @module
 */
import type { ChildEvent } from "../types.ts";
import { redact, redactValue } from "../text/redact.ts";

export { redact, redactValue } from "../text/redact.ts";

export type Emit = (event: ChildEvent) => void;

/**
 * An emitter writing redacted JSON Lines through `write`.
 *
 * Streamed text is redacted across deltas: a secret split over two deltas
 * would pass a per-delta check, so the end of the text that could still be
 * the start of a secret is held back until the next delta shows what it is,
 * and flushed before any other event.
 */
export function createEmitter(
  write: (line: string) => void,
  secrets: readonly string[] = [],
): Emit & { resultSent: () => boolean; setSecrets: (s: readonly string[]) => void } {
  let sent = false;
  let known = [...secrets];
  let held: { id: string; text: string } | undefined;
  const longest = () => known.reduce((n, s) => (s.length >= 8 ? Math.max(n, s.length) : n), 0);
  const out = (event: ChildEvent) => write(JSON.stringify(redactValue(event, known)) + "\n");
  const flush = () => {
    if (held && held.text !== "") out({ type: "text", id: held.id, delta: held.text });
    held = undefined;
  };
  const emit = (event: ChildEvent) => {
    if (event.type === "text") {
      if (held && held.id !== event.id) flush();
      const text = redact((held?.text ?? "") + event.delta, known);
      const keep = Math.min(text.length, Math.max(0, longest() - 1));
      if (text.length > keep) {
        out({ type: "text", id: event.id, delta: text.slice(0, text.length - keep) });
      }
      held = { id: event.id, text: text.slice(text.length - keep) };
      return;
    }
    flush();
    if (event.type === "result") {
      if (sent) return;
      sent = true;
    }
    out(event);
  };
  return Object.assign(emit, {
    resultSent: () => sent,
    setSecrets: (s: readonly string[]) => {
      known = [...s];
    },
  });
}

/** Reads one JSON Lines event; anything else is `undefined`. */
export function parseEventLine(line: string): ChildEvent | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith("{")) return undefined;
  try {
    const value = JSON.parse(trimmed);
    return typeof value === "object" && value !== null && typeof value.type === "string"
      ? value as ChildEvent
      : undefined;
  } catch {
    return undefined;
  }
}
