/**
 * Secret values never reach a session file: the values of the environment
 * variables that hold keys (the providers' `apiKeyEnv` names and any variable
 * named like a key, token, secret or password) are replaced by `[redacted]`
 * in every string of a record, as the child does for its events. Pure.
 *
 * @example
 * ```ts
 * scrub({ a: "key sk-123456789" }, ["sk-123456789"]); // { a: "key [redacted]" }
 * ```
 *
 * @module
 */

const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD/i;

/** The secret values (8+ characters) among `env`, `names` included. */
export function secretValues(
  env: Readonly<Record<string, string | undefined>>,
  names: readonly string[] = [],
): string[] {
  const out = new Set<string>();
  for (const [k, v] of Object.entries(env)) {
    if (v && v.length >= 8 && (SECRET_NAME.test(k) || names.includes(k))) out.add(v);
  }
  return [...out].sort((a, b) => b.length - a.length);
}

/** `value` with every secret in its strings replaced. */
export function scrub<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  if (typeof value === "string") {
    let s: string = value;
    for (const secret of secrets) if (s.includes(secret)) s = s.split(secret).join("[redacted]");
    return s as T;
  }
  if (Array.isArray(value)) return value.map((v) => scrub(v, secrets)) as T;
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrub(v, secrets)])) as T;
  }
  return value;
}
