/**
 * The `web_search` tool: a web search through the provider configured under
 * `search:` (Brave Search or Tavily), returning numbered results (title,
 * URL, snippet). It exists only when a provider is configured and its key
 * variable is set; the child builds it with {@link webSearchTool}. Every
 * failure (HTTP error, bad answer, timeout) is a tool error naming the
 * provider.
 *
 * Wire shapes: Brave `GET {baseURL}/web/search?q=…&count=N` with the key in
 * `X-Subscription-Token`, answering `{web: {results: [{title, url,
 * description}]}}`; Tavily `POST {baseURL}/search` with `{query,
 * max_results}` and `Authorization: Bearer <key>`, answering `{answer?,
 * results: [{title, url, content}]}`.
 *
 * @module
 */
import type { SearchConfig } from "../../types.ts";
import { toolError, type ToolOutcome, type ToolSpec } from "../tool-spec.ts";
import { TOOL_READ_ONLY } from "../../discovery/tool-catalogue.ts";

export const WEB_SEARCH_TIMEOUT_MS = 30_000;
export const WEB_SEARCH_MAX_RESULTS = 20;
const MAX_ANSWER_BYTES = 2 * 1024 * 1024;

export interface SearchHit {
  title: string;
  url: string;
  snippet: string;
}

export interface WebSearchArgs {
  query: string;
  max_results?: number;
}

function str(v: unknown): string {
  return typeof v === "string" ? v.trim() : "";
}

function stripTags(s: string): string {
  return s.replace(/<\/?[a-z][^>]*>/gi, "");
}

/**
 * The hits in a provider's JSON answer, or a message saying what is wrong
 * with it. Pure.
 */
export function parseSearchAnswer(
  provider: SearchConfig["provider"],
  body: unknown,
): { ok: true; hits: SearchHit[]; answer?: string } | { ok: false; error: string } {
  const root = body as Record<string, unknown> | null;
  const list = provider === "brave"
    ? (root?.web as Record<string, unknown> | undefined)?.results ?? []
    : root?.results;
  if (!Array.isArray(list)) {
    return { ok: false, error: "the answer has no result list" };
  }
  const hits = list.flatMap((r) => {
    const o = r as Record<string, unknown> | null;
    const url = str(o?.url);
    if (!url) return [];
    const snippet = provider === "brave" ? stripTags(str(o?.description)) : str(o?.content);
    return [{ title: stripTags(str(o?.title)) || url, url, snippet }];
  });
  const answer = provider === "tavily" ? str(root?.answer) : "";
  return { ok: true, hits, ...(answer ? { answer } : {}) };
}

/** The hits as numbered Markdown entries. Pure. */
export function renderHits(hits: readonly SearchHit[]): string {
  return hits.map((h, i) =>
    `${i + 1}. [${h.title}](${h.url})${h.snippet ? `\n   ${h.snippet}` : ""}`
  )
    .join("\n");
}

function request(
  config: SearchConfig,
  key: string,
  query: string,
  count: number,
): { url: URL; init: RequestInit } {
  if (config.provider === "brave") {
    const url = new URL(`${config.baseURL}/web/search`);
    url.searchParams.set("q", query);
    url.searchParams.set("count", String(count));
    return {
      url,
      init: {
        method: "GET",
        headers: { accept: "application/json", "x-subscription-token": key },
      },
    };
  }
  return {
    url: new URL(`${config.baseURL}/search`),
    init: {
      method: "POST",
      headers: {
        accept: "application/json",
        "content-type": "application/json",
        authorization: `Bearer ${key}`,
      },
      body: JSON.stringify({ query, max_results: count }),
    },
  };
}

async function search(
  config: SearchConfig,
  key: string,
  args: WebSearchArgs,
  signal: AbortSignal,
): Promise<ToolOutcome> {
  const name = config.provider === "brave" ? "Brave Search" : "Tavily";
  const count = Math.min(args.max_results ?? 8, WEB_SEARCH_MAX_RESULTS);
  const { url, init } = request(config, key, args.query, count);
  const timeout = AbortSignal.timeout(WEB_SEARCH_TIMEOUT_MS);
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.any([signal, timeout]) });
    const length = Number(res.headers.get("content-length") ?? 0);
    if (length > MAX_ANSWER_BYTES) {
      await res.body?.cancel().catch(() => {});
      return toolError(`${name} (${url.origin}): answer too large (${length} bytes)`);
    }
    text = await res.text();
  } catch (err) {
    if (signal.aborted) throw err;
    const why = timeout.aborted
      ? `no answer within ${WEB_SEARCH_TIMEOUT_MS / 1000} s`
      : err instanceof Error
      ? err.message
      : String(err);
    return toolError(`${name} (${url.origin}): ${why}`);
  }
  if (!res.ok) {
    const detail = text.trim().slice(0, 200);
    return toolError(
      `${name} (${url.origin}): HTTP ${res.status}${detail ? `: ${detail}` : ""}` +
        (res.status === 401 || res.status === 403 ? ` (check ${config.apiKeyEnv})` : ""),
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return toolError(`${name} (${url.origin}): the answer is not JSON`);
  }
  const parsed = parseSearchAnswer(config.provider, body);
  if (!parsed.ok) return toolError(`${name} (${url.origin}): ${parsed.error}`);
  const hits = parsed.hits.slice(0, count);
  if (hits.length === 0) {
    return { ok: true, output: `No results for "${args.query}".`, summary: "no results" };
  }
  const answer = parsed.answer ? `Answer: ${parsed.answer}\n\n` : "";
  return {
    ok: true,
    output: `${answer}Results for "${args.query}":\n${renderHits(hits)}`,
    summary: `${hits.length} result${hits.length === 1 ? "" : "s"} for "${
      args.query.slice(0, 60)
    }"`,
  };
}

/** The tool for a configured provider and its key. */
export function webSearchTool(config: SearchConfig, key: string): ToolSpec {
  return {
    name: "web_search",
    readOnly: TOOL_READ_ONLY.web_search,
    description: "Search the web. Returns the top results (title, URL and a snippet); read a " +
      "result in full with web_fetch.",
    inputSchema: {
      type: "object",
      properties: {
        query: { type: "string", minLength: 1, description: "What to search for." },
        max_results: {
          type: "integer",
          minimum: 1,
          maximum: WEB_SEARCH_MAX_RESULTS,
          description: "How many results (default 8).",
        },
      },
      required: ["query"],
      additionalProperties: false,
    },
    run: (args: WebSearchArgs, ctx) => search(config, key, args, ctx.signal),
  };
}
