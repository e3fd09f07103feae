/**
 * What a request to `xcsh a2a` asks for, by its method and raw path: the
 * index of cards (`GET /agents`), one agent's card (`GET
 * /agents/<name>/.well-known/agent-card.json`), or that agent's JSON-RPC
 * endpoint (`POST /agents/<name>/`). The name is one percent-encoded path
 * segment; a segment that does not decode, or decodes to something no agent
 * is named (a slash, a backslash, a control character, `.` or `..`), is a
 * bad name, answered as such and never looked up. The path is read as sent:
 * dot segments are not resolved, so `/agents/../x` names no route. Pure.
 *
 * @example
 * ```ts
 * routeOf("GET", "/agents/reviewer/.well-known/agent-card.json"); // { kind: "card", name: "reviewer" }
 * routeOf("POST", "/agents/reviewer/"); // { kind: "rpc", name: "reviewer" }
 * routeOf("GET", "/agents/..%2Fetc/.well-known/agent-card.json"); // { kind: "bad-name", … }
 * ```
 *
 * @module
 */

export const CARD_PATH = ".well-known/agent-card.json";

export type Route =
  | { kind: "index" }
  | { kind: "card"; name: string }
  | { kind: "rpc"; name: string }
  | { kind: "bad-name"; segment: string }
  /** A known path asked with the wrong method: `allow` names the right one. */
  | { kind: "method"; allow: "GET" | "POST" }
  | { kind: "none" };

/** The agent name a path segment stands for, or undefined when it can name none. */
export function segmentName(segment: string): string | undefined {
  let name: string;
  try {
    name = decodeURIComponent(segment);
  } catch {
    return undefined;
  }
  if (name === "" || name === "." || name === "..") return undefined;
  // deno-lint-ignore no-control-regex
  if (/[/\\\x00-\x1f\x7f]/.test(name)) return undefined;
  return name;
}

/** The route of `method` on the raw request target `target` (query ignored). */
export function routeOf(method: string, target: string): Route {
  const path = target.split("?")[0].split("#")[0];
  const parts = path.split("/");
  // parts[0] is "" (the path starts with "/").
  if (parts[0] !== "" || parts[1] !== "agents") return { kind: "none" };
  const rest = parts.slice(2);
  if (rest.length === 0 || (rest.length === 1 && rest[0] === "")) {
    return method === "GET" ? { kind: "index" } : { kind: "method", allow: "GET" };
  }
  const segment = rest[0];
  const tail = rest.slice(1).join("/");
  const isCard = tail === CARD_PATH;
  const isRpc = tail === "";
  if (!isCard && !isRpc) return { kind: "none" };
  const name = segmentName(segment);
  if (name === undefined) return { kind: "bad-name", segment };
  if (isCard) return method === "GET" ? { kind: "card", name } : { kind: "method", allow: "GET" };
  return method === "POST" ? { kind: "rpc", name } : { kind: "method", allow: "POST" };
}

/** The path of agent `name`'s endpoint under the server's base (no trailing slash on base). */
export function agentPath(name: string): string {
  return `/agents/${encodeURIComponent(name)}/`;
}
