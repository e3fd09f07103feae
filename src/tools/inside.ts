/**
 * Whether a path lies inside the folders the file tools may use, and the
 * message when it does not. Pure: the caller resolves symlinks first (see
 * `confine.ts`), so this compares real paths only.
 *
 * @example
 * ```ts
 * isInside("/p/src/a.ts", ["/p"]);   // true
 * isInside("/p", ["/p"]);            // true
 * isInside("/prefix-sibling", ["/p"]); // false
 * isInside("/etc/passwd", ["/p"]);   // false
 * ```
 *
 * @module
 */
/** The containment rule itself lives in `path-inside.ts`, shared with the walk up. */
export { isInside } from "../fs/path-inside.ts";

/** The tool error for a path that resolves outside every root. */
export function outsideMessage(
  written: string,
  real: string,
  roots: readonly string[],
): string {
  const via = written === real ? "" : ` (it resolves to ${real})`;
  const where = roots.length === 1
    ? `the project folder ${roots[0]}`
    : `the project folder ${roots[0]} and task.additionalDirectories (${
      roots.slice(1).join(", ")
    })`;
  return `${written} is outside ${where}${via}: the file tools work only there`;
}
