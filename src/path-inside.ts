/**
 * Whether a path is one of some folders or below one: the one rule for
 * "inside" that the file tools' confinement and the resume scope share.
 * Pure: it compares the paths as given (callers resolve symlinks first).
 *
 * @example
 * ```ts
 * isInside("/p/src/a.ts", ["/p"]);     // true
 * isInside("/prefix-sibling", ["/p"]); // false
 * ```
 *
 * @module
 */
import { isAbsolute, relative, sep } from "node:path";

/** True when `path` is one of `roots` or below one. All absolute. */
export function isInside(path: string, roots: readonly string[]): boolean {
  return roots.some((root) => {
    const rel = relative(root, path);
    return rel === "" || (!isAbsolute(rel) && rel !== ".." && !rel.startsWith(".." + sep));
  });
}
