/**
 * The matching lines of one file's bytes, as `[lineNumber, line]`: lines are
 * split at `\n` (a `\r` before it is dropped), each decoded as UTF-8 and
 * tested with the regular expression on its own, exactly as when the whole
 * text is split into lines first.
 *
 * When every match must contain one of a few literals
 * (./regex-literals.ts), the bytes are searched for those first: a file
 * without one costs one native scan and is never decoded, and only the lines
 * around a hit are decoded and tested; line numbers are counted only up to
 * them. With `ignore_case` this holds for ASCII literals, searched in the
 * bytes read as Latin-1 (a non-ASCII character never matches an ASCII one
 * under the `i` flag without `u`). Otherwise the text is decoded once and
 * its lines tested one by one. Pure.
 *
 * @example
 * ```ts
 * const search = lineSearcher("fo+", false);
 * search(Buffer.from("a\nfoo\r\nb"), 10); // [[2, "foo"]]
 * ```
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { requiredLiterals } from "./regex-literals.ts";

/** Up to `max` matching lines of `buf`. */
export type LineSearch = (buf: Buffer, max: number) => [number, string][];

const NL = 10;
const CR = 13;

/** Every line of a decoded text, tested in turn. */
export function searchText(text: string, re: RegExp, max: number): [number, string][] {
  const out: [number, string][] = [];
  let start = 0;
  for (let n = 1; out.length < max; n++) {
    const nl = text.indexOf("\n", start);
    let end = nl === -1 ? text.length : nl;
    if (nl !== -1 && end > start && text.charCodeAt(end - 1) === CR) end--;
    const line = text.slice(start, end);
    re.lastIndex = 0;
    if (re.test(line)) out.push([n, line]);
    if (nl === -1) break;
    start = nl + 1;
  }
  return out;
}

/**
 * Tests the lines holding the hits `next(from)` reports (byte offsets, -1
 * when there are no more), counting line numbers only as far as needed.
 */
function searchHits(
  buf: Buffer,
  re: RegExp,
  max: number,
  next: (from: number) => number,
): [number, string][] {
  const out: [number, string][] = [];
  let line = 1; // number of the line starting at `counted`
  let counted = 0;
  let from = 0;
  while (out.length < max && from <= buf.length) {
    const hit = next(from);
    if (hit === -1) break;
    const start = hit === 0 ? 0 : buf.lastIndexOf(NL, hit - 1) + 1;
    const nl = buf.indexOf(NL, hit);
    let end = nl === -1 ? buf.length : nl;
    if (nl !== -1 && end > start && buf[end - 1] === CR) end--;
    for (let at = buf.indexOf(NL, counted); at !== -1 && at < start; at = buf.indexOf(NL, at + 1)) {
      line++;
    }
    counted = start;
    const text = buf.toString("utf8", start, end);
    re.lastIndex = 0;
    if (re.test(text)) out.push([line, text]);
    if (nl === -1) break;
    from = nl + 1;
  }
  return out;
}

function escapeRegExp(s: string): string {
  return s.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
}

/** The search for one pattern (throws like `new RegExp` for a bad one). */
export function lineSearcher(pattern: string, ignoreCase: boolean): LineSearch {
  const re = new RegExp(pattern, ignoreCase ? "i" : "");
  const literals = requiredLiterals(pattern);
  // deno-lint-ignore no-control-regex
  const ascii = (s: string) => /^[\x00-\x7f]*$/.test(s);
  if (literals === undefined || (ignoreCase && !literals.every(ascii))) {
    return (buf, max) => searchText(buf.toString("utf8"), re, max);
  }
  if (literals.length === 1 && !ignoreCase) {
    const needle = Buffer.from(literals[0], "utf8");
    return (buf, max) => {
      if (buf.indexOf(needle) === -1) return [];
      return searchHits(buf, re, max, (from) => buf.indexOf(needle, from));
    };
  }
  // Several literals, or any case: one scan of the bytes read as Latin-1.
  const bytes = literals.map((l) => escapeRegExp(Buffer.from(l, "utf8").toString("latin1")));
  const finder = new RegExp(bytes.join("|"), ignoreCase ? "gi" : "g");
  return (buf, max) => {
    const text = buf.toString("latin1");
    finder.lastIndex = 0;
    if (!finder.test(text)) return [];
    return searchHits(buf, re, max, (from) => {
      finder.lastIndex = from;
      const m = finder.exec(text);
      return m === null ? -1 : m.index;
    });
  };
}
