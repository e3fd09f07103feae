/**
 * What of a text must never be shown: the values of provider keys (as set,
 * and as sent, trimmed) wherever they appear, object keys included, and the
 * credentials inside configured base URLs (`user:pass@host`, `?api_key=…`):
 * a URL is shown with them hidden, and their values join the secrets. Pure.
 *
 * @example
 * ```ts
 * redact("key sk-abcdefgh123!", ["sk-abcdefgh123"]); // "key [redacted]!"
 * hideUrlCredentials("http://me:hunter22@h/v1?api_key=zz"); // "http://[redacted]@h/v1?api_key=[redacted]"
 * hasUrlCredentials("postgres://app:pw@db/app");             // true
 * urlSecrets("http://me:hunter22@h/v1?api_key=zz");         // ["me:hunter22", "hunter22", "zz"]
 * ```
 *
 * @module
 */

/** `scheme://userinfo@`: the userinfo part. */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]+@/gi;

/** Query parameters that carry credentials. */
const URL_SECRET_PARAM =
  /([?&](?:api[_-]?key|apikey|key|token|access[_-]?token|auth|secret|password|sig|signature)=)[^&#\s"'<>]+/gi;

/** Values shorter than this are not treated as secrets (they would hide ordinary words). */
export const MIN_SECRET_LENGTH = 8;

/**
 * The strings to hide for a set of key values: each as given and trimmed
 * (keys are sent trimmed), long enough to be told from ordinary text.
 */
export function secretForms(values: readonly (string | undefined)[]): string[] {
  const out = new Set<string>();
  for (const v of values) {
    if (typeof v !== "string") continue;
    for (const form of [v, v.trim()]) if (form.length >= MIN_SECRET_LENGTH) out.add(form);
  }
  // Longest first: a secret that contains another is hidden whole.
  return [...out].sort((a, b) => b.length - a.length);
}

/** Hides credentials inside URLs: userinfo and key-like query parameters. */
export function hideUrlCredentials(text: string): string {
  if (!text.includes("://") && !text.includes("=")) return text;
  return text.replace(URL_USERINFO, "$1[redacted]@").replace(URL_SECRET_PARAM, "$1[redacted]");
}

/**
 * True when `text` holds a URL carrying credentials: a userinfo with a
 * password (`scheme://user:pass@`) or a key-like query parameter. A bare
 * user name (`ssh://git@host`) is none.
 */
export function hasUrlCredentials(text: string): boolean {
  if (!text.includes("://")) return false;
  return /\b[a-z][a-z0-9+.-]*:\/\/[^\s/?#@:"'<>]*:[^\s/?#@"'<>]+@/i.test(text) ||
    new RegExp(URL_SECRET_PARAM.source, "i").test(text);
}

/**
 * The credentials inside a URL: its userinfo (whole, and the password) and
 * the values of key-like query parameters. Nothing for a URL without them.
 */
export function urlSecrets(url: string | undefined): string[] {
  if (!url) return [];
  const out: string[] = [];
  const user = /^[a-z][a-z0-9+.-]*:\/\/([^\s/?#@]+)@/i.exec(url)?.[1];
  if (user) {
    out.push(user);
    for (const part of [user, safeDecode(user)]) {
      const colon = part.indexOf(":");
      if (colon >= 0 && colon < part.length - 1) out.push(part.slice(colon + 1));
    }
  }
  for (const m of url.matchAll(new RegExp(URL_SECRET_PARAM.source, "gi"))) {
    const value = m[0].slice(m[1].length);
    out.push(value, safeDecode(value));
  }
  return [...new Set(out)].filter((s) => s.length >= 4);
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Replaces every occurrence of each secret with `[redacted]`. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) {
    if (s.length >= 4 && out.includes(s)) out = out.split(s).join("[redacted]");
  }
  return out;
}

/** Deeply redacts the strings of a JSON-like value, object keys included. */
export function redactValue<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  if (typeof value === "string") return redact(value, secrets) as T;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, secrets)) as T;
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [redact(k, secrets), redactValue(v, secrets)]),
    ) as T;
  }
  return value;
}
