/**
 * What a streamed Chat Completions answer says, as the provider interface's
 * stream parts: the server-sent events (`data: {chunk}` lines, events split
 * by blank lines, `data: [DONE]` at the end; read as they arrive, in pieces
 * cut anywhere, by `formats/server-sent-events.ts`, the last one even
 * without its blank line); each chunk's first choice gives text (`content`),
 * reasoning (`reasoning_content`, or `reasoning` as Ollama and OpenRouter
 * name it) and tool calls, whose pieces are joined by their `index` (a
 * piece without one continues the last call; a call without an id gets
 * one; arguments sent as an object are taken as its JSON). The calls are
 * reported whole at the end, then the finish reason and the usage (the
 * chunk that carries `usage`, cached prompt tokens included). A chunk that
 * carries an `error` object, or one that is not JSON, is an `error` part,
 * and so is an event longer than {@link MAX_EVENT_CHARS} (it is dropped
 * unread, never kept whole). No I/O.
 *
 * @example
 * ```ts
 * const reader = new ChatStreamReader();
 * reader.push('data: {"choices":[{"index":0,"delta":{"content":"hi"}}]}\n\n');
 * reader.push('data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n');
 * reader.end().map((p) => p.type);
 * // ["text-end", "finish"] (the text parts came out of the first push)
 * ```
 *
 * @module
 */
import type { LanguageModelV4StreamPart, LanguageModelV4Usage } from "@ai-sdk/provider";
import { type SseItem, sseParser, TOO_LONG } from "../formats/server-sent-events.ts";
import { isRecord } from "../formats/values.ts";

type Json = Record<string, unknown>;

/** Longest event (its `data` lines) read: far more than any chunk a server sends. */
export const MAX_EVENT_CHARS = 8 * 1024 * 1024;

interface PendingCall {
  id: string;
  name: string;
  args: string;
}

const FINISH: Readonly<Record<string, "stop" | "length" | "content-filter" | "tool-calls">> = {
  stop: "stop",
  length: "length",
  content_filter: "content-filter",
  tool_calls: "tool-calls",
  function_call: "tool-calls",
};

function count(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

/** The usage a chunk's `usage` reports, in the provider interface's terms. */
export function chatUsage(u: unknown): LanguageModelV4Usage {
  const usage = isRecord(u) ? u : {};
  const input = count(usage.prompt_tokens);
  const output = count(usage.completion_tokens);
  const cached = isRecord(usage.prompt_tokens_details)
    ? count(usage.prompt_tokens_details.cached_tokens)
    : undefined;
  const reasoning = isRecord(usage.completion_tokens_details)
    ? count(usage.completion_tokens_details.reasoning_tokens)
    : undefined;
  return {
    inputTokens: {
      total: input,
      noCache: input !== undefined ? input - (cached ?? 0) : undefined,
      cacheRead: cached,
      cacheWrite: undefined,
    },
    outputTokens: {
      total: output,
      text: output !== undefined ? Math.max(0, output - (reasoning ?? 0)) : undefined,
      reasoning,
    },
    raw: usage as never,
  };
}

/** A named error for a chunk that is not JSON (retried like a broken answer). */
function parseError(text: string, cause: unknown): Error {
  const err = new Error(
    `the model server sent a chunk that is not JSON: ${text.slice(0, 200)}`,
    { cause },
  );
  err.name = "AI_JSONParseError";
  return err;
}

/** The error of an event too long to read. */
function tooLong(): Error {
  const err = new Error(
    `the model server sent an event of over ${MAX_EVENT_CHARS / 1024 / 1024} MiB; it was not read`,
  );
  err.name = "AI_JSONParseError";
  return err;
}

/** Reads one streamed answer: {@link push} its text as it comes, {@link end} once it ended. */
export class ChatStreamReader {
  private readonly events = sseParser(MAX_EVENT_CHARS);
  private text = false;
  private reasoning = false;
  private readonly calls = new Map<number, PendingCall>();
  private lastIndex: number | undefined;
  private finish: string | undefined;
  private usage: unknown;
  private generated = 0;

  /** The parts `text` (the next piece of the answer) completes. */
  push(text: string): LanguageModelV4StreamPart[] {
    const out: LanguageModelV4StreamPart[] = [];
    for (const event of this.events.push(text)) this.dispatch(event, out);
    return out;
  }

  /** The parts that close the answer: open blocks, the tool calls, the finish. */
  end(): LanguageModelV4StreamPart[] {
    // The last event counts even when the body ends without its blank line.
    const out = this.push("\n\n");
    this.closeReasoning(out);
    if (this.text) out.push({ type: "text-end", id: "txt-0" });
    this.text = false;
    for (const call of this.calls.values()) {
      if (call.name === "") continue;
      out.push({ type: "tool-input-end", id: call.id });
      out.push({
        type: "tool-call",
        toolCallId: call.id,
        toolName: call.name,
        input: call.args.trim() === "" ? "{}" : call.args,
      });
    }
    this.calls.clear();
    const raw = this.finish;
    out.push({
      type: "finish",
      finishReason: {
        unified: raw !== undefined && Object.hasOwn(FINISH, raw) ? FINISH[raw] : "other",
        raw,
      },
      usage: chatUsage(this.usage),
    });
    return out;
  }

  private dispatch(event: SseItem, out: LanguageModelV4StreamPart[]): void {
    if (event === TOO_LONG) {
      out.push({ type: "error", error: tooLong() });
      return;
    }
    if (event.trim() === "[DONE]") return;
    let chunk: unknown;
    try {
      chunk = JSON.parse(event);
    } catch (err) {
      out.push({ type: "error", error: parseError(event, err) });
      return;
    }
    if (!isRecord(chunk)) {
      out.push({ type: "error", error: parseError(event, undefined) });
      return;
    }
    this.chunk(chunk, out);
  }

  private chunk(chunk: Json, out: LanguageModelV4StreamPart[]): void {
    if (chunk.error !== undefined && chunk.error !== null) {
      out.push({ type: "error", error: chunk });
      return;
    }
    if (chunk.usage !== undefined && chunk.usage !== null) this.usage = chunk.usage;
    const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
    const choice = choices[0];
    if (!isRecord(choice)) return;
    if (typeof choice.finish_reason === "string") this.finish = choice.finish_reason;
    const delta = isRecord(choice.delta) ? choice.delta : {};
    const reasoning = typeof delta.reasoning_content === "string"
      ? delta.reasoning_content
      : typeof delta.reasoning === "string"
      ? delta.reasoning
      : "";
    if (reasoning !== "") {
      if (!this.reasoning) out.push({ type: "reasoning-start", id: "reasoning-0" });
      this.reasoning = true;
      out.push({ type: "reasoning-delta", id: "reasoning-0", delta: reasoning });
    }
    if (typeof delta.content === "string" && delta.content !== "") {
      this.closeReasoning(out);
      if (!this.text) out.push({ type: "text-start", id: "txt-0" });
      this.text = true;
      out.push({ type: "text-delta", id: "txt-0", delta: delta.content });
    }
    if (Array.isArray(delta.tool_calls)) {
      for (const piece of delta.tool_calls) if (isRecord(piece)) this.toolPiece(piece, out);
    }
  }

  private toolPiece(piece: Json, out: LanguageModelV4StreamPart[]): void {
    this.closeReasoning(out);
    const fn = isRecord(piece.function) ? piece.function : {};
    const index = typeof piece.index === "number"
      ? piece.index
      : this.lastIndex !== undefined && (typeof piece.id !== "string" || piece.id === "")
      ? this.lastIndex
      : this.calls.size;
    this.lastIndex = index;
    let call = this.calls.get(index);
    if (!call) {
      const id = typeof piece.id === "string" && piece.id !== ""
        ? piece.id
        : `call_${++this.generated}_${Math.random().toString(36).slice(2, 10)}`;
      call = { id, name: "", args: "" };
      this.calls.set(index, call);
    }
    if (typeof fn.name === "string" && fn.name !== "" && call.name === "") {
      call.name = fn.name;
      out.push({ type: "tool-input-start", id: call.id, toolName: call.name });
    }
    const args = typeof fn.arguments === "string"
      ? fn.arguments
      : isRecord(fn.arguments)
      ? JSON.stringify(fn.arguments)
      : "";
    if (args !== "") {
      call.args += args;
      out.push({ type: "tool-input-delta", id: call.id, delta: args });
    }
  }

  private closeReasoning(out: LanguageModelV4StreamPart[]): void {
    if (!this.reasoning) return;
    out.push({ type: "reasoning-end", id: "reasoning-0" });
    this.reasoning = false;
  }
}
