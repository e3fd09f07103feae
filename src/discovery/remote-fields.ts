/**
 * What a Gemini CLI remote agent's frontmatter (`kind: remote`) gives: its
 * card (`agent_card_url`, or `agent_card_json` inline: a JSON string or a
 * mapping) and its `auth`. Auth types `apiKey` (`key`, `name`, default
 * header `X-API-Key`) and `http` (`scheme` with `token` for Bearer,
 * `username` and `password` for Basic, `value` for any other scheme) are
 * read; `google-credentials` and `oauth` make the agent one that cannot run
 * (named as unsupported); anything else is an error. Values stay as written
 * (`$VAR`, `!command`, literal): `a2a/auth-headers.ts` resolves them when
 * the agent runs. Pure.
 *
 * @example
 * ```ts
 * remoteFields({ kind: "remote", agent_card_url: "https://x/card" });
 * // { ok: true, remote: { cardUrl: "https://x/card" } }
 * ```
 *
 * @module
 */
import type { RemoteAgent, RemoteAuth } from "../types.ts";
import { isRecord } from "../formats/values.ts";

export type RemoteFields =
  | { ok: true; remote: RemoteAgent; notRunnable?: string }
  | { ok: false; field: string; message: string };

/** The frontmatter keys {@link remoteFields} reads. */
export const REMOTE_KEYS: readonly string[] = ["agent_card_url", "agent_card_json", "auth"];

/** Auth types Gemini CLI knows that xcsh does not send. */
const UNSUPPORTED_AUTH = ["google-credentials", "oauth"];

function text(v: unknown): string | undefined {
  return typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;
}

function authOf(v: unknown): { ok: true; auth?: RemoteAuth; unsupported?: string } | {
  ok: false;
  field: string;
  message: string;
} {
  const bad = (field: string, message: string) => ({ ok: false as const, field, message });
  if (!isRecord(v)) return bad("auth", "'auth' must be a mapping with a 'type'");
  const type = v.type;
  if (typeof type === "string" && UNSUPPORTED_AUTH.includes(type)) {
    return { ok: true, unsupported: type };
  }
  if (type === "apiKey") {
    const key = text(v.key);
    if (!key) return bad("auth.key", "'auth.key' is required for auth type apiKey");
    if (v.name !== undefined && !text(v.name)) {
      return bad("auth.name", "'auth.name' must be a header name");
    }
    return { ok: true, auth: { type, key, ...(text(v.name) ? { name: text(v.name) } : {}) } };
  }
  if (type === "http") {
    const scheme = text(v.scheme);
    if (!scheme) return bad("auth.scheme", "'auth.scheme' is required for auth type http");
    const lower = scheme.toLowerCase();
    const need = lower === "bearer" ? ["token"] : lower === "basic" ? ["username", "password"] : [
      "value",
    ];
    const out: RemoteAuth = { type, scheme };
    for (const key of need) {
      const value = text(v[key]);
      if (!value) {
        return bad(`auth.${key}`, `'auth.${key}' is required for auth type http, scheme ${scheme}`);
      }
      (out as Record<string, string>)[key] = value;
    }
    return { ok: true, auth: out };
  }
  return bad(
    "auth.type",
    `'auth.type' must be apiKey, http, google-credentials or oauth, not ${JSON.stringify(type)}`,
  );
}

/** Reads the remote fields of a `kind: remote` frontmatter. */
export function remoteFields(fm: Record<string, unknown>): RemoteFields {
  const url = fm.agent_card_url;
  const json = fm.agent_card_json;
  const remote: RemoteAgent = {};
  if (url !== undefined && url !== null) {
    if (!text(url)) {
      return { ok: false, field: "agent_card_url", message: "'agent_card_url' must be a URL" };
    }
    remote.cardUrl = text(url);
  }
  if (json !== undefined && json !== null) {
    if (!text(json) && !isRecord(json)) {
      return {
        ok: false,
        field: "agent_card_json",
        message: "'agent_card_json' must be the card as a JSON string or a mapping",
      };
    }
    remote.cardJson = json;
  }
  if (remote.cardUrl === undefined && remote.cardJson === undefined) {
    return {
      ok: false,
      field: "agent_card_url",
      message: "a remote agent ('kind: remote') needs 'agent_card_url' or 'agent_card_json'",
    };
  }
  if (fm.auth === undefined || fm.auth === null) return { ok: true, remote };
  const auth = authOf(fm.auth);
  if (!auth.ok) return auth;
  if (auth.unsupported) {
    return {
      ok: true,
      remote,
      notRunnable: `its auth type '${auth.unsupported}' is not supported by xcsh ` +
        "(it sends apiKey and http credentials; google-credentials and oauth are not supported)",
    };
  }
  return { ok: true, remote: { ...remote, auth: auth.auth } };
}

/** The description of a remote agent whose file gives none: where it runs. */
export function remoteDescription(remote: RemoteAgent): string {
  if (remote.cardUrl) {
    try {
      return `Remote A2A agent at ${new URL(remote.cardUrl).host}`;
    } catch {
      // not a URL: said when the agent runs
    }
  }
  return "Remote A2A agent";
}
