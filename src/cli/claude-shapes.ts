/**
 * The records `xcsh -p` prints, in the shapes Claude Code's headless mode
 * documents: the `system`/`init` record, `assistant` and `user` message
 * records (content blocks `text`, `tool_use`, `tool_result`), partial text
 * as `stream_event` records, and the final `result` (`subtype`, `is_error`,
 * `result`, `structured_output`, `session_id`, `total_cost_usd`,
 * `num_turns`, `duration_ms`, `usage` and `modelUsage` under Claude's key
 * names). Built from xcsh's own events and results; tool names stay
 * xcsh's (`read`, `bash`, …). Pure.
 *
 * @example
 * ```ts
 * resultRecord({ id: "0-task", agent: "task", status: "ok", text: "hi", session: "s1" },
 *   { turns: 1, durationMs: 5, budgetStopped: false });
 * // { type: "result", subtype: "success", is_error: false, result: "hi", session_id: "s1", … }
 * ```
 *
 * @module
 */
import type { TaskResult, TokenUsage } from "../types.ts";
import { claudeToolInput, claudeToolName } from "../child/claude-tool-shape.ts";

/** What the printer counted while the task ran. */
export interface Tally {
  /** Model calls made. */
  turns: number;
  durationMs: number;
  /** `--max-budget-usd` stopped the task. */
  budgetStopped: boolean;
}

type Json = Record<string, unknown>;

/** Claude's `usage` object from xcsh's (xcsh's `input` counts cached tokens; Claude's does not). */
export function claudeUsage(u: TokenUsage | undefined): Json {
  const cacheRead = u?.cacheRead ?? 0;
  const cacheWrite = u?.cacheWrite ?? 0;
  return {
    input_tokens: Math.max(0, (u?.input ?? 0) - cacheRead - cacheWrite),
    output_tokens: u?.output ?? 0,
    cache_read_input_tokens: cacheRead,
    cache_creation_input_tokens: cacheWrite,
  };
}

/** The `result` record's `subtype`. */
export function resultSubtype(r: TaskResult, tally: Pick<Tally, "budgetStopped">): string {
  if (r.status === "ok") return "success";
  if (r.status === "max_turns") return "error_max_turns";
  if (tally.budgetStopped) return "error_max_budget_usd";
  return "error_during_execution";
}

/** The final record: what a script reads with `jq .result`, `.is_error`, `.session_id`…. */
export function resultRecord(r: TaskResult, tally: Tally): Json {
  const ok = r.status === "ok";
  const text = r.text ?? (r.data !== undefined ? JSON.stringify(r.data) : undefined);
  const usage = claudeUsage(r.usage);
  const cost = typeof r.costUSD === "number" ? r.costUSD : 0;
  const record: Json = {
    type: "result",
    subtype: resultSubtype(r, tally),
    is_error: !ok,
    duration_ms: r.durationMs ?? tally.durationMs,
    num_turns: tally.turns,
    result: ok ? text ?? "" : r.error ?? text ?? r.status,
    session_id: r.session ?? null,
    total_cost_usd: cost,
    usage,
    modelUsage: r.model === undefined ? {} : {
      [r.model]: {
        inputTokens: usage.input_tokens,
        outputTokens: usage.output_tokens,
        cacheReadInputTokens: usage.cache_read_input_tokens,
        cacheCreationInputTokens: usage.cache_creation_input_tokens,
        costUSD: cost,
      },
    },
    permission_denials: [],
  };
  if (r.data !== undefined) record.structured_output = r.data;
  if (r.costUSD === null && r.costNote) record.cost_note = r.costNote;
  return record;
}

/** The first stream record: the session, folder, tools and model. */
export function initRecord(t: {
  session?: string;
  cwd: string;
  tools: readonly string[];
  model?: string;
  agent: string;
}): Json {
  return {
    type: "system",
    subtype: "init",
    session_id: t.session ?? null,
    cwd: t.cwd,
    // Claude Code's names, as its hooks see them (`child/claude-tool-shape.ts`).
    tools: t.tools.map(claudeToolName),
    mcp_servers: [],
    model: t.model ?? null,
    permissionMode: "default",
    agents: [t.agent],
  };
}

/** A tool result's content as text. */
function outputText(output: unknown): { text: string; error: boolean } {
  if (output && typeof output === "object") {
    const o = output as { type?: unknown; value?: unknown };
    const error = typeof o.type === "string" && o.type.startsWith("error");
    const v = o.value;
    return { text: typeof v === "string" ? v : JSON.stringify(v ?? null), error };
  }
  return {
    text: typeof output === "string" ? output : JSON.stringify(output ?? null),
    error: false,
  };
}

/** One conversation block of xcsh's (the model SDK's) in Claude's form, or none. */
function block(part: unknown): Json | undefined {
  if (!part || typeof part !== "object") return undefined;
  const p = part as Record<string, unknown>;
  switch (p.type) {
    case "text":
      return { type: "text", text: String(p.text ?? "") };
    case "reasoning":
      return { type: "thinking", thinking: String(p.text ?? "") };
    case "tool-call":
      return {
        type: "tool_use",
        id: p.toolCallId,
        name: claudeToolName(String(p.toolName)),
        input: claudeToolInput(String(p.toolName), p.input ?? {}),
      };
    case "tool-result": {
      const out = outputText(p.output);
      return {
        type: "tool_result",
        tool_use_id: p.toolCallId,
        content: out.text,
        ...(out.error ? { is_error: true } : {}),
      };
    }
  }
  return undefined;
}

/**
 * A conversation message as Claude's `assistant` or `user` record (tool
 * results are the user's turn there); the first prompt and empty messages
 * give none.
 */
export function messageRecord(message: unknown, session: string | undefined): Json | undefined {
  if (!message || typeof message !== "object") return undefined;
  const m = message as { role?: unknown; content?: unknown };
  const parts = typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content;
  if (!Array.isArray(parts)) return undefined;
  const content = parts.map(block).filter((b) => b !== undefined);
  if (content.length === 0) return undefined;
  const base = { parent_tool_use_id: null, session_id: session ?? null };
  if (m.role === "assistant") {
    return { type: "assistant", message: { type: "message", role: "assistant", content }, ...base };
  }
  if (m.role === "tool") {
    return { type: "user", message: { role: "user", content }, ...base };
  }
  return undefined;
}

/** A piece of streamed answer text (`--include-partial-messages`). */
export function partialRecord(delta: string, session: string | undefined): Json {
  return {
    type: "stream_event",
    event: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: delta } },
    parent_tool_use_id: null,
    session_id: session ?? null,
  };
}
