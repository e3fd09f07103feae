/**
 * Reference copy: the implementation before the search speed-up, kept
 * unchanged so equivalence tests can compare its results with the current
 * tools on generated trees. Not used by xcsh itself.
 *
 * What a glob pattern matches, as a regular expression over `/`-separated
 * relative paths. Shared by `find`, `grep`'s file filter and `.gitignore`.
 *
 * Syntax: `*` (any run of characters except `/`), `?` (one such character),
 * `**` (any number of whole path segments, including none), `[abc]` / `[!a-z]`
 * (character classes), `{ts,tsx}` (alternatives, not nested) and `\x`
 * (a literal `x`). Pure.
 *
 * @example
 * ```ts
 * globToRegExp("src/**\/*.ts").test("src/a/b.ts"); // true
 * globToRegExp("*.{md,txt}").test("README.md");     // true
 * matchesGlob("a/b/c.ts", "*.ts");                  // true: no slash, so the base name is matched
 * ```
 *
 * @module
 */

function escapeRegExp(c: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(c) ? "\\" + c : c;
}

/** Translates a glob to the source of an (unanchored) regular expression. */
export function globToRegExpSource(glob: string): string {
  let out = "";
  let i = 0;
  let inBraces = false;
  while (i < glob.length) {
    const c = glob[i];
    if (c === "\\" && i + 1 < glob.length) {
      out += escapeRegExp(glob[i + 1]);
      i += 2;
      continue;
    }
    if (c === "*") {
      if (glob[i + 1] === "*") {
        const atStart = i === 0 || glob[i - 1] === "/";
        const atEnd = i + 2 === glob.length || glob[i + 2] === "/";
        if (atStart && atEnd) {
          if (i + 2 === glob.length) {
            out += ".*"; // trailing `**`: everything below
            i += 2;
          } else {
            out += "(?:[^/]*/)*"; // `**/`: zero or more whole segments
            i += 3;
          }
          continue;
        }
        out += "[^/]*";
        i += 2;
        continue;
      }
      out += "[^/]*";
      i++;
      continue;
    }
    if (c === "?") {
      out += "[^/]";
      i++;
      continue;
    }
    if (c === "[") {
      const close = glob.indexOf("]", i + 2);
      if (close === -1) {
        out += "\\[";
        i++;
        continue;
      }
      let body = glob.slice(i + 1, close);
      if (body.startsWith("!") || body.startsWith("^")) body = "^" + body.slice(1);
      out += "[" + body.replace(/\\/g, "\\\\").replace(/\//g, "") + "]";
      i = close + 1;
      continue;
    }
    if (c === "{" && !inBraces && glob.indexOf("}", i) !== -1) {
      inBraces = true;
      out += "(?:";
      i++;
      continue;
    }
    if (c === "}" && inBraces) {
      inBraces = false;
      out += ")";
      i++;
      continue;
    }
    if (c === "," && inBraces) {
      out += "|";
      i++;
      continue;
    }
    out += escapeRegExp(c);
    i++;
  }
  if (inBraces) out += ")";
  return out;
}

/** A regular expression matching whole relative paths. */
export function globToRegExp(glob: string): RegExp {
  return new RegExp(`^${globToRegExpSource(glob)}$`);
}

/**
 * True when `relPath` matches `glob`. A glob without `/` is matched against
 * the base name, so `*.ts` finds TypeScript files at any depth.
 */
export function matchesGlob(relPath: string, glob: string): boolean {
  return compileGlob(glob)(relPath);
}

/** A reusable matcher for one glob (same rules as {@link matchesGlob}). */
export function compileGlob(glob: string): (relPath: string) => boolean {
  const g = glob.replace(/^\.\//, "");
  const re = globToRegExp(g);
  if (g.includes("/")) return (p) => re.test(p);
  return (p) => re.test(p.slice(p.lastIndexOf("/") + 1));
}
