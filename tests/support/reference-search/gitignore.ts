/**
 * Reference copy: the implementation before the search speed-up, kept
 * unchanged so equivalence tests can compare its results with the current
 * tools on generated trees. Not used by xcsh itself.
 *
 * Whether a path is ignored by `.gitignore` rules.
 *
 * Follows git's rules closely enough for searching: blank lines and `#`
 * comments are skipped, `!` re-includes, a trailing `/` matches directories
 * only, a pattern with a `/` elsewhere is anchored to the directory holding
 * the `.gitignore`, otherwise it matches a name at any depth below it; later
 * rules win; a line whose pattern does not translate to a valid regular
 * expression (such as `[z-a]`) is skipped. Callers prune ignored
 * directories, so a file inside an ignored directory is never asked about.
 * Pure.
 *
 * @example
 * ```ts
 * const rules = parseGitignore("node_modules/\n*.log\n!keep.log\n", "");
 * isIgnored("node_modules", true, rules); // true
 * isIgnored("src/x.log", false, rules);   // true
 * isIgnored("keep.log", false, rules);    // false
 * ```
 *
 * @module
 */
import { globToRegExpSource } from "./glob.ts";

export interface IgnoreRule {
  /** Directory (relative to the search root, `""` for the root) holding the rule. */
  base: string;
  negate: boolean;
  dirOnly: boolean;
  re: RegExp;
}

/** Parses one `.gitignore` found in `base` (a root-relative directory). */
export function parseGitignore(text: string, base: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (let line of text.split(/\r?\n/)) {
    if (!line.endsWith("\\ ")) line = line.replace(/\s+$/, "");
    if (line === "" || line.startsWith("#")) continue;
    let negate = false;
    if (line.startsWith("!")) {
      negate = true;
      line = line.slice(1);
    } else if (line.startsWith("\\!") || line.startsWith("\\#")) {
      line = line.slice(1);
    }
    let dirOnly = false;
    if (line.endsWith("/")) {
      dirOnly = true;
      line = line.replace(/\/+$/, "");
    }
    if (line === "") continue;
    const anchored = line.includes("/");
    if (line.startsWith("/")) line = line.slice(1);
    const body = globToRegExpSource(line);
    let re: RegExp;
    try {
      re = new RegExp(anchored ? `^${body}$` : `^(?:.*/)?${body}$`);
    } catch {
      continue; // e.g. `[z-a]`: skip the line (for git, a reversed range matches nothing)
    }
    rules.push({ base, negate, dirOnly, re });
  }
  return rules;
}

/**
 * True when the last rule matching `relPath` (relative to the search root)
 * ignores it.
 */
export function isIgnored(relPath: string, isDir: boolean, rules: readonly IgnoreRule[]): boolean {
  let ignored = false;
  for (const r of rules) {
    if (r.dirOnly && !isDir) continue;
    let sub: string;
    if (r.base === "") sub = relPath;
    else if (relPath.startsWith(r.base + "/")) sub = relPath.slice(r.base.length + 1);
    else continue;
    if (r.re.test(sub)) ignored = !r.negate;
  }
  return ignored;
}
