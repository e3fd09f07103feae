/**
 * What a glob pattern says, as a list of nodes: the one parser behind
 * `find`, `grep`'s file filter and `.gitignore` rules.
 *
 * Syntax: `*` (any run of characters except `/`), `?` (one such character),
 * `**` between slashes (any number of whole path segments, including none;
 * at the very end, everything below), `[abc]` / `[!a-z]` (character classes;
 * a `/` inside one is dropped), `{ts,tsx}` (alternatives, not nested) and
 * `\x` (a literal `x`). A reversed range such as `[z-a]` is an error.
 * Characters are UTF-16 code units, as in a JavaScript regular expression
 * without the `u` flag. Pure.
 *
 * @example
 * ```ts
 * parseGlob("*.ts"); // [{ t: "star" }, { t: "lit", c: 46 }, { t: "lit", c: 116 }, { t: "lit", c: 115 }]
 * ```
 *
 * @module
 */

/** One character test. */
export type CharNode =
  | { t: "lit"; c: number }
  /** any code unit but `/` */
  | { t: "any" }
  /** a character class */
  | { t: "class"; test: (c: number) => boolean; slash: boolean };

export type GlobNode =
  | CharNode
  /** any run of code units without `/` */
  | { t: "star" }
  /** zero or more whole segments, each ending in `/` */
  | { t: "dirs" }
  /** any run of code units except line terminators (a trailing `**`) */
  | { t: "all" }
  /** alternatives, each a list of nodes without `alt` */
  | { t: "alt"; alts: GlobNode[][] };

const SLASH = 47;

/** A class test for the body between `[` and `]`; throws on an invalid class. */
function classNode(body: string): CharNode {
  let src = body;
  if (src.startsWith("!") || src.startsWith("^")) src = "^" + src.slice(1);
  const re = new RegExp("^[" + src.replace(/\\/g, "\\\\").replace(/\//g, "") + "]$");
  const ascii = new Uint8Array(128);
  for (let c = 0; c < 128; c++) ascii[c] = re.test(String.fromCharCode(c)) ? 1 : 0;
  const test = (c: number) => c < 128 ? ascii[c] === 1 : re.test(String.fromCharCode(c));
  return { t: "class", test, slash: ascii[SLASH] === 1 };
}

/** Parses a glob; throws a SyntaxError for an invalid character class. */
export function parseGlob(glob: string): GlobNode[] {
  const top: GlobNode[] = [];
  let group: GlobNode[][] | undefined;
  let out = top;
  const lit = (s: string) => out.push({ t: "lit", c: s.charCodeAt(0) });
  let i = 0;
  while (i < glob.length) {
    const c = glob[i];
    if (c === "\\" && i + 1 < glob.length) {
      lit(glob[i + 1]);
      i += 2;
      continue;
    }
    if (c === "*") {
      if (glob[i + 1] === "*") {
        const atStart = i === 0 || glob[i - 1] === "/";
        const atEnd = i + 2 === glob.length || glob[i + 2] === "/";
        if (atStart && atEnd) {
          if (i + 2 === glob.length) {
            out.push({ t: "all" });
            i += 2;
          } else {
            out.push({ t: "dirs" });
            i += 3;
          }
          continue;
        }
        out.push({ t: "star" });
        i += 2;
        continue;
      }
      out.push({ t: "star" });
      i++;
      continue;
    }
    if (c === "?") {
      out.push({ t: "any" });
      i++;
      continue;
    }
    if (c === "[") {
      const close = glob.indexOf("]", i + 2);
      if (close === -1) {
        lit("[");
        i++;
        continue;
      }
      out.push(classNode(glob.slice(i + 1, close)));
      i = close + 1;
      continue;
    }
    if (c === "{" && group === undefined && glob.indexOf("}", i) !== -1) {
      group = [[]];
      out = group[0];
      i++;
      continue;
    }
    if (c === "}" && group !== undefined) {
      top.push({ t: "alt", alts: group });
      group = undefined;
      out = top;
      i++;
      continue;
    }
    if (c === "," && group !== undefined) {
      out = [];
      group.push(out);
      i++;
      continue;
    }
    lit(c);
    i++;
  }
  if (group !== undefined) top.push({ t: "alt", alts: group });
  return top;
}
