/**
 * The `web_fetch` tool: one web page as readable text. GET over http(s)
 * only, to public addresses or those the user's `task.webFetchAllow` opens
 * (checked after name resolution, then connected to as checked, see
 * `pinned-get.ts`); redirects followed by hand under the rules of
 * `fetch-rules.ts`, each hop resolved and checked again; the
 * whole call (redirects included) bounded by {@link WEB_FETCH_TIMEOUT_MS}
 * (`XCSH_WEB_FETCH_TIMEOUT_MS` overrides it), so a stalled server ends as a
 * tool error; at most {@link WEB_FETCH_MAX_BYTES} of body read, the rest never
 * downloaded; HTML converted to Markdown without scripts or styles; binary
 * content refused naming its type. Long pages come back in slices of
 * {@link WEB_FETCH_MAX_CHARS} characters (`start` continues). Every failure is
 * a tool error naming the URL.
 *
 * @module
 */
import {
  bytesLookBinary,
  checkFetchURL,
  contentKind,
  decodeBody,
  detectCharset,
  failureReason,
  mediaType,
  nextRedirect,
} from "./fetch-rules.ts";
// pinned-get.ts brings node:http, node:https, DNS and zlib, and the HTML
// converter its tables: both load on the first web_fetch call, not with
// every child that merely offers the tool (tests/layout/start-path.test.ts).
import type { PinnedResponse } from "./pinned-get.ts";
import { toolError, type ToolSpec } from "../tool-spec.ts";
import { TOOL_READ_ONLY } from "../../discovery/tool-catalogue.ts";
import { urlRefusal } from "../permission-check.ts";
import { webFetchTimeoutMs } from "../../protocol/variables.ts";

export const WEB_FETCH_TIMEOUT_MS = 30_000;
export const WEB_FETCH_MAX_BYTES = 5 * 1024 * 1024;
export const WEB_FETCH_MAX_CHARS = 40_000;

export interface WebFetchArgs {
  url: string;
  start?: number;
}

function timeoutOf(env: Record<string, string>): number {
  return webFetchTimeoutMs(env, WEB_FETCH_TIMEOUT_MS);
}

export const webFetchTool: ToolSpec = {
  name: "web_fetch",
  readOnly: TOOL_READ_ONLY.web_fetch,
  description: "Fetch a web page (http or https GET) as Markdown, scripts and styles left " +
    "out; JSON and other text come back as they are. Long pages come back in slices of " +
    `${WEB_FETCH_MAX_CHARS} characters: pass start to read on.`,
  inputSchema: {
    type: "object",
    properties: {
      url: { type: "string", description: "Absolute http(s) URL." },
      start: {
        type: "integer",
        minimum: 0,
        description: "Character offset (default 0).",
      },
    },
    required: ["url"],
    additionalProperties: false,
  },
  async run(args: WebFetchArgs, ctx) {
    const first = checkFetchURL(args.url);
    if (!first.ok) return toolError(first.error);
    const limitMs = timeoutOf(ctx.env);
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), limitMs);
    const signal = AbortSignal.any([ctx.signal, timeout.signal]);
    const visited: string[] = [];
    let url = first.url;
    const { pinnedGet, readBodyCapped, resolveTarget } = await import("./pinned-get.ts");
    try {
      let res: PinnedResponse;
      for (;;) {
        visited.push(url.href);
        try {
          const target = await resolveTarget(url, ctx.fetchAllow ?? [], signal);
          if (!target.ok) return toolError(target.error);
          // A deny rule naming an address refuses a host that resolves to it.
          const refused = ctx.permissions &&
            urlRefusal(ctx.permissions, url, target.addresses.map((a) => a.address));
          if (refused) {
            return toolError(visited.length > 1 ? `redirect refused: ${refused}` : refused);
          }
          res = await pinnedGet(url, target, {
            "user-agent": "xcsh (web_fetch)",
            accept: "text/html,application/xhtml+xml,text/*;q=0.9,*/*;q=0.5",
          }, signal);
        } catch (err) {
          if (timeout.signal.aborted) {
            return toolError(`${url.href}: no complete answer within ${limitMs / 1000} s`);
          }
          if (ctx.signal.aborted) throw err;
          return toolError(`${url.href}: request failed: ${failureReason(err)}`);
        }
        if (res.status < 300 || res.status >= 400 || res.status === 304) break;
        res.body.destroy();
        const next = nextRedirect(url, res.header("location"), visited);
        if (!next.ok) return toolError(next.error);
        const refused = ctx.permissions && urlRefusal(ctx.permissions, next.url);
        if (refused) return toolError(`redirect refused: ${refused}`);
        url = next.url;
      }
      const contentType = res.header("content-type");
      if (res.status < 200 || res.status >= 300) {
        res.body.destroy();
        return toolError(`${url.href}: HTTP ${res.status} ${res.statusText}`.trim());
      }
      let kind = contentKind(contentType);
      if (kind === "binary") {
        res.body.destroy();
        return toolError(
          `${url.href}: binary content (${mediaType(contentType)}) cannot be shown as text`,
        );
      }
      let read;
      try {
        read = await readBodyCapped(res.body, WEB_FETCH_MAX_BYTES);
      } catch (err) {
        if (timeout.signal.aborted) {
          return toolError(`${url.href}: no complete answer within ${limitMs / 1000} s`);
        }
        if (ctx.signal.aborted) throw err;
        return toolError(`${url.href}: reading the answer failed: ${failureReason(err)}`);
      }
      if (kind === "unknown") {
        if (bytesLookBinary(read.bytes)) {
          return toolError(`${url.href}: binary content (no content type given) cannot be shown`);
        }
        kind =
          /^\s*(<!doctype html|<html)/i.test(new TextDecoder().decode(read.bytes.subarray(0, 512)))
            ? "html"
            : "text";
      }
      const charset = detectCharset(contentType, read.bytes, kind === "html");
      const decoded = decodeBody(read.bytes, charset.label);
      const text = kind === "html"
        ? (await import("./html-to-markdown.ts")).htmlToMarkdown(decoded.text, url.href)
        : decoded.text;
      return page(url.href, text, args.start ?? 0, [
        ...(visited.length > 1 ? [`redirected to ${url.href}`] : []),
        ...(decoded.note ? [decoded.note] : []),
        ...(read.cut ? [`only the first ${WEB_FETCH_MAX_BYTES / 1024 / 1024} MiB were read`] : []),
      ]);
    } finally {
      clearTimeout(timer);
    }
  },
};

/** The slice of `text` from `start`, with notes and a pointer to what follows. */
function page(url: string, text: string, start: number, notes: string[]) {
  if (start > 0 && start >= text.length) {
    return toolError(`${url}: start ${start} is past the end (${text.length} characters)`);
  }
  const slice = text.slice(start, start + WEB_FETCH_MAX_CHARS);
  const end = start + slice.length;
  const parts = [`URL: ${url}`, ...notes.map((n) => `Note: ${n}`), "", slice];
  if (end < text.length) {
    parts.push("", `[${text.length - end} more characters: call web_fetch with start ${end}]`);
  }
  return {
    ok: true,
    output: parts.join("\n"),
    summary:
      `${url}: ${text.length} chars${end < text.length ? ` (showing ${start}-${end})` : ""}` +
      (notes.length > 0 ? `; ${notes.join("; ")}` : ""),
  };
}
