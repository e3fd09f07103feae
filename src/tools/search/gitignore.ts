/**
 * Whether a path is ignored by `.gitignore` rules.
 *
 * Follows git's rules closely enough for searching: blank lines and `#`
 * comments are skipped, `!` re-includes, a trailing `/` matches directories
 * only, a pattern with a `/` elsewhere is anchored to the directory holding
 * the `.gitignore`, otherwise it matches a name at any depth below it; later
 * rules win; a line with an invalid character class (such as `[z-a]`) is
 * skipped. Matching takes time linear in the path's length (see
 * ./glob-match.ts). Callers prune ignored directories, so a file inside an
 * ignored directory is never asked about. Pure.
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
import { compileNodes, neverMatchesSlash } from "../../fs/glob-match.ts";
import { type GlobNode, parseGlob } from "../../fs/glob-syntax.ts";

export interface IgnoreRule {
  /** Directory (relative to the search root, `""` for the root) holding the rule. */
  base: string;
  negate: boolean;
  dirOnly: boolean;
  /**
   * True when the rule's pattern matches `sub` (the path below `base`);
   * `oddChars` says `sub` holds a line terminator.
   */
  match: (sub: string, oddChars: boolean) => boolean;
}

const LINE_TERMINATOR = /[\n\r\u2028\u2029]/;

/**
 * The matcher of one pattern. Anchored: the whole path. Otherwise any number
 * of leading directories, then the pattern: for a pattern that never matches
 * `/` that is its base name, unless a line terminator sits in the
 * directories (the leading `.*` of the rule's regular expression stops there,
 * so the general automaton decides).
 */
function ruleMatcher(body: GlobNode[], anchored: boolean): IgnoreRule["match"] {
  const whole = compileNodes(body);
  if (anchored) return (sub) => whole(sub);
  const prefixed = compileNodes([
    { t: "alt", alts: [[], [{ t: "all" }, { t: "lit", c: 47 }]] },
    ...body,
  ]);
  if (!neverMatchesSlash(body)) return (sub) => prefixed(sub);
  return (sub, odd) => odd ? prefixed(sub) : whole(sub.slice(sub.lastIndexOf("/") + 1));
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
    let body: GlobNode[];
    try {
      body = parseGlob(line);
    } catch {
      continue; // e.g. `[z-a]`: skip the line (for git, a reversed range matches nothing)
    }
    rules.push({ base, negate, dirOnly, match: ruleMatcher(body, anchored) });
  }
  return rules;
}

/**
 * True when the last rule matching `relPath` (relative to the search root)
 * ignores it.
 */
export function isIgnored(relPath: string, isDir: boolean, rules: readonly IgnoreRule[]): boolean {
  const odd = LINE_TERMINATOR.test(relPath);
  // The last matching rule decides, so look from the end.
  for (let k = rules.length - 1; k >= 0; k--) {
    const r = rules[k];
    if (r.dirOnly && !isDir) continue;
    let sub: string;
    if (r.base === "") sub = relPath;
    else if (relPath.startsWith(r.base + "/")) sub = relPath.slice(r.base.length + 1);
    else continue;
    if (r.match(sub, odd)) return !r.negate;
  }
  return false;
}
