/**
 * What a JSON Pointer (RFC 6901) names in a value: the value, or nothing.
 * Pure.
 *
 * @example
 * ```ts
 * resolvePointer({ a: [{ b: 1 }] }, "/a/0/b"); // { found: true, value: 1 }
 * resolvePointer({ a: 1 }, "/x");              // { found: false }
 * ```
 *
 * @module
 */

export type Pointed = { found: true; value: unknown } | { found: false };

/** The value `pointer` names in `root`. */
export function resolvePointer(root: unknown, pointer: string): Pointed {
  if (pointer === "") return { found: true, value: root };
  let at: unknown = root;
  for (const raw of pointer.slice(1).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(at)) {
      if (!/^(0|[1-9][0-9]*)$/.test(key) || Number(key) >= at.length) return { found: false };
      at = at[Number(key)];
    } else if (typeof at === "object" && at !== null && Object.hasOwn(at, key)) {
      at = (at as Record<string, unknown>)[key];
    } else return { found: false };
  }
  return { found: true, value: at };
}
