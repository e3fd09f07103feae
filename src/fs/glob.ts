/**
 * What a glob pattern matches among `/`-separated relative paths: the rule
 * shared by `find` and `grep`'s file filter (`.gitignore` uses the same
 * syntax). The syntax is parsed in ./glob-syntax.ts and matched in linear
 * time by ./glob-match.ts. A glob without `/` is matched against the base
 * name, so `*.ts` finds TypeScript files at any depth; one with `/` against
 * the whole relative path. A leading `./` is dropped. Pure.
 *
 * @example
 * ```ts
 * matchesGlob("src/a/b.ts", "src/**\/*.ts"); // true
 * matchesGlob("README.md", "*.{md,txt}");    // true
 * matchesGlob("a/b/c.ts", "*.ts");           // true: no slash, so the base name is matched
 * ```
 *
 * @module
 */
import { compileNodes } from "./glob-match.ts";
import { parseGlob } from "./glob-syntax.ts";

/**
 * True when `relPath` matches `glob`. Throws a SyntaxError for an invalid
 * character class such as `[z-a]`.
 */
export function matchesGlob(relPath: string, glob: string): boolean {
  return compileGlob(glob)(relPath);
}

/** A reusable matcher for one glob (same rules as {@link matchesGlob}). */
export function compileGlob(glob: string): (relPath: string) => boolean {
  const g = glob.replace(/^\.\//, "");
  const whole = compileNodes(parseGlob(g));
  if (g.includes("/")) return whole;
  return (p) => whole(p.slice(p.lastIndexOf("/") + 1));
}
