/**
 * When and how a task's conversation is made to fit its model's context
 * window (compaction).
 *
 * - **When**: before each model call, when the request's estimated size
 *   passes {@link COMPACT_SHARE} of the window less the output the request
 *   reserves (`maxOutputTokens` and any thinking budget): a 200 000-token
 *   window with 16 384 reserved compacts past 146 892 tokens (the reserve
 *   counts for at most a quarter of the window: a 16 384-token local model
 *   compacts past 9 830). And at once
 *   when the provider answers with its context-overflow error anyway
 *   (`model/context-overflow.ts`; the loop then tries the call again once):
 *   the window is then known to be smaller than the refused request with
 *   its output, and the budget is figured from that size for the rest of
 *   the task (at least a quarter of it).
 * - **Size**: estimated, not counted. The provider's own count for the last
 *   request (its reported input tokens) plus characters / 4 for what was
 *   added since; characters / 4 for the whole conversation when that is
 *   larger or nothing was reported (a server without usage, a resumed
 *   session). Counting exactly would need each provider's tokenizer or a
 *   count call per turn; the share left below the window absorbs the error.
 * - **What stays** ({@link planCompaction}): the system prompt and tool
 *   definitions are never part of the conversation and stay byte-identical
 *   (the provider's cache prefix; the output schema is in them); the pinned
 *   messages (the assignment, and a resumed session's new one) move to the
 *   front; the latest turns up to {@link KEEP_SHARE} of the budget stay as
 *   they are, cut only before a user or assistant message, so a tool call
 *   is never parted from its result; at least the last turn stays.
 * - **What replaces the rest**: a summary the task's own model writes (the
 *   child has only the model its envelope resolved; the `smol` role belongs
 *   to the parent's planning, and the same model reads the same cached
 *   prefix, so the summary call is mostly cache reads; {@link summaryInput}
 *   leaves its oldest messages out when they do not fit), or, when that
 *   call fails, a note that the older turns were cut (said once on stderr).
 *
 * @example
 * ```ts
 * const assignment = { role: "user" as const, content: "Read big.log in parts" };
 * const turns = [assignment, { role: "assistant" as const, content: "part 1 …" }];
 * planCompaction(turns, new Set([assignment]), 20_000);
 * // undefined while the turns fit in 20 000 tokens; else { pinned, older, recent }
 * ```
 *
 * @module
 */
import type { ChildEvent } from "../protocol/events.ts";
import type { Message } from "./conversation.ts";

/** Share of the window (less the output reserved) a request may reach before compaction. */
export const COMPACT_SHARE = 0.8;
/** Share of that budget the latest turns keep verbatim. */
export const KEEP_SHARE = 0.25;
/** Characters per token of the estimate. */
export const CHARS_PER_TOKEN = 4;

/** The instruction that asks the model for the summary. */
export const SUMMARY_REQUEST =
  "The conversation is about to pass your context window. Write a summary of everything " +
  "above that you still need to finish the task: the goal and constraints, what you did " +
  "and found (file paths, names, numbers, decisions), what failed, and what is left to do. " +
  "Answer with the summary as plain text only; do not call any tool.";

/** Estimated tokens of `text`. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** Each message's estimate, counted once (messages are not changed once added). */
const counted = new WeakMap<Message, number>();

/** Estimated tokens of one message (its content as sent, provider metadata included). */
export function messageTokens(m: Message): number {
  let n = counted.get(m);
  if (n === undefined) {
    n = estimateTokens(typeof m.content === "string" ? m.content : JSON.stringify(m.content));
    counted.set(m, n);
  }
  return n;
}

/** Estimated tokens of messages. */
export function conversationTokens(messages: readonly Message[]): number {
  return messages.reduce((n, m) => n + messageTokens(m), 0);
}

/** Most of the window the output reservation may take: a request asks for no more output
 * (`child-main.ts` caps `maxOutputTokens`), so a small local model's window is not spent on it. */
export const MAX_RESERVE_SHARE = 0.25;

/** Tokens a request may reach before it is compacted. */
export function compactionBudget(window: number, reserve: number): number {
  return Math.floor(COMPACT_SHARE * (window - Math.min(reserve, MAX_RESERVE_SHARE * window)));
}

/** Why the fixed prompt cannot fit the window, or undefined when it can. */
export function tooSmallWindow(
  model: string,
  window: number,
  reserve: number,
  fixed: number,
): string | undefined {
  if (fixed < compactionBudget(window, reserve)) return undefined;
  const kept = Math.min(reserve, MAX_RESERVE_SHARE * window);
  return `${model}: its context window (${window} tokens, ${kept} of them kept for the ` +
    `answer) is too small for the fixed prompt (${fixed} tokens: system prompt and tool ` +
    "definitions); choose a model with a larger window or set providers.<name>.contextWindow";
}

/** The parts of a conversation a compaction sees. */
export interface CompactionPlan {
  /** Pinned messages, in their order: they go first, unchanged. */
  pinned: Message[];
  /** The older part, replaced by a summary or a note. */
  older: Message[];
  /** Everything before the latest turns, in order (the summary call's conversation). */
  before: Message[];
  /** The latest turns, kept as they are. */
  recent: Message[];
}

/**
 * What a compaction keeps, or undefined when nothing older can go. `pinned`
 * holds message objects that always stay; `keep` the estimated tokens the
 * latest turns may keep. Pure.
 */
export function planCompaction(
  messages: readonly Message[],
  pinned: ReadonlySet<Message>,
  keep: number,
): CompactionPlan | undefined {
  // Boundaries: a user or assistant message (a tool message belongs to the assistant before it).
  const boundaries: number[] = [];
  for (let i = 1; i < messages.length; i++) {
    if (messages[i].role !== "tool") boundaries.push(i);
  }
  if (boundaries.length === 0) return undefined;
  // The latest boundary keeps at least the last turn; earlier ones while they fit `keep`.
  let split = boundaries[boundaries.length - 1];
  let kept = conversationTokens(messages.slice(split));
  for (let b = boundaries.length - 2; b >= 0; b--) {
    const more = conversationTokens(messages.slice(boundaries[b], split));
    if (kept + more > keep) break;
    kept += more;
    split = boundaries[b];
  }
  const before = messages.slice(0, split);
  const older = before.filter((m) => !pinned.has(m));
  if (older.length === 0) return undefined;
  return {
    pinned: before.filter((m) => pinned.has(m)),
    older,
    before,
    recent: messages.slice(split),
  };
}

/**
 * The conversation the summary call reads: the part before the latest turns,
 * its oldest unpinned messages left out until it fits `room` tokens (never
 * starting at a tool result). Pure.
 */
export function summaryInput(plan: CompactionPlan, room: number): Message[] {
  const pinned = new Set(plan.pinned);
  const from = (start: number) => plan.before.filter((m, i) => pinned.has(m) || i >= start);
  let start = 0;
  while (start < plan.before.length && conversationTokens(from(start)) > room) start++;
  while (start < plan.before.length && plan.before[start].role === "tool") start++;
  return from(start);
}

/** The message that stands for the older part: the summary, or the note that it was cut. */
export function replacementMessage(
  plan: CompactionPlan,
  summary: string | undefined,
): Message {
  const n = plan.older.length;
  return {
    role: "user",
    content: summary !== undefined
      ? `[The earlier part of this task's conversation (${n} messages) was replaced by this ` +
        `summary to fit the context window.]\n\n${summary}`
      : `[The earlier part of this task's conversation (${n} messages) was removed to fit ` +
        "the context window, and no summary could be written. Go on from the messages below; " +
        "read files again where you need what they said.]",
  };
}

/** What a task's compaction needs. */
export interface CompactionOptions {
  id: string;
  /** `provider/model`, for messages. */
  model: string;
  window: number;
  /** Output tokens each request reserves. */
  reserve: number;
  /** Estimated tokens of the system prompt and tool definitions. */
  fixed: number;
  /** Asks the task's model for a summary of `messages` (which end with the request). */
  summarise: (messages: Message[]) => Promise<string>;
  /** The PreCompact hooks (they cannot stop a compaction). */
  preCompact?: (trigger: "auto") => Promise<void>;
  emit: (event: ChildEvent) => void;
  log: (line: string) => void;
}

/** A task's compaction, for the loop. */
export interface Compaction {
  /**
   * Compacts `messages` in place when the next request would pass the budget,
   * or (`overflow`) because the provider refused it; true when it did.
   */
  fit(messages: Message[], pinned: ReadonlySet<Message>, overflow?: boolean): Promise<boolean>;
  /** The provider's input tokens for a request of the first `count` messages. */
  sent(count: number, inputTokens: number): void;
}

/** The compaction of one task. */
export function createCompaction(o: CompactionOptions): Compaction {
  // Lowered once the provider refuses a request as too long.
  let budget = compactionBudget(o.window, o.reserve);
  let reported: { count: number; tokens: number } | undefined;
  let cutSaid = false;
  const size = (messages: readonly Message[]) => {
    const estimate = o.fixed + conversationTokens(messages);
    if (!reported || reported.count > messages.length) return estimate;
    return Math.max(estimate, reported.tokens + conversationTokens(messages.slice(reported.count)));
  };
  return {
    sent(count, inputTokens) {
      reported = inputTokens > 0 ? { count, tokens: inputTokens } : undefined;
    },
    async fit(messages, pinned, overflow = false) {
      const before = size(messages);
      if (!overflow && before <= budget) return false;
      // The window is smaller than thought: the refused request (with its output) bounds it.
      if (overflow) {
        budget = Math.min(
          budget,
          // (The refused request asked for `reserve` output tokens, whatever its size.)
          Math.max(Math.floor(COMPACT_SHARE * (before - o.reserve)), Math.floor(before / 4)),
        );
      }
      const plan = planCompaction(messages, pinned, Math.floor(KEEP_SHARE * budget));
      if (!plan) return false;
      await o.preCompact?.("auto");
      let summary: string | undefined;
      let note: string | undefined;
      try {
        const room = budget - o.fixed - estimateTokens(SUMMARY_REQUEST);
        summary = (await o.summarise([
          ...summaryInput(plan, room),
          { role: "user", content: SUMMARY_REQUEST },
        ])).trim();
        if (summary === "") throw new Error("the model wrote no text");
      } catch (err) {
        summary = undefined;
        if (!cutSaid) {
          cutSaid = true;
          note = `the summary of the older turns failed (${
            (err instanceof Error ? err.message : String(err)).split("\n")[0]
          }); they were cut instead`;
          o.log(`xcsh: ${o.model}: ${note}`);
        }
      }
      const compacted = [...plan.pinned, replacementMessage(plan, summary), ...plan.recent];
      messages.splice(0, messages.length, ...compacted);
      reported = undefined;
      o.emit({
        type: "compact",
        id: o.id,
        trigger: overflow ? "overflow" : "auto",
        method: summary !== undefined ? "summary" : "cut",
        tokensBefore: before,
        tokensAfter: size(messages),
        messages: plan.older.length,
        ...(note ? { note } : {}),
      });
      return true;
    },
  };
}
