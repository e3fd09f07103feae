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
  REDACTED,
  URL_SECRET_PARAM,
  URL_USERINFO,
} from "./secrets.ts";

/** Hides credentials inside a URL: its userinfo (a bare user too) and key-like parameters. */
export function hideUrlCredentials(text: string): string {
  if (!text.includes("://") && !text.includes("=")) return text;
  return text.replace(URL_USERINFO, `$1${REDACTED}@`).replace(URL_SECRET_PARAM, `$1${REDACTED}`);
}

/** Replaces every occurrence of each secret value with `[redacted]` (values of 4+ characters). */
export function redactValues(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) {
    if (s.length >= 4 && out.includes(s)) out = out.split(s).join(REDACTED);
  }
  return out;
}

/** Hides every secret value and every key shape (`secrets.ts`) in `text`. */
export function redact(text: string, secrets: readonly string[]): string {
  return hideSecretShapes(redactValues(text, secrets));
}

/**
 * Deeply {@link redact}s the strings of a JSON-like value, object keys
 * included; the value of a secret-named entry of an `env` or `headers` map
 * (an MCP server's) is hidden whole.
 */
export function redactValue<T>(value: T, secrets: readonly string[]): T {
  if (typeof value === "string") return redact(value, secrets) as T;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, secrets)) as T;
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        redact(k, secrets),
        redactValue(
          (k === "env" || k === "headers") && isMap(v) ? hideSecretEntries(v) : v,
          secrets,
        ),
      ]),
    ) as T;
  }
  return value;
}

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
