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

/**
 * A value as an error message names it: `null`, `a list`, `a mapping`, a
 * string quoted (cut at 40 characters), anything else as written.
 *
 * @example
 * ```ts
 * describeValue([1]);     // "a list"
 * describeValue("x");     // "\"x\""
 * ```
 */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  if (typeof value === "string") {
    return JSON.stringify(value.length > 40 ? value.slice(0, 40) + "…" : value);
  }
  return String(value);
}
