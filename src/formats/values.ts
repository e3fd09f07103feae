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

/**
 * A value as an error names it without quoting any of its text: a string is
 * only its length. For what a file holds in place of what xcsh expected (a
 * whole file that is not a mapping), which may be a secret linked there.
 *
 * @example
 * ```ts
 * describeKind("OPENAI_API_KEY=sk-…"); // "a string of 19 characters"
 * describeKind([1]);                   // "a list"
 * ```
 */
export function describeKind(value: unknown): string {
  if (typeof value === "string") {
    return `a string of ${value.length} character${value.length === 1 ? "" : "s"}`;
  }
  if (typeof value === "number") return "a number";
  if (typeof value === "boolean") return "a boolean";
  return describeValue(value);
}
