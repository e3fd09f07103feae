/**
 * Ids of sessions and background runs: `YYYYMMDD-HHMMSS-xxxxxx` (UTC time and
 * six random hex digits), so that they sort by time, are safe as file and
 * branch names, and are short enough to type. Anything a user passes as an id
 * must match {@link isValidId} before it becomes part of a path.
 *
 * @example
 * ```ts
 * newId(new Date("2026-01-02T03:04:05Z")); // "20260102-030405-9f3a1c"
 * ```
 *
 * @module
 */

/** A fresh id for `now`. */
export function newId(now = new Date()): string {
  const t = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  // Web Crypto is global in every runtime xcsh runs on (node:crypto costs a load).
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(3));
  return `${t}-${[...bytes].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** True for text that may be used as an id in a file name. Pure. */
export function isValidId(id: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$/.test(id) && !id.includes("..");
}
