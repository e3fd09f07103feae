/**
 * How the scripted model server counts input tokens and prompt-cache hits when
 * a test asks it to compute them instead of scripting them.
 *
 * What this module decides:
 * - A request is cut into prompt blocks in the order the provider reads them
 *   (tools, then system, then each message's content blocks). A block costs
 *   `ceil(chars / 4)` tokens of its JSON text: crude, but stable and the same
 *   for every format, which is all a test needs. `cache_control` markers are
 *   not part of a block's content (the prefix is the same wherever the
 *   breakpoints sit).
 * - Anthropic (`cache_control` breakpoints): a block carrying `cache_control`
 *   is a breakpoint; the prefix up to each breakpoint is written to the cache.
 *   A later request reads the longest of its block prefixes that an earlier
 *   request wrote. Cache writes are the tokens up to the last breakpoint that
 *   were not read. Without breakpoints nothing is cached, as on the real API.
 * - OpenAI (chat and Responses) and Gemini cache automatically: every prefix of
 *   an earlier request (at a block boundary, keyed by `prompt_cache_key` when
 *   the request has one) can be read; nothing is reported as written.
 * - When: a request reads what was in the cache when it arrived
 *   ({@link PromptCache.lookup}), and what it writes can be read only once
 *   its answer starts (`commit`), as on Anthropic, where a cache entry is
 *   available only after the first response begins: siblings that send the
 *   same prefix together each write their own.
 *
 * @module
 */
import { createHash } from "node:crypto";

/** The four wire formats the server speaks. */
export type WireFormat = "openai" | "anthropic" | "google" | "responses";

/** Computed token counts for one request. `input` includes the cached tokens. */
export interface CacheUsage {
  input: number;
  cacheRead: number;
  cacheWrite: number;
}

interface Block {
  text: string;
  breakpoint: boolean;
}

// deno-lint-ignore no-explicit-any
type Json = any;

const tokensOf = (text: string) => Math.ceil(text.length / 4);

/** Each content block of a message (a string content is one block). */
function contentBlocks(content: Json): Json[] {
  return Array.isArray(content) ? content : [content];
}

/** The request's prompt blocks, in the order the provider reads them. */
export function promptBlocks(format: WireFormat, body: Json): Block[] {
  const blocks: Block[] = [];
  const add = (value: Json) =>
    blocks.push({
      // The marker is not content: moving a breakpoint keeps the prefix the same.
      text: JSON.stringify(value, (k, v) => (k === "cache_control" ? undefined : v)) ?? "",
      breakpoint: value !== null && typeof value === "object" && "cache_control" in value,
    });
  if (body === null || typeof body !== "object") return blocks;
  switch (format) {
    case "anthropic":
      for (const t of body.tools ?? []) add(t);
      for (const s of typeof body.system === "string" ? [body.system] : body.system ?? []) add(s);
      for (const m of body.messages ?? []) {
        for (const c of contentBlocks(m.content)) add({ role: m.role, ...asObject(c) });
      }
      break;
    case "openai":
      for (const t of body.tools ?? []) add(t);
      for (const m of body.messages ?? []) add(m);
      break;
    case "responses":
      for (const t of body.tools ?? []) add(t);
      if (body.instructions) add(body.instructions);
      for (const item of typeof body.input === "string" ? [body.input] : body.input ?? []) {
        add(item);
      }
      break;
    case "google":
      for (const t of body.tools ?? []) add(t);
      if (body.systemInstruction) add(body.systemInstruction);
      for (const c of body.contents ?? []) add(c);
      break;
  }
  return blocks;
}

function asObject(c: Json): object {
  return c !== null && typeof c === "object" ? c : { text: c };
}

/** A cache shared by the requests of one server. */
export class PromptCache {
  /** Cached prefixes (a hash chained over their blocks), per cache key. */
  private readonly prefixes = new Map<string, Set<string>>();

  /** Counts one request's tokens and updates the cache at once. */
  account(format: WireFormat, body: Json): CacheUsage {
    const { usage, commit } = this.lookup(format, body);
    commit();
    return usage;
  }

  /**
   * Counts one request's tokens against the cache as it is now; `commit`
   * makes what the request writes readable by later requests.
   */
  lookup(format: WireFormat, body: Json): { usage: CacheUsage; commit(): void } {
    const blocks = promptBlocks(format, body);
    const key = format === "anthropic"
      ? "anthropic"
      : `${format}:${typeof body?.prompt_cache_key === "string" ? body.prompt_cache_key : ""}`;
    let stored = this.prefixes.get(key);
    if (!stored) this.prefixes.set(key, stored = new Set());
    let prefix = "";
    let tokens = 0;
    let cacheRead = 0;
    let lastBreakpointTokens = 0;
    const written: string[] = [];
    for (const b of blocks) {
      prefix = createHash("sha256").update(prefix).update("\u0000").update(b.text).digest("hex");
      tokens += tokensOf(b.text);
      if (stored.has(prefix)) cacheRead = tokens;
      if (format !== "anthropic" || b.breakpoint) {
        written.push(prefix);
        if (b.breakpoint) lastBreakpointTokens = tokens;
      }
    }
    const cacheWrite = format === "anthropic" ? Math.max(0, lastBreakpointTokens - cacheRead) : 0;
    return {
      usage: { input: tokens, cacheRead, cacheWrite },
      commit: () => {
        for (const p of written) stored.add(p);
      },
    };
  }
}

/** A request's input tokens as this server counts them (the window rule uses the same count). */
export function promptTokens(format: WireFormat, body: Json): number {
  return promptBlocks(format, body).reduce((n, b) => n + tokensOf(b.text), 0);
}
