/**
 * The proxy through which sandboxed commands reach the network. It runs in
 * the task's child process, outside the sandbox (in the host's network), and
 * listens on a Unix socket that the sandbox sees read-only; commands, in a
 * network namespace of their own, reach it through the bridge
 * (`net-bridge.ts`).
 *
 * Decides how one client connection is served: its request head is read
 * (at most {@link MAX_HEAD} bytes); `CONNECT host:port` opens a tunnel, and a
 * plain-HTTP request in absolute form (`GET http://host/path`) is sent on in
 * origin form with the URL's own `Host`, `Connection: close` and no
 * `Proxy-*` header. Either way
 * the host is resolved here, its addresses are judged by the sandbox's
 * reach (`net-policy.ts`), and the connection goes to an address that
 * passed and to no other (a name that resolves differently a moment later
 * cannot move it). A refusal answers `403` with a one-line reason, also kept
 * for the command's output ({@link NetProxy.takeRefusals}). Anything else
 * (another method in origin form, a bad head) answers `400`.
 *
 * @module
 */
import { lookup } from "node:dns/promises";
import net, { isIP } from "node:net";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { checkDestination, type Destination } from "./net-policy.ts";
import { PROXY_SOCKET_NAME } from "./bwrap-args.ts";
import type { NetReach } from "../types.ts";

/** The largest request head read before a request is refused. */
export const MAX_HEAD = 64 * 1024;

/** How long one connection attempt to a destination may take. */
const CONNECT_TIMEOUT_MS = 15_000;

export interface NetProxy {
  /** The Unix socket it listens on. */
  socket: string;
  /** The refusals since the last call (one line each), for the command's output. */
  takeRefusals(): string[];
  close(): void;
}

/** A request head: its first line's parts and its header lines. */
export interface RequestHead {
  method: string;
  target: string;
  version: string;
  headers: string[];
}

/** Reads a request head (without the blank line), or undefined when it is no HTTP/1 head. */
export function parseHead(text: string): RequestHead | undefined {
  const lines = text.split("\r\n");
  const m = /^([A-Z]+) (\S+) (HTTP\/1\.[01])$/.exec(lines[0] ?? "");
  if (!m) return undefined;
  return { method: m[1], target: m[2], version: m[3], headers: lines.slice(1) };
}

/** Where a request goes: host (no brackets), port, and the head sent on (none for a tunnel). */
export type Forward =
  | { ok: true; host: string; port: number; tunnel: true }
  | { ok: true; host: string; port: number; tunnel: false; head: string }
  | { ok: false; error: string };

/** Header names not sent on: this hop's only, or meant for the proxy. */
const HOP_HEADERS = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authorization",
]);

/** `host:port` (`[v6]:port`) of a CONNECT target, or undefined. */
function authority(target: string): { host: string; port: number } | undefined {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:\[\]/@\s]+)):([0-9]{1,5})$/.exec(target);
  if (!m) return undefined;
  const port = Number(m[3]);
  if (port < 1 || port > 65535) return undefined;
  return { host: (m[1] ?? m[2]).toLowerCase(), port };
}

/** What a request head asks the proxy to do. Pure. */
export function planForward(head: RequestHead): Forward {
  if (head.method === "CONNECT") {
    const a = authority(head.target);
    if (!a) return { ok: false, error: `CONNECT ${head.target}: not host:port` };
    return { ok: true, ...a, tunnel: true };
  }
  let url: URL;
  try {
    url = new URL(head.target);
  } catch {
    return {
      ok: false,
      error: `${head.target}: this proxy takes CONNECT or an absolute http:// URL`,
    };
  }
  if (url.protocol !== "http:") {
    return {
      ok: false,
      error: `${url.protocol} URLs are not proxied (https goes through CONNECT)`,
    };
  }
  if (url.username || url.password) {
    return { ok: false, error: `${url.host}: URLs with a user name or password are not proxied` };
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  // The Host header is the URL's: another name would let a shared front end
  // (a CDN) route the request to a host that was never checked.
  const kept = head.headers.filter((h) => {
    const name = h.split(":")[0].trim().toLowerCase();
    return !HOP_HEADERS.has(name) && name !== "host";
  });
  const lines = [
    `${head.method} ${url.pathname}${url.search} ${head.version}`,
    `Host: ${url.host}`,
    ...kept,
  ];
  lines.push("Connection: close", "", "");
  return { ok: true, host, port: Number(url.port || 80), tunnel: false, head: lines.join("\r\n") };
}

/** Resolves `host` (an address stands for itself) and judges its addresses. */
export async function resolveDestination(host: string, reach: NetReach): Promise<Destination> {
  if (isIP(host)) return checkDestination(host, [host], reach);
  let answers: { address: string }[];
  try {
    // getaddrinfo also reads the odd ways of writing an address (2130706433, 0x7f.1).
    answers = await lookup(host, { all: true, verbatim: true });
  } catch (err) {
    const code = (err as { code?: string }).code;
    return { ok: false, error: `cannot resolve ${host}${code ? ` (${code})` : ""}` };
  }
  return checkDestination(host, answers.map((a) => a.address), reach);
}

/** A connection to the first of `addresses` that answers on `port`. */
function connectFirst(addresses: readonly string[], port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    let i = 0;
    let last: Error | undefined;
    const next = () => {
      if (i >= addresses.length) return reject(last ?? new Error("no address"));
      const s = net.connect({ host: addresses[i++], port });
      s.setTimeout(CONNECT_TIMEOUT_MS, () => s.destroy(new Error("timed out")));
      s.once("connect", () => {
        s.setTimeout(0);
        s.removeAllListeners("error");
        s.on("error", () => s.destroy());
        resolve(s);
      });
      s.once("error", (e) => {
        last = e;
        next();
      });
    };
    next();
  });
}

/** Pipes two sockets into each other until either ends. */
function splice(a: net.Socket, b: net.Socket): void {
  a.on("error", () => b.destroy());
  b.on("error", () => a.destroy());
  a.pipe(b);
  b.pipe(a);
}

function answer(client: net.Socket, status: string, message: string): void {
  const body = `${message}\n`;
  client.end(
    `HTTP/1.1 ${status}\r\nContent-Type: text/plain; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Serves one client connection. */
function serve(client: net.Socket, reach: NetReach, refused: (line: string) => void): void {
  let buffered = Buffer.alloc(0);
  client.on("error", () => client.destroy());
  const onData = async (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    const end = buffered.indexOf("\r\n\r\n");
    if (end < 0 && buffered.length <= MAX_HEAD) return;
    client.off("data", onData);
    if (end < 0) {
      return answer(client, "431 Request Header Fields Too Large", "xcsh proxy: head too large");
    }
    client.pause();
    const head = parseHead(buffered.subarray(0, end).toString("latin1"));
    const rest = buffered.subarray(end + 4);
    const plan = head ? planForward(head) : { ok: false as const, error: "not an HTTP/1 request" };
    if (!plan.ok) return answer(client, "400 Bad Request", `xcsh proxy: ${plan.error}`);
    const where = `${plan.host.includes(":") ? `[${plan.host}]` : plan.host}:${plan.port}`;
    const dest = await resolveDestination(plan.host, reach);
    if (!dest.ok) {
      const line = `network: ${where} refused: ${dest.error}`;
      refused(line);
      return answer(client, "403 Forbidden", `xcsh sandbox ${line}`);
    }
    let upstream: net.Socket;
    try {
      upstream = await connectFirst(dest.addresses, plan.port);
    } catch (err) {
      return answer(client, "502 Bad Gateway", `xcsh proxy: ${where}: ${(err as Error).message}`);
    }
    if (client.destroyed) return upstream.destroy();
    if (plan.tunnel) client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    else upstream.write(Buffer.from(plan.head, "latin1"));
    if (rest.length > 0) upstream.write(rest);
    splice(client, upstream);
    client.resume();
  };
  client.on("data", onData);
}

/** Starts a proxy on the Unix socket `socket` for commands with `reach`. */
export function startNetProxy(socket: string, reach: NetReach): Promise<NetProxy> {
  let refusals: string[] = [];
  const server = net.createServer((c) => serve(c, reach, (l) => refusals.push(l)));
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(socket, () => {
      server.off("error", reject);
      // It serves the task's commands; it never keeps the child alive on its own.
      server.unref();
      resolve({
        socket,
        takeRefusals: () => {
          const out = refusals;
          refusals = [];
          return out;
        },
        close: () => server.close(),
      });
    });
  });
}

const started = new Map<string, Promise<NetProxy>>();

/**
 * The proxy of the task whose private temporary folder is `tmp`, started on
 * first use (a task whose commands never run starts none): it listens in
 * `tmp/.xcsh-net/`, the folder the sandbox binds read-only.
 */
export function taskProxy(tmp: string, reach: NetReach): Promise<NetProxy> {
  const dir = join(tmp, ".xcsh-net");
  let p = started.get(dir);
  if (!p) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    p = startNetProxy(join(dir, PROXY_SOCKET_NAME), reach);
    started.set(dir, p);
    p.catch(() => started.delete(dir));
  }
  return p;
}
