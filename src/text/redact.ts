/**
 * How a secret is hidden from a text (what is a secret is decided in
 * `secrets.ts`): {@link redact} hides the given values wherever they appear,
 * object keys included, and every key shape, for whatever is shown, logged
 * or written ({@link redactValue} also hides the secret-named entries of an
 * `env` or `headers` map); {@link redactValues} hides the values only, for what the model
 * reads back (a file holding a key-shaped test fixture stays editable);
 * {@link hideUrlCredentials} shows a configured URL with its whole userinfo
 * and key-like parameters hidden. Pure.
 *
 * @example
 * ```ts
 * redact("key sk-abcdefgh123!", ["sk-abcdefgh123"]); // "key [redacted]!"
 * redact("Authorization: Bearer abcdefghijklmnopqrstu", []); // "Authorization: Bearer [redacted]"
 * hideUrlCredentials("http://me:hunter22@h/v1?api_key=zz"); // "http://[redacted]@h/v1?api_key=[redacted]"
 * ```
 *
 * @module
 */
import {
  hideSecretEntries,
  hideSecretShapes,
  mayHoldSecretShape,
  REDACTED,
  URL_SECRET_PARAM,
  URL_USERINFO,
} from "./secrets.ts";
import { isRecord } from "../formats/values.ts";

/** Hides credentials inside a URL: its userinfo (a bare user too) and key-like parameters. */
export function hideUrlCredentials(text: string): string {
  if (!text.includes("://") && !text.includes("=")) return text;
  return text.replace(URL_USERINFO, `$1${REDACTED}@`).replace(URL_SECRET_PARAM, `$1${REDACTED}`);
}

/** The fewest characters of a secret value {@link redactValues} hides. */
const SHORTEST_VALUE = 4;

/** Replaces every occurrence of each secret value with `[redacted]` (values of 4+ characters). */
export function redactValues(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) {
    if (s.length >= SHORTEST_VALUE && out.includes(s)) out = out.split(s).join(REDACTED);
  }
  return out;
}

/** False only when {@link redact} would leave `text` as it is (one look, no text built). */
function mayHoldSecret(text: string, secrets: readonly string[]): boolean {
  for (const s of secrets) if (s.length >= SHORTEST_VALUE && text.includes(s)) return true;
  return mayHoldSecretShape(text);
}

/** Hides every secret value and every key shape (`secrets.ts`) in `text`. */
export function redact(text: string, secrets: readonly string[]): string {
  return mayHoldSecret(text, secrets) ? hideSecretShapes(redactValues(text, secrets)) : text;
}

/**
 * Deeply {@link redact}s the strings of a JSON-like value, object keys
 * included; the value of a secret-named entry of an `env` or `headers` map
 * (an MCP server's) is hidden whole.
 */
export function redactValue<T>(value: T, secrets: readonly string[]): T {
  if (typeof value === "string") return redact(value, secrets) as T;
  // Most values hold nothing to hide: one look at all their text at once
  // says so (a match within one string is a match in the joined text), and
  // the value is kept as it is instead of rebuilt string by string.
  if (typeof value === "object" && value !== null) {
    const texts: string[] = [];
    if (gatherText(value, texts)) {
      const joined = texts.join("\n");
      if (redact(joined, secrets) === joined) return value;
    }
  }
  if (Array.isArray(value)) return value.map((v) => redactValue(v, secrets)) as T;
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        redact(k, secrets),
        redactValue(
          (k === "env" || k === "headers") && isRecord(v) ? hideSecretEntries(v) : v,
          secrets,
        ),
      ]),
    ) as T;
  }
  return value;
}

/**
 * Pushes every string of `value` (object keys included) onto `into`; false
 * when an `env` or `headers` map has an entry hidden by its name alone.
 */
function gatherText(value: unknown, into: string[]): boolean {
  if (typeof value === "string") {
    into.push(value);
    return true;
  }
  if (typeof value !== "object" || value === null) return true;
  // Index loops, not entries() and callbacks: the walk runs for every event
  // of every child and for each session's header, and they cost a third more.
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!gatherText(value[i], into)) return false;
    return true;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    const v = record[k];
    into.push(k);
    if ((k === "env" || k === "headers") && isRecord(v)) {
      const hidden = hideSecretEntries(v);
      if (Object.keys(v).some((key) => hidden[key] !== v[key])) return false;
    }
    if (!gatherText(v, into)) return false;
  }
  return true;
}
