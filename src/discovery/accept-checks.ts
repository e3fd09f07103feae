/**
 * What an acceptance-check list says: the `accept:` field of an agent file,
 * `--accept` on `xcsh run` and `accept` in MCP task arguments all read
 * through here.
 *
 * Decides the two spellings of one check and their defaults. An object
 * names its kind by its key: `cmd` (a command that must exit 0; `timeout`
 * in seconds, default {@link DEFAULT_CHECK_TIMEOUT_S}, at most
 * {@link MAX_CHECK_TIMEOUT_S}), `file` (a path that must exist; `matches`:
 * a regular expression its text must match, or `schema`: a JSON Schema its
 * JSON must satisfy), `scope` (globs every changed file must match;
 * `changed: true`: at least one file must have changed) or `result` (a JSON
 * Pointer into the structured result; `equals` a JSON value, or `matches`
 * a regular expression over its text); `name` is optional. A string is the
 * short form: `cmd: npm test`, `file: out.txt`, `file: out.txt ~ ^done`,
 * `scope: src/** docs/**`, `changed: src/**` (a scope with `changed: true`),
 * `result: /ok == true`, `result: /summary ~ fixed`. Regular expressions and
 * pointers are checked here; globs and schemas where they are compiled, in
 * the runner, before any child starts. `acceptRetries` is a whole number
 * from 0 to {@link MAX_ACCEPT_RETRIES}. Pure.
 *
 * @example
 * ```ts
 * parseAcceptList(["cmd: npm test", { scope: ["src/**"], changed: true }], "accept");
 * // { ok: true, checks: [{ kind: "cmd", name: "cmd: npm test", cmd: "npm test" }, …] }
 * ```
 *
 * @module
 */
import type { AcceptCheck } from "../types.ts";

/** Seconds a check command may run when it names no `timeout`. */
export const DEFAULT_CHECK_TIMEOUT_S = 300;
/** The longest `timeout` a check command may ask for (seconds). */
export const MAX_CHECK_TIMEOUT_S = 3600;
/** Rounds a failed child is sent back when nothing says otherwise. */
export const DEFAULT_ACCEPT_RETRIES = 1;
/** The most rounds a child may be sent back. */
export const MAX_ACCEPT_RETRIES = 5;

export type AcceptList =
  | { ok: true; checks: AcceptCheck[] }
  | { ok: false; message: string };

const KINDS = ["cmd", "file", "scope", "changed", "result"] as const;
const KEYS: Record<string, readonly string[]> = {
  cmd: ["name", "cmd", "timeout"],
  file: ["name", "file", "matches", "schema"],
  scope: ["name", "scope", "changed"],
  result: ["name", "result", "equals", "matches"],
};

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Why `text` is no regular expression, or undefined. */
function regexProblem(text: string): string | undefined {
  try {
    new RegExp(text);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

/** Why `p` is no JSON Pointer (RFC 6901), or undefined. */
export function pointerProblem(p: string): string | undefined {
  if (p !== "" && !p.startsWith("/")) return `'${p}' is no JSON Pointer (it must start with /)`;
  if (/~[^01]|~$/.test(p)) return `'${p}' is no JSON Pointer (~ must be followed by 0 or 1)`;
  return undefined;
}

/** Splits `text` at the first ` OP ` (with spaces around it). */
function splitAt(text: string, op: string): [string, string | undefined] {
  const at = text.indexOf(` ${op} `);
  if (at < 0) return [text.trim(), undefined];
  return [text.slice(0, at).trim(), text.slice(at + op.length + 2).trim()];
}

/** The object form of the short form `text`, or why it is none. */
function fromShort(text: string): Record<string, unknown> | string {
  const m = /^\s*([a-z]+)\s*:\s*([\s\S]*)$/.exec(text);
  if (!m || !(KINDS as readonly string[]).includes(m[1])) {
    return `'${text}' is no check: write KIND: VALUE with KIND one of ${KINDS.join(", ")}`;
  }
  const [, kind, rest] = m;
  const value = rest.trim();
  const name = `${kind}: ${value}`;
  switch (kind) {
    case "cmd":
      return { name, cmd: value };
    case "file": {
      const [file, matches] = splitAt(value, "~");
      return { name, file, ...(matches !== undefined ? { matches } : {}) };
    }
    case "scope":
    case "changed":
      return {
        name,
        scope: value.split(/\s+/).filter((g) => g !== ""),
        ...(kind === "changed" ? { changed: true } : {}),
      };
    default: {
      const [pointer, regex] = splitAt(value, "~");
      if (regex !== undefined) return { name, result: pointer, matches: regex };
      const [ptr, json] = splitAt(value, "==");
      if (json === undefined) return { name, result: ptr };
      try {
        return { name, result: ptr, equals: JSON.parse(json) };
      } catch {
        return `'${text}': the value after == must be JSON (quote a string: "done")`;
      }
    }
  }
}

/** One check from `entry`, or why it is none. */
export function parseCheck(entry: unknown): AcceptCheck | string {
  const obj = typeof entry === "string" ? fromShort(entry) : entry;
  if (typeof obj === "string") return obj;
  if (!isRecord(obj)) return `a check is a string or an object, not ${JSON.stringify(entry)}`;
  const kinds = Object.keys(obj).filter((k) => k in KEYS);
  if (kinds.length !== 1) {
    return `a check has exactly one of cmd, file, scope, result (found ${
      kinds.length === 0 ? "none" : kinds.join(", ")
    })`;
  }
  const kind = kinds[0];
  const extra = Object.keys(obj).filter((k) => !KEYS[kind].includes(k));
  if (extra.length > 0) return `a '${kind}' check has no key '${extra[0]}'`;
  if (obj.name !== undefined && (typeof obj.name !== "string" || obj.name.trim() === "")) {
    return "'name' must be a non-empty string";
  }
  const matches = obj.matches;
  if (matches !== undefined) {
    if (typeof matches !== "string") return "'matches' must be a regular expression (a string)";
    const bad = regexProblem(matches);
    if (bad) return `'matches': ${bad}`;
  }
  const named = (fallback: string) => (obj.name as string | undefined)?.trim() ?? fallback;
  if (kind === "cmd") {
    if (typeof obj.cmd !== "string" || obj.cmd.trim() === "") return "'cmd' must be a command";
    const t = obj.timeout;
    if (t !== undefined) {
      if (typeof t !== "number" || !(t > 0) || t > MAX_CHECK_TIMEOUT_S) {
        return `'timeout' must be seconds above 0, at most ${MAX_CHECK_TIMEOUT_S}`;
      }
    }
    return {
      kind: "cmd",
      name: named(`cmd: ${obj.cmd.trim()}`),
      cmd: obj.cmd,
      ...(t !== undefined ? { timeout: t as number } : {}),
    };
  }
  if (kind === "file") {
    if (typeof obj.file !== "string" || obj.file.trim() === "") return "'file' must be a path";
    if (matches !== undefined && obj.schema !== undefined) {
      return "a 'file' check has 'matches' or 'schema', not both";
    }
    if (obj.schema !== undefined && !isRecord(obj.schema) && typeof obj.schema !== "boolean") {
      return "'schema' must be a JSON Schema (an object)";
    }
    return {
      kind: "file",
      name: named(`file: ${obj.file}`),
      file: obj.file,
      ...(matches !== undefined ? { matches: matches as string } : {}),
      ...(obj.schema !== undefined ? { schema: obj.schema } : {}),
    };
  }
  if (kind === "scope") {
    const s = typeof obj.scope === "string" ? [obj.scope] : obj.scope;
    if (!Array.isArray(s) || s.length === 0 || !s.every((g) => typeof g === "string" && g !== "")) {
      return "'scope' must be a glob or a list of globs";
    }
    if (obj.changed !== undefined && typeof obj.changed !== "boolean") {
      return "'changed' must be true or false";
    }
    return {
      kind: "scope",
      name: named(`scope: ${s.join(" ")}`),
      globs: s as string[],
      ...(obj.changed === true ? { changed: true } : {}),
    };
  }
  if (typeof obj.result !== "string") return "'result' must be a JSON Pointer (a string)";
  const bad = pointerProblem(obj.result);
  if (bad) return `'result': ${bad}`;
  if (matches !== undefined && obj.equals !== undefined) {
    return "a 'result' check has 'equals' or 'matches', not both";
  }
  return {
    kind: "result",
    name: named(`result: ${obj.result}`),
    pointer: obj.result,
    ...(obj.equals !== undefined ? { equals: obj.equals } : {}),
    ...(matches !== undefined ? { matches: matches as string } : {}),
  };
}

/** Reads a list of checks (a single check alone is a list of one); `field` names it in errors. */
export function parseAcceptList(value: unknown, field: string): AcceptList {
  const list = Array.isArray(value) ? value : [value];
  const checks: AcceptCheck[] = [];
  for (let i = 0; i < list.length; i++) {
    const c = parseCheck(list[i]);
    if (typeof c === "string") return { ok: false, message: `${field}[${i}]: ${c}` };
    if (checks.some((o) => o.name === c.name)) {
      return { ok: false, message: `${field}[${i}]: two checks are named '${c.name}'` };
    }
    checks.push(c);
  }
  return { ok: true, checks };
}

/** Reads `acceptRetries`, or why it is none. */
export function parseAcceptRetries(v: unknown): number | string {
  const n = typeof v === "string" && v.trim() !== "" ? Number(v) : v;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 0 || n > MAX_ACCEPT_RETRIES) {
    return `must be a whole number from 0 to ${MAX_ACCEPT_RETRIES}`;
  }
  return n;
}
