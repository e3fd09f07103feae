/**
 * What kind of JSON-like value this is, asked the same way everywhere.
 *
 * @example
 * ```ts
 * isRecord({ a: 1 }); // true
 * isRecord([1]);      // false
 * ```
 *
 * @module
 */

/** True for a plain object: not null, not an array. */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
