/**
 * How a child reports: one JSON object per line on stdout (the protocol's
 * events, {@link ChildEvent}, whose type lives here), every string scrubbed
 * of secret values and key shapes first (`text/secrets.ts`), and exactly one `result` per run (later ones are
 * dropped). Human-readable text never goes here; it goes to stderr. The
 * parent reads each line back with {@link parseEventLine}: a line that is not
 * an event object is skipped.
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
import { redact, redactValue } from "../text/redact.ts";

export { redact, redactValue } from "../text/redact.ts";

/** What a provider's answer said of its rate limits; times are epoch milliseconds. */
export interface RateLimitFigures {
  requestsRemaining?: number;
  /** The most requests the bucket holds (the `-limit` header). */
  requestsLimit?: number;
  requestsResetAt?: number;
  tokensRemaining?: number;
  tokensResetAt?: number;
  /** A 429 asked to wait until then. */
  pauseUntil?: number;
}

/**
 * What a task learned of a provider's limits that matters beyond its own
 * process: whose limits (`key` a short hash of the API key, never the key;
 * `model` where the provider limits per model), when its next request may
 * go (`pauseUntil`), and the answer's counts.
 */
export interface RateLimitNews extends RateLimitFigures {
  provider: string;
  key: string;
  model?: string;
  pauseUntil: number;
}

/** One JSON Lines event a child writes to stdout. */
export type ChildEvent =
  | {
    type: "start";
    id: string;
    agent: string;
    model: string;
    depth: number;
    /** Set when `model` stands in for the agent's own: what happened, in one line. */
    note?: string;
    /** Set when the model's context window is unknown: the window assumed, in one line. */
    windowNote?: string;
    session?: string;
    /** Added by the parent when the task runs in a worktree of its own. */
    worktree?: { path: string; branch: string };
    /** The control channel version the child reads on stdin (`control.ts`); absent: none. */
    control?: number;
  }
  /** Before a model call under a budget: may a call with this many tokens be made?
   * The parent answers `grant` or `deny` with the same `reqId` on stdin. */
  | {
    type: "budget_request";
    id: string;
    reqId: string;
    model: string;
    input: number;
    output: number;
  }
  /** What the granted call `reqId` used, to settle its reservation. */
  | {
    type: "budget_spent";
    id: string;
    reqId: string;
    model: string;
    input: number;
    output: number;
    cacheRead: number;
    cacheWrite: number;
  }
  /** Before one request of a paced child: may it go now? The parent answers
   * `pace_grant` with the same `reqId` on stdin once the run's view allows. */
  | {
    type: "pace_request";
    id: string;
    reqId: string;
    provider: string;
    /** The key's fingerprint (`model/provider-gate.ts`), never the key. */
    key: string;
    model?: string;
    /** About the request's input tokens (for a tokens-per-minute pace). */
    tokens: number;
  }
  /** The granted request `reqId` was answered: what the answer said of the limits. */
  | { type: "pace_done"; id: string; reqId: string } & RateLimitFigures
  | { type: "message"; id: string; message: unknown }
  /** A failed model call is tried again after `delayMs`. `attempt` 0: at once,
   * without an optional parameter the server refused (`reason` names it). */
  | {
    type: "retry";
    id: string;
    attempt: number;
    maxRetries: number;
    delayMs: number;
    reason: string;
  }
  /** The older part of the conversation was replaced to fit the model's context window
   * (`child/compaction.ts`): by a summary, or cut when the summary call failed.
   * Tokens are estimates of the whole request (system prompt and tools included). */
  | {
    type: "compact";
    id: string;
    trigger: "auto" | "overflow";
    method: "summary" | "cut";
    tokensBefore: number;
    tokensAfter: number;
    /** Messages replaced. */
    messages: number;
    /** Why the summary failed, on the first compaction that had to cut. */
    note?: string;
  }
  /** A provider asked for a pause (a 429) or said little is left: the parent
   * holds its other tasks' calls to that provider until `pauseUntil` (epoch ms)
   * and paces them from the counts (`…ResetAt`: epoch ms). `key` is a short hash of the API key, never the key; `model`
   * is set where the provider limits per model. */
  | { type: "rate_limit"; id: string } & RateLimitNews
  /** The task is held before its next step: `queued` for a free slot of the
   * concurrency cap, `rate_limit` until `provider` lets the next call go
   * (`ms`: how long, as far as known). */
  | { type: "waiting"; id: string; reason: "queued" | "rate_limit"; provider?: string; ms?: number }
  | { type: "tool_start"; id: string; callId: string; tool: string; args: unknown }
  | { type: "tool_end"; id: string; callId: string; tool: string; ok: boolean; summary: string }
  | { type: "text"; id: string; delta: string }
  /** The task's first model answer has started to arrive: the provider has
   * read its prompt, so a cache entry it wrote can now be read by siblings
   * (`runner/admission/prefix-sharing.ts`). Sent once per task. */
  | { type: "answering"; id: string }
  | {
    type: "usage";
    id: string;
    input: number;
    output: number;
    cacheRead: number;
    cacheWrite: number;
    /** Added by the run's runner when it can price the call: what it cost, in dollars. */
    costUSD?: number;
  }
  | {
    type: "result";
    id: string;
    status: "ok" | "error";
    data?: unknown;
    text?: string;
    error?: string;
    /** Why an error result ended the task, when it is one a caller may act on. */
    reason?: "max_turns" | "stopped" | "budget";
  };

export type Emit = (event: ChildEvent) => void;

/** The most streamed text held back while it could still become a secret. */
export const MAX_HELD = 8192;

/**
 * Where the end of `text` that could still grow into a key shape starts: its
 * last word (with a `Bearer` or `Basic` before it), or an unfinished PEM
 * private key; never more than {@link MAX_HELD} characters from the end.
 */
export function unsettledStart(text: string): number {
  const space = (i: number) => /\s/.test(text[i]);
  let start = text.length;
  while (start > 0 && !space(start - 1)) start--;
  let gap = start;
  while (gap > 0 && space(gap - 1)) gap--;
  let word = gap;
  while (word > 0 && !space(word - 1)) word--;
  if (gap < start && /^(?:bearer|basic)$/i.test(text.slice(word, gap))) start = word;
  const pem = text.lastIndexOf("-----BEGIN ");
  if (pem >= 0 && pem < start && !text.includes("-----END ", pem)) start = pem;
  return Math.max(start, text.length - MAX_HELD);
}

/**
 * An emitter writing redacted JSON Lines through `write`.
 *
 * Streamed text is redacted across deltas: a secret split over two deltas
 * would pass a per-delta check, so the end of the text that could still be
 * the start of a secret (a value's length, or the word a key shape could
 * grow from) is held back until the next delta shows what it is, and flushed
 * before any other event.
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
      const keep = Math.min(
        text.length,
        Math.max(0, longest() - 1, text.length - unsettledStart(text)),
      );
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
