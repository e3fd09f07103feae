/**
 * Whether one absolute path is a folder or lies below it: the one rule of
 * "inside" that the file tools' confinement (`tools/inside.ts`), the resume
 * scope (`runner/task-sessions/resume-scope.ts`), the walk up
 * from the working directory (`walk-up.ts`) and the instruction files share.
 * Pure: it compares the paths as given, so callers resolve symlinks first
 * when the real location is what matters.
 *
 * @example
 * ```ts
 * isInside("/p/src/a.ts", ["/p"]);     // true
 * isInside("/p", ["/p"]);              // true
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
