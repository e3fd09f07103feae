/**
 * How `web_fetch` reaches a server: the URL's host is resolved here, every
 * address it resolves to is judged by `net-address.ts` (a public address,
 * or one the user's `task.webFetchAllow` opens), and the GET then connects
 * to an address that passed and to no other: the request's own name lookup
 * answers only those (the client tries them in turn), so a name that
 * resolves differently a moment later (DNS rebinding) cannot move the
 * connection. The host name
 * still travels in the `Host` header and, for https, in SNI and the
 * certificate check. Proxy variables are not used: a proxy would resolve
 * the name itself. An answer's body is read up to a cap and no further
 * ({@link readBodyCapped}).
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { lookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import type { Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { addressProblem, allowedByEntries, parseAddress } from "../../net/net-address.ts";

/** One address a connection may go to. */
export interface CheckedAddress {
  address: string;
  family: 4 | 6;
}

/** The addresses a URL's host may be reached at (in the resolver's order), or why none. */
export type TargetCheck =
  | { ok: true; addresses: CheckedAddress[] }
  | { ok: false; error: string };

/** The URL's host name without IPv6 brackets, lower-case. */
export function hostOf(url: URL): string {
  const h = url.hostname.toLowerCase();
  return h.startsWith("[") && h.endsWith("]") ? h.slice(1, -1) : h;
}

/**
 * Those of `addresses` (what `url`'s host resolved to) that are public or
 * opened by `allow`, or, when there is none, an error naming the first
 * refused address. Pure.
 */
export function chooseAddress(
  url: URL,
  addresses: readonly string[],
  allow: readonly string[],
  who = "web_fetch",
): TargetCheck {
  const host = hostOf(url);
  let refused: { address: string; problem: string } | undefined;
  const ok: CheckedAddress[] = [];
  for (const address of addresses) {
    const problem = addressProblem(address);
    if (problem === undefined || allowedByEntries(allow, host, address)) {
      ok.push({ address, family: address.includes(":") ? 6 : 4 });
    } else refused ??= { address, problem };
  }
  if (ok.length > 0) return { ok: true, addresses: ok };
  if (!refused) return { ok: false, error: `${url.href}: ${host} has no address` };
  const what = parseAddress(host) ? host : `${host} resolves to ${refused.address}, which`;
  return {
    ok: false,
    error: `${url.href}: ${what} is ${refused.problem}; ${who} reaches only public ` +
      "addresses (task.webFetchAllow in your own config opens hosts or ranges)",
  };
}

/**
 * Resolves `url`'s host and chooses the address to connect to; `who` names
 * the caller in a refusal.
 */
export async function resolveTarget(
  url: URL,
  allow: readonly string[],
  signal: AbortSignal,
  who = "web_fetch",
): Promise<TargetCheck> {
  const host = hostOf(url);
  if (parseAddress(host)) return chooseAddress(url, [host], allow, who);
  let answers: { address: string }[];
  try {
    answers = await abortable(lookup(host, { all: true, verbatim: true }), signal);
  } catch (err) {
    if (signal.aborted) throw err;
    const code = (err as { code?: string }).code;
    return { ok: false, error: `${url.href}: cannot resolve ${host}${code ? ` (${code})` : ""}` };
  }
  return chooseAddress(url, answers.map((a) => a.address), allow, who);
}

function abortable<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** An answer: status, headers, and the body (already decompressed). */
export interface PinnedResponse {
  status: number;
  statusText: string;
  header(name: string): string | null;
  body: Readable;
}

/**
 * A lookup that answers only the checked `addresses`, whatever name it is
 * asked for (all of them when asked for all: the client tries each in turn).
 */
function pinnedLookup(addresses: readonly CheckedAddress[]): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: unknown) => {
    const cb = (typeof options === "function" ? options : callback) as (
      err: Error | null,
      a: string | CheckedAddress[],
      f?: number,
    ) => void;
    if (typeof options === "object" && options?.all) cb(null, [...addresses]);
    else cb(null, addresses[0].address, addresses[0].family);
  }) as LookupFunction;
}

/** Decompresses a body by its `Content-Encoding`, or leaves it as it is. */
function decoded(body: Readable, encoding: string | null): Readable {
  const e = (encoding ?? "").trim().toLowerCase();
  const stream = e === "gzip" || e === "x-gzip"
    ? createGunzip()
    : e === "deflate"
    ? createInflate()
    : e === "br"
    ? createBrotliDecompress()
    : undefined;
  if (!stream) return body;
  body.on("error", (err) => stream.destroy(err));
  stream.on("close", () => body.destroy());
  return body.pipe(stream);
}

/**
 * One GET of `url` over a connection to one of `target.addresses` (checked
 * by the caller). Redirects are not followed; `signal` ends the request and
 * its body.
 */
export function pinnedGet(
  url: URL,
  target: { addresses: readonly CheckedAddress[] },
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<PinnedResponse> {
  return pinnedRequest(url, target, { method: "GET", headers }, signal);
}

/**
 * One request of `url` (any method, with an optional body) over a
 * connection to one of `target.addresses`, as {@link pinnedGet}.
 */
export function pinnedRequest(
  url: URL,
  target: { addresses: readonly CheckedAddress[] },
  request: { method: string; headers: Record<string, string>; body?: string },
  signal: AbortSignal,
): Promise<PinnedResponse> {
  const { method, headers, body } = request;
  const client = url.protocol === "https:" ? https : http;
  return new Promise<PinnedResponse>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const req = client.request({
      host: hostOf(url),
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method,
      headers: body === undefined
        ? headers
        : { ...headers, "content-length": String(Buffer.byteLength(body, "utf8")) },
      agent: false,
      lookup: pinnedLookup(target.addresses),
    }, (res) => {
      const header = (name: string) => {
        const v = res.headers[name.toLowerCase()];
        return v === undefined ? null : Array.isArray(v) ? v.join(", ") : v;
      };
      const body = decoded(res, header("content-encoding"));
      signal.addEventListener("abort", () => body.destroy(signal.reason), { once: true });
      resolve({
        status: res.statusCode ?? 0,
        statusText: res.statusMessage ?? "",
        header,
        body,
      });
    });
    const onAbort = () => req.destroy(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    req.on("error", (err) => {
      signal.removeEventListener("abort", onAbort);
      reject(err);
    });
    req.end(body);
  });
}

/** A body read up to the cap; `cut` when more was there (the rest is never read). */
export async function readBodyCapped(
  body: PinnedResponse["body"],
  max: number,
): Promise<{ bytes: Uint8Array; cut: boolean }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let cut = false;
  try {
    for await (const value of body as AsyncIterable<Uint8Array>) {
      if (size + value.length > max) {
        chunks.push(value.subarray(0, max - size));
        size = max;
        cut = true;
        break;
      }
      chunks.push(value);
      size += value.length;
    }
  } finally {
    body.destroy();
  }
  return { bytes: Buffer.concat(chunks, size), cut };
}
