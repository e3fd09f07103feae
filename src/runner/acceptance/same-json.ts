/**
 * Whether two JSON values are equal: same type, same members, object keys
 * in any order. Pure.
 *
 * @example
 * ```ts
 * sameJson({ a: [1, 2] }, { a: [1, 2] }); // true
 * ```
 *
 * @module
 */

/** True when `a` and `b` are the same JSON value. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((v, i) => sameJson(v, b[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  const rb = b as Record<string, unknown>;
  return ka.every((k) =>
    Object.hasOwn(rb, k) && sameJson((a as Record<string, unknown>)[k], rb[k])
  );
}
