/**
 * The headers a remote agent's `auth` sends, with every value resolved from
 * the user's side only. A value is `$VAR` (the user's environment), `$$…`
 * or `!!…` (a literal starting with `$` or `!`), `!command`, or a literal.
 * A repository's file (`fromProject`) holds no credentials: its literals
 * are refused (write `$VAR`), and its `!command`s are never run. The user's
 * own file's `!command` is run by the caller's `runCommand` (without one, it
 * is refused in one line saying to use `$VAR`). Headers:
 * `apiKey` → `<name, default X-API-Key>: key`; `http` Bearer →
 * `Authorization: Bearer token`; Basic → `Authorization: Basic base64(user:password)`;
 * another scheme → `Authorization: <scheme> value`. Pure.
 *
 * @example
 * ```ts
 * authHeaders({ type: "apiKey", key: "$K" }, { env: { K: "s3cret" }, fromProject: false, where: "a.md" });
 * // { ok: true, headers: { "X-API-Key": "s3cret" }, values: ["s3cret"] }
 * ```
 *
 * @module
 */
import { Buffer } from "node:buffer";
import type { RemoteAuth } from "../types.ts";

export interface SecretSource {
  env: Record<string, string | undefined>;
  /** The agent file is repository content. */
  fromProject: boolean;
  /** The file, for messages. */
  where: string;
  /** Runs a `!command` of the user's own file: what it printed, or why not. */
  runCommand?: (command: string) => { ok: true; value: string } | { ok: false; error: string };
}

export type AuthHeaders =
  | { ok: true; headers: Record<string, string>; values: string[] }
  | { ok: false; error: string };

/** One value of `auth.<field>` resolved, or why it cannot be. */
export function resolveValue(
  raw: string,
  field: string,
  src: SecretSource,
): { ok: true; value: string } | { ok: false; error: string } {
  const at = `${src.where}: auth.${field}`;
  if (raw.startsWith("$$") || raw.startsWith("!!")) {
    if (src.fromProject) return projectLiteral(at);
    return { ok: true, value: raw.slice(1) };
  }
  if (raw.startsWith("$")) {
    const name = raw.slice(1);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      return { ok: false, error: `${at}: '${raw}' is no environment variable name` };
    }
    const value = src.env[name];
    if (value === undefined || value === "") {
      return { ok: false, error: `${at} reads $${name}, which is not set in your environment` };
    }
    return { ok: true, value };
  }
  if (raw.startsWith("!")) {
    if (src.fromProject) {
      return {
        ok: false,
        error: `${at}: a '!command' of a repository's agent file is never run; ` +
          "give the value as $VAR from your environment",
      };
    }
    if (!src.runCommand) {
      return {
        ok: false,
        error:
          `${at}: '!command' values are not run here; set an environment variable and write $VAR`,
      };
    }
    const ran = src.runCommand(raw.slice(1));
    return ran.ok ? ran : { ok: false, error: `${at}: ${ran.error}` };
  }
  if (src.fromProject) return projectLiteral(at);
  return { ok: true, value: raw };
}

function projectLiteral(at: string): { ok: false; error: string } {
  return {
    ok: false,
    error: `${at}: a repository's agent file may not hold credentials; ` +
      "write $VAR to send a value from your environment",
  };
}

/** The headers of `auth` (none without auth). */
export function authHeaders(auth: RemoteAuth | undefined, src: SecretSource): AuthHeaders {
  if (!auth) return { ok: true, headers: {}, values: [] };
  const values: string[] = [];
  const get = (field: string, raw: string): string | { error: string } => {
    const r = resolveValue(raw, field, src);
    if (!r.ok) return { error: r.error };
    values.push(r.value);
    return r.value;
  };
  if (auth.type === "apiKey") {
    const key = get("key", auth.key);
    if (typeof key !== "string") return { ok: false, ...key };
    return { ok: true, headers: { [auth.name ?? "X-API-Key"]: key }, values };
  }
  const scheme = auth.scheme.toLowerCase();
  let value: string | { error: string };
  if (scheme === "bearer") {
    const token = get("token", auth.token ?? "");
    value = typeof token === "string" ? `Bearer ${token}` : token;
  } else if (scheme === "basic") {
    const user = get("username", auth.username ?? "");
    if (typeof user !== "string") return { ok: false, ...user };
    const password = get("password", auth.password ?? "");
    if (typeof password !== "string") return { ok: false, ...password };
    const encoded = Buffer.from(`${user}:${password}`, "utf8").toString("base64");
    values.push(encoded);
    value = `Basic ${encoded}`;
  } else {
    const raw = get("value", auth.value ?? "");
    value = typeof raw === "string" ? `${auth.scheme} ${raw}` : raw;
  }
  if (typeof value !== "string") return { ok: false, ...value };
  return { ok: true, headers: { Authorization: value }, values };
}
