/**
 * How xcsh reaches an A2A server: by `web_fetch`'s rules and connection
 * (`tools/web/fetch-rules.ts`, `tools/web/pinned-get.ts`): http(s) URLs
 * only, each host resolved and every address it resolves to checked (public,
 * or opened by the user's `task.webFetchAllow`), the connection pinned to a
 * checked address. A GET (the card) follows redirects, each hop checked
 * again; a POST (a JSON-RPC call) follows none. Failures are one line
 * naming the URL.
 *
 * @module
 */
import { checkFetchURL, failureReason, nextRedirect } from "../tools/web/fetch-rules.ts";
import {
  pinnedRequest,
  type PinnedResponse,
  readBodyCapped,
  resolveTarget,
} from "../tools/web/pinned-get.ts";

/** Who a refused address names: the task's far side. */
const WHO = "a remote agent";

export type A2AResponse = { ok: true; res: PinnedResponse; url: URL } | {
  ok: false;
  error: string;
};

/**
 * One request to `raw`. `signal` ends it (and its body); the caller says
 * what an abort means.
 */
export async function a2aRequest(
  raw: string,
  request: { method: "GET" | "POST"; headers: Record<string, string>; body?: string },
  allow: readonly string[],
  signal: AbortSignal,
): Promise<A2AResponse> {
  const first = checkFetchURL(raw);
  if (!first.ok) return first;
  let url = first.url;
  const visited: string[] = [];
  for (;;) {
    visited.push(url.href);
    const target = await resolveTarget(url, allow, signal, WHO);
    if (!target.ok) return target;
    let res: PinnedResponse;
    try {
      res = await pinnedRequest(url, target, request, signal);
    } catch (err) {
      if (signal.aborted) throw err;
      return { ok: false, error: `${url.href}: request failed: ${failureReason(err)}` };
    }
    if (res.status < 300 || res.status >= 400 || res.status === 304) return { ok: true, res, url };
    res.body.destroy();
    if (request.method !== "GET") {
      return {
        ok: false,
        error: `${url.href}: answered a redirect (HTTP ${res.status}) to a JSON-RPC call; ` +
          "give the endpoint's own URL in the card",
      };
    }
    const next = nextRedirect(url, res.header("location"), visited);
    if (!next.ok) return next;
    url = next.url;
  }
}

/** Reads a body whole, up to `max` bytes (more is an error). */
export async function readBody(
  body: PinnedResponse["body"],
  max: number,
): Promise<{ ok: true; text: string } | { ok: false; tooLarge: true }> {
  // One byte past the limit is enough to know the body is too large.
  const { bytes } = await readBodyCapped(body, max + 1);
  if (bytes.length > max) return { ok: false, tooLarge: true };
  return { ok: true, text: new TextDecoder().decode(bytes) };
}
