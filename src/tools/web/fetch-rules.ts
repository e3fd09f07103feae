/**
 * The rules of `web_fetch`, apart from the network: which URLs may be
 * fetched (http and https only), where a redirect may go (at most
 * {@link MAX_REDIRECTS}, never back to a URL already visited, never off
 * http(s)), which content is text and which is binary, and which charset a
 * body is decoded with (the `Content-Type` charset, else a `<meta charset>`
 * near the top of an HTML page, else a byte-order mark, else UTF-8), and how
 * a failed request is named ({@link failureReason}). Pure.
 *
 * @example
 * ```ts
 * checkFetchURL("file:///etc/passwd");
 * // { ok: false, error: "file:///etc/passwd: only http and https URLs can be fetched (not file:)" }
 * contentKind("text/html; charset=utf-8"); // "html"
 * ```
 *
 * @module
 */

/**
 * Why a request failed, in one line: the error's message with the system's
 * code when the message does not already say it (the code of the error's
 * cause first: `fetch` wraps the socket's error).
 *
 * @example
 * ```ts
 * failureReason(Object.assign(new Error("connect failed"), { code: "ECONNREFUSED" }));
 * // "connect failed (ECONNREFUSED)"
 * ```
 */
export function failureReason(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = (err as { cause?: unknown }).cause;
  const code = (cause as { code?: string } | undefined)?.code ?? (err as { code?: string }).code;
  return code && !err.message.includes(code) ? `${err.message} (${code})` : err.message;
}

/** Redirects followed before giving up. */
export const MAX_REDIRECTS = 5;

export type URLCheck = { ok: true; url: URL } | { ok: false; error: string };

/** Whether `raw` (absolute, or relative to `base`) is an http(s) URL to fetch. */
export function checkFetchURL(raw: string, base?: string): URLCheck {
  const text = raw.trim();
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    return { ok: false, error: `${text}: not a valid URL (give an absolute http or https URL)` };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return {
      ok: false,
      error: `${text}: only http and https URLs can be fetched (not ${url.protocol})`,
    };
  }
  if (url.username || url.password) {
    return { ok: false, error: `${url.host}: URLs with a user name or password are not fetched` };
  }
  url.hash = "";
  return { ok: true, url };
}

/**
 * Where a redirect from `from` to `location` goes, or why it is not
 * followed. `visited` holds every URL fetched so far in this call.
 */
export function nextRedirect(
  from: URL,
  location: string | null,
  visited: readonly string[],
): URLCheck {
  if (location === null || location.trim() === "") {
    return { ok: false, error: `${from.href}: redirect without a Location header` };
  }
  const next = checkFetchURL(location, from.href);
  if (!next.ok) return { ok: false, error: `${from.href} redirects to ${next.error}` };
  if (visited.includes(next.url.href)) {
    return {
      ok: false,
      error: `${visited[0]}: redirect loop (${[...visited, next.url.href].join(" → ")})`,
    };
  }
  if (visited.length > MAX_REDIRECTS) {
    return {
      ok: false,
      error: `${visited[0]}: more than ${MAX_REDIRECTS} redirects (last: ${next.url.href})`,
    };
  }
  return next;
}

/** What a body is, judged from its media type. */
export type ContentKind = "html" | "text" | "binary" | "unknown";

const TEXT_TYPES = new Set([
  "application/json",
  "application/xml",
  "application/javascript",
  "application/ecmascript",
  "application/x-javascript",
  "application/x-sh",
  "application/x-yaml",
  "application/yaml",
  "application/toml",
  "application/x-ndjson",
  "application/graphql",
  "application/sql",
  "image/svg+xml",
]);

/** The media type of a `Content-Type` value, lower-cased, without parameters. */
export function mediaType(contentType: string | null): string {
  return (contentType ?? "").split(";")[0].trim().toLowerCase();
}

/** Whether a `Content-Type` names HTML, other text, or binary content. */
export function contentKind(contentType: string | null): ContentKind {
  const type = mediaType(contentType);
  if (type === "") return "unknown";
  if (type === "text/html" || type === "application/xhtml+xml") return "html";
  if (type.startsWith("text/") || TEXT_TYPES.has(type)) return "text";
  if (type.endsWith("+json") || type.endsWith("+xml")) return "text";
  return "binary";
}

/** Whether bytes look binary: a NUL, or mostly control characters, in the first 8 KiB. */
export function bytesLookBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 8192);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = bytes[i];
    if (b === 0) return true;
    if (b < 9 || (b > 13 && b < 32)) control++;
  }
  return n > 0 && control / n > 0.1;
}

function labelIn(text: string): string | undefined {
  const m = /charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)/i.exec(text);
  return m ? m[1].toLowerCase() : undefined;
}

/**
 * The charset label to decode a body with, and where it came from. Looks at
 * the `Content-Type` header, then (HTML only) a `<meta charset>` or
 * `<meta http-equiv="Content-Type">` in the first 4 KiB, then a BOM.
 */
export function detectCharset(
  contentType: string | null,
  head: Uint8Array,
  html: boolean,
): { label: string; from: "header" | "meta" | "bom" | "default" } {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) {
    return { label: "utf-8", from: "bom" };
  }
  if (head[0] === 0xff && head[1] === 0xfe) return { label: "utf-16le", from: "bom" };
  if (head[0] === 0xfe && head[1] === 0xff) return { label: "utf-16be", from: "bom" };
  const header = labelIn(contentType ?? "");
  if (header) return { label: header, from: "header" };
  if (html) {
    const ascii = new TextDecoder("latin1").decode(head.subarray(0, 4096));
    for (const m of ascii.matchAll(/<meta\b[^>]*>/gi)) {
      const tag = m[0];
      const direct = /\bcharset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)/i.exec(tag);
      if (direct && !/http-equiv/i.test(tag)) {
        return { label: direct[1].toLowerCase(), from: "meta" };
      }
      if (/http-equiv\s*=\s*["']?content-type/i.test(tag)) {
        const content = /\bcontent\s*=\s*["']([^"']*)["']/i.exec(tag);
        const label = content ? labelIn(content[1]) : undefined;
        if (label) return { label, from: "meta" };
      }
    }
  }
  return { label: "utf-8", from: "default" };
}

/**
 * Decodes `bytes` with `label`; an unknown label falls back to UTF-8 and
 * says so in `note`.
 */
export function decodeBody(bytes: Uint8Array, label: string): { text: string; note?: string } {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label);
  } catch {
    return {
      text: new TextDecoder("utf-8").decode(bytes),
      note: `unknown charset "${label}": read as UTF-8`,
    };
  }
  return { text: decoder.decode(bytes) };
}
