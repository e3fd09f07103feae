/**
 * What counts as a secret, the one rule every boundary applies (the
 * environment commands get, what is printed and logged, session files,
 * `stream-json`, a hook's stdin, artifacts):
 *
 * - **by name**: an environment variable, config key or header whose name
 *   holds `KEY`, `SECRET`, `TOKEN`, `PASSWORD`, `PASSWD`, `PASSPHRASE`,
 *   `CREDENTIAL`, `COOKIE` or `AUTHORIZATION`, ends in `_PWD`, or ends in
 *   `AUTH` or `PASS` as a word of its own (any case: `GITHUB_TOKEN`, `DB_CREDENTIAL`,
 *   `SMTP_PASS`, `X-Api-Key`, `Proxy-Authorization`);
 * - **by value**: a known key shape (Anthropic and OpenAI `sk-…`, Google
 *   `AIza…`, GitHub `ghp_…`/`github_pat_…`, GitLab `glpat-…`, Slack `xox…-`,
 *   npm `npm_…`, Hugging Face `hf_…`, AWS `AKIA…`/`ASIA…`, JWTs, `Bearer`
 *   and `Basic` credentials), a URL with a password or a key-like query
 *   parameter (`https://user:pass@host`, `?api_key=…`), a PEM private key;
 * - **the run's own keys**: whatever variables the caller names (provider
 *   keys, which travel in the envelope), whatever their names.
 *
 * A secret's value is hidden wherever it appears as set and trimmed, once it
 * is at least {@link MIN_SECRET_LENGTH} characters long (shorter values would
 * hide ordinary words); key shapes are hidden in any text. Pure.
 *
 * @example
 * ```ts
 * isSecretName("DB_CREDENTIAL");                          // true
 * isSecretName("GIT_AUTHOR_NAME");                        // false
 * isSecretValue("postgres://app:pw@db/app");              // true
 * isSecretValue("ghp_" + "a".repeat(36));                  // true
 * secretsOf({ DB_CREDENTIAL: "hunter2-db-cred", HOME: "/home/me" }); // ["hunter2-db-cred"]
 * hideSecretShapes("key AKIAABCDEFGHIJKLMNOP");           // "key [redacted]"
 * hideSecretEntries({ Authorization: "Bearer x", Accept: "*" }); // { Authorization: "[redacted]", Accept: "*" }
 * ```
 *
 * @module
 */

/** What a hidden secret reads as. */
export const REDACTED = "[redacted]";

/** Values shorter than this are not hidden by value (they would hide ordinary words). */
export const MIN_SECRET_LENGTH = 8;

/** Name parts that mark a secret (environment variables, config keys, header names). */
const SECRET_NAME =
  /KEY|SECRET|TOKEN|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|COOKIE|AUTHORIZATION|_PWD$|(?:^|[_.-])(?:AUTH|PASS)$/i;

/**
 * Names that hold a secret's marker but never a secret: git's
 * `GIT_CONFIG_KEY_n` holds the name of a setting (its `GIT_CONFIG_VALUE_n`
 * is judged by value like any other).
 */
const NOT_SECRET_NAME = /^GIT_CONFIG_KEY_\d+$/;

/** Whether a variable, config key or header with this name holds a secret. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name) && !NOT_SECRET_NAME.test(name);
}

/** A value that only refers to variables (`${GITHUB_TOKEN}`): it holds no secret itself. */
const ONLY_REFERENCES = /^(?:\s*\$\{[A-Za-z_][A-Za-z0-9_]*\}\s*)+$/;

/**
 * A map of variables or headers (an MCP server's `env` or `headers`) with
 * the value of every secret-named entry hidden, `${VAR}` references kept.
 */
export function hideSecretEntries(map: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(map).map(([k, v]) => [
      k,
      typeof v === "string" && isSecretName(k) && !ONLY_REFERENCES.test(v) ? REDACTED : v,
    ]),
  );
}

/** `scheme://userinfo@`: the userinfo part (a bare user name included). */
export const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]+@/gi;

/** `scheme://user:password@`: a userinfo with a password. */
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@:"'<>]*:[^\s/?#@"'<>]+@/gi;

/** Query parameters that carry credentials. */
export const URL_SECRET_PARAM =
  /([?&](?:api[_-]?key|apikey|key|token|access[_-]?token|auth|secret|password|sig|signature)=)[^&#\s"'<>]+/gi;

/** A PEM private key, to its end line (or the end of the text). */
const PRIVATE_KEY =
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g;

/** Known key shapes, each hidden whole wherever it appears. */
const KEY_SHAPES: readonly RegExp[] = [
  /\bsk-[A-Za-z0-9_-]{20,}/g, // Anthropic sk-ant-…, OpenAI sk-…, sk-proj-…
  /\bAIza[0-9A-Za-z_-]{35}/g, // Google API keys
  /\bgh[pousr]_[A-Za-z0-9]{30,}/g, // GitHub tokens
  /\bgithub_pat_[A-Za-z0-9_]{22,}/g,
  /\bglpat-[A-Za-z0-9_-]{20,}/g, // GitLab
  /\bxox[abposre]-[A-Za-z0-9-]{10,}/g, // Slack
  /\bnpm_[A-Za-z0-9]{36}\b/g, // npm
  /\bhf_[A-Za-z0-9]{30,}/g, // Hugging Face
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, // AWS access key ids
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g, // JWTs
];

/**
 * The fewest characters a match of {@link KEY_SHAPES}, {@link AUTH_SCHEME} or
 * {@link PRIVATE_KEY} can have: Slack's `xoxb-` and ten (AWS ids take 20,
 * `Basic` and a credential 22, a PEM header 27).
 */
export const SHORTEST_SHAPE = 15;

/** `Bearer <credential>`, `Basic <credential>`: the scheme stays, the credential goes. */
const AUTH_SCHEME = /\b(Bearer|Basic)(\s+)[A-Za-z0-9._~+/-]{16,}=*/gi;

/**
 * Whether a value is a secret whatever its name: a key shape, a URL
 * carrying credentials, a PEM private key.
 */
export function isSecretValue(value: string): boolean {
  return (mayHoldSecretShape(value) && hideSecretShapes(value) !== value) ||
    hasUrlCredentials(value);
}

/** Whether a variable is a secret: by its name or by its value. */
export function isSecretVariable(name: string, value: string): boolean {
  return isSecretName(name) || isSecretValue(value);
}

/**
 * `text` with every key shape, `Bearer`/`Basic` credential, URL password,
 * key-like URL parameter and PEM private key replaced by {@link REDACTED}.
 * A URL's bare user name (`ssh://git@host`) stays.
 */
export function hideSecretShapes(text: string): string {
  let out = text;
  // Shorter text holds no key shape, credential scheme or private key (most
  // of what events carry: their keys, ids, short values); only URLs remain.
  if (text.length >= SHORTEST_SHAPE) {
    for (const re of KEY_SHAPES) out = out.replace(re, REDACTED);
    out = out.replace(AUTH_SCHEME, `$1$2${REDACTED}`);
    if (out.includes("-----BEGIN")) out = out.replace(PRIVATE_KEY, REDACTED);
  }
  if (out.includes("://")) out = out.replace(URL_PASSWORD, `$1${REDACTED}@`);
  if (out.includes("=")) out = out.replace(URL_SECRET_PARAM, `$1${REDACTED}`);
  return out;
}

/** The key shapes as one pattern, for a look that says yes or no. */
const ANY_KEY_SHAPE = new RegExp(KEY_SHAPES.map((re) => re.source).join("|"));
// Copies without the global flag: a global pattern's `test` moves its `lastIndex`.
const AUTH_SCHEME_IN = new RegExp(AUTH_SCHEME.source, "i");
const PRIVATE_KEY_IN = new RegExp(PRIVATE_KEY.source);
const URL_PASSWORD_IN = new RegExp(URL_PASSWORD.source, "i");
const URL_SECRET_PARAM_IN = new RegExp(URL_SECRET_PARAM.source, "i");

/**
 * False only when {@link hideSecretShapes} would leave `text` as it is: one
 * look for each kind of shape, no text built. Most text holds none, and a
 * caller that gets true redacts (or compares) to be exact.
 */
export function mayHoldSecretShape(text: string): boolean {
  if (text.length >= SHORTEST_SHAPE) {
    if (ANY_KEY_SHAPE.test(text) || AUTH_SCHEME_IN.test(text)) return true;
    if (text.includes("-----BEGIN") && PRIVATE_KEY_IN.test(text)) return true;
  }
  return (text.includes("://") && URL_PASSWORD_IN.test(text)) ||
    (text.includes("=") && URL_SECRET_PARAM_IN.test(text));
}

/**
 * True when `text` holds a URL carrying credentials: a userinfo with a
 * password (`scheme://user:pass@`) or a key-like query parameter. A bare
 * user name (`ssh://git@host`) is none.
 */
export function hasUrlCredentials(text: string): boolean {
  if (!text.includes("://")) return false;
  return URL_PASSWORD_IN.test(text) || URL_SECRET_PARAM_IN.test(text);
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

/**
 * The strings to hide for a set of secret values: each as given and trimmed
 * (keys are sent trimmed), long enough to be told from ordinary text,
 * longest first (a secret that contains another is hidden whole).
 */
export function secretForms(values: readonly (string | undefined)[]): string[] {
  const out = new Set<string>();
  for (const v of values) {
    if (typeof v !== "string") continue;
    for (const form of [v, v.trim()]) if (form.length >= MIN_SECRET_LENGTH) out.add(form);
  }
  return [...out].sort((a, b) => b.length - a.length);
}

/**
 * Every value to hide for a run, longest first: the values of `env`'s
 * secret variables (by name or value) and of the variables `keys` names
 * (the run's provider keys, whatever their names), in their forms, with the
 * credentials inside them and inside `urls` (configured base URLs).
 */
export function secretsOf(
  env: Readonly<Record<string, string | undefined>>,
  keys: readonly string[] = [],
  urls: readonly string[] = [],
): string[] {
  const values: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (keys.includes(name) || isSecretVariable(name, value)) values.push(value);
  }
  return [...new Set([...secretForms(values), ...[...values, ...urls].flatMap(urlSecrets)])]
    .sort((a, b) => b.length - a.length);
}
