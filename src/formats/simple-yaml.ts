/**
 * A fast reader for the simple YAML almost every agent file and config uses.
 *
 * Parsing with `yaml` costs about 100 µs per agent file, several times the
 * cost of reading it (see bench/), and its cold code costs milliseconds per
 * process. Most frontmatter and config files use a small part of YAML, so that
 * part is read here directly (about 5 µs for flat frontmatter) and everything
 * else goes to `yaml`. The subset is chosen so that the result is exactly what
 * `yaml` returns (YAML 1.2 core schema); tests/fuzz/simple-yaml.test.ts proves
 * it against `yaml` on generated blocks.
 *
 * The subset: `key: value` lines with keys `[A-Za-z_][A-Za-z0-9_-]*`, and
 * - nested block mappings: a key with nothing after its colon, then its keys
 *   on the next lines, indented more and all at one column; 16 levels at most;
 * - values: plain or quoted scalars; one-line flow lists `[a, "b"]` and flow
 *   mappings `{ k: v, k2: [w] }` holding scalars and each other (16 levels);
 *   block lists of those (`- v` lines at the key's column or deeper); plain
 *   folded/literal block scalars (`>`, `|`, `>-`, `|-`);
 * - comment lines anywhere but inside a block scalar, where a `#` line is
 *   text, and trailing ` # comments` after a value (`a#b` is text);
 * - blank lines, but not inside or just before a block list or block scalar.
 * Anything else — anchors, aliases, tags, multi-line plain or quoted scalars,
 * multi-line flow collections, quoted or odd keys, `{a:1}` or `{a}` in flow
 * mappings, trailing commas and empty entries, escapes other than \\ \" \/ \n
 * \t \r, block scalars with indicators or uneven indentation, lines of only
 * spaces, tabs and control characters, odd indentation, duplicate keys,
 * numbers other than plain decimals — returns `undefined`, never a guess.
 *
 * @example
 * ```ts
 * parseSimpleYaml("name: x\ntools: [read, grep]");
 * // { ok: true, data: { name: "x", tools: ["read", "grep"] } }
 * parseSimpleYaml("a: &x 1"); // undefined: anchors go to `yaml`
 * ```
 *
 * @module
 */

/** Keys the core schema reads as null or booleans, not strings. */
const NON_STRING_KEY = /^(?:[Nn]ull|NULL|[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
/** Characters YAML refuses or treats as breaks, tabs, and lone surrogates. */
const UNSAFE_CHAR =
  // deno-lint-ignore no-control-regex
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** Characters that may not start a plain scalar (YAML indicators). */
const INDICATORS = "-?:,[]{}#&*!|>'\"%@`";
// The core schema's scalar tests, in its order after null and bool.
const CORE_NULL = /^(?:~|[Nn]ull|NULL)$/;
const CORE_TRUE = /^(?:[Tt]rue|TRUE)$/;
const CORE_FALSE = /^(?:[Ff]alse|FALSE)$/;
const CORE_NUMBER =
  /^(?:0o[0-7]+|[-+]?[0-9]+|0x[0-9a-fA-F]+|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+|[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*))$/;
/** The numbers read here; other core-schema numbers go to `yaml`. */
const SIMPLE_INT = /^(?:0|-?[1-9][0-9]{0,14})$/;
const SIMPLE_FLOAT = /^-?(?:0|[1-9][0-9]{0,14})\.[0-9]{1,15}$/;
const ESCAPES: Record<string, string> = {
  "\\": "\\",
  '"': '"',
  "/": "/",
  n: "\n",
  t: "\t",
  r: "\r",
};
/**
 * Block mappings, and flow collections, nested deeper than this go to `yaml`:
 * real files stay far below it, and it bounds the recursion here.
 */
const MAX_SIMPLE_DEPTH = 16;

/** Not in the simple subset. */
const NO = Symbol("not simple");
type Maybe<T> = T | typeof NO;

/**
 * A plain (unquoted) scalar, already trimmed of spaces and cut before any
 * ` #` comment (in a flow collection, checked for flow indicators), resolved
 * by the core schema.
 */
function plainScalar(s: string): Maybe<unknown> {
  if (s === "") return NO;
  // Only short words starting with n, t, f or ~ can be null or booleans: skip
  // the tests for the rest (each regex test costs more than this scalar).
  const k = s.charCodeAt(0) | 32;
  if (s.length <= 5 && (k === 110 || k === 116 || k === 102 || k === 126)) {
    if (CORE_NULL.test(s)) return null;
    if (CORE_TRUE.test(s)) return true;
    if (CORE_FALSE.test(s)) return false;
  }
  // Every core-schema number starts with a digit, a sign or a dot.
  const c = s.charCodeAt(0);
  if (((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46) && CORE_NUMBER.test(s)) {
    if (SIMPLE_INT.test(s)) return parseInt(s, 10);
    if (SIMPLE_FLOAT.test(s)) return parseFloat(s);
    return NO;
  }
  if (INDICATORS.includes(s[0])) return NO;
  if (s.includes(": ") || s.endsWith(":")) return NO;
  return s;
}

/** A quoted scalar starting at `s[i]`: its value and the index after the closing quote. */
function quotedScalar(s: string, i: number): Maybe<[string, number]> {
  const q = s[i];
  let out = "";
  let from = i + 1;
  for (let j = from; j < s.length; j++) {
    const c = s[j];
    if (c === q) {
      if (q === "'" && s[j + 1] === "'") {
        out += s.slice(from, j + 1);
        from = ++j + 1;
        continue;
      }
      return [out + s.slice(from, j), j + 1];
    }
    if (q === '"' && c === "\\") {
      const e = ESCAPES[s[j + 1]];
      if (e === undefined) return NO;
      out += s.slice(from, j) + e;
      from = ++j + 1;
    }
  }
  return NO; // not closed on this line
}

/** The index of the first character of `s` at or after `i` that is not a space. */
function skipSpaces(s: string, i: number): number {
  while (s.charCodeAt(i) === 32) i++;
  return i;
}

/**
 * Whether `s` holds nothing from `i` on but spaces and perhaps a comment. A
 * comment needs a space before it: `x#y` is text, and `"x"#y` an error.
 */
function restIsBlank(s: string, i: number): boolean {
  const j = skipSpaces(s, i);
  return j === s.length || (j > i && s.charCodeAt(j) === 35);
}

/**
 * Sets `key` on `data` as `yaml` does; false for a duplicate key (an error in
 * `yaml`: left to it). A key the object has through its prototype
 * (`constructor`, `__proto__`, …) becomes an ordinary own property.
 */
function put(data: Record<string, unknown>, key: string, value: unknown): boolean {
  if (!(key in data)) data[key] = value;
  else if (Object.hasOwn(data, key)) return false;
  else {
    Object.defineProperty(data, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
  return true;
}

/**
 * A one-line flow list `[a, "b", [c]]` or flow mapping `{ k: v, k2: [w] }`
 * starting at `s[i]`, `depth` levels deep: its value and the index after it.
 */
function flowCollection(s: string, i: number, depth: number): Maybe<[unknown, number]> {
  if (depth > MAX_SIMPLE_DEPTH) return NO;
  const close = s.charCodeAt(i) === 91 ? 93 : 125;
  const list: unknown[] | undefined = close === 93 ? [] : undefined;
  const map: Record<string, unknown> | undefined = list ? undefined : {};
  const result = list ?? map;
  i = skipSpaces(s, i + 1);
  if (s.charCodeAt(i) === close) return [result, i + 1];
  for (;;) {
    let key = "";
    if (map) {
      // A simple key, then `: `: `{a:1}` and `{a}` mean other things in YAML.
      const colon = keyEnd(s, i);
      if (colon < 0 || s.charCodeAt(colon + 1) !== 32) return NO;
      key = s.slice(i, colon);
      if (key.length <= 5 && NON_STRING_KEY.test(key)) return NO;
      i = skipSpaces(s, colon + 2);
    }
    // The item, inline: this loop runs for every entry of every flow list.
    let value: unknown;
    const c0 = s.charCodeAt(i);
    if (c0 === 34 || c0 === 39 || c0 === 91 || c0 === 123) {
      const r = c0 === 34 || c0 === 39 ? quotedScalar(s, i) : flowCollection(s, i, depth + 1);
      if (r === NO) return NO;
      [value, i] = r;
    } else {
      // A plain scalar runs to the next `,`, `]` or `}`; `[`, `{`, `:` and `#`
      // in it mean other things or need care in a flow: leave them to yaml.
      let j = i;
      for (; j < s.length; j++) {
        const d = s.charCodeAt(j);
        if (d === 44 || d === 93 || d === 125) break;
        if (d === 91 || d === 123 || d === 58 || d === 35) return NO;
      }
      let end = j;
      while (end > i && s.charCodeAt(end - 1) === 32) end--;
      value = plainScalar(s.slice(i, end));
      if (value === NO) return NO;
      i = j;
    }
    if (list) list.push(value);
    else if (map && !put(map, key, value)) return NO;
    i = skipSpaces(s, i);
    const c = s.charCodeAt(i);
    if (c === close) return [result, i + 1];
    if (c !== 44) return NO;
    i = skipSpaces(s, i + 1);
    const next = s.charCodeAt(i);
    // A trailing comma or an empty entry: leave it to yaml.
    if (next === 44 || next === 93 || next === 125) return NO;
  }
}

/**
 * The value that starts at `line[start]` and ends the line (but for spaces
 * and a comment): a quoted or plain scalar or a one-line flow collection.
 */
function lineValue(line: string, start: number): Maybe<unknown> {
  const c = line.charCodeAt(start);
  if (c === 34 || c === 39 || c === 91 || c === 123) {
    const r = c === 34 || c === 39 ? quotedScalar(line, start) : flowCollection(line, start, 1);
    return r !== NO && restIsBlank(line, r[1]) ? r[0] : NO;
  }
  // A plain scalar runs to a ` #` comment or the end of the line.
  let end = line.indexOf(" #", start);
  if (end < 0) end = line.length;
  while (end > start && line.charCodeAt(end - 1) === 32) end--;
  return plainScalar(line.slice(start, end));
}

/**
 * The lines of a block scalar starting at `lines[i]`: all indented by the same
 * number of spaces, more than `parent` (the column of its key), no blank or
 * trailing-space lines, and a line break after the last one. Returns the value
 * and the index of the next line.
 */
function blockScalarLines(
  lines: string[],
  i: number,
  header: string,
  parent: number,
): Maybe<[string, number]> {
  const content: string[] = [];
  const literal = header[0] === "|";
  let indent = -1;
  for (; i < lines.length; i++) {
    const l = lines[i];
    let n = 0;
    while (l.charCodeAt(n) === 32) n++;
    // A line at the key's column or left of it (blank, a comment, the next
    // key) ends the block; a `#` line indented more is content, even after
    // blank lines (which then belong to the block: leave that to yaml).
    if (n <= parent) {
      if (l !== "") break;
      let k = i + 1;
      while (lines[k] === "") k++;
      if (k < lines.length && skipSpaces(lines[k], 0) > parent) return NO;
      break;
    }
    if (n === l.length || l.charCodeAt(l.length - 1) === 32) return NO;
    if (indent < 0) indent = n;
    // A literal block keeps deeper indentation as content (pretty JSON, say);
    // a folded one treats it specially: leave that to yaml.
    else if (literal ? n < indent : n !== indent) return NO;
    content.push(l.slice(indent));
  }
  if (content.length === 0) return NO;
  const text = content.join(literal ? "\n" : " ");
  // Clip (no indicator) keeps one final line break, strip (`-`) none.
  return [header.length === 1 ? text + "\n" : text, i];
}

/** Text a plain scalar may hold in any position, for the error prediction below. */
function safeSegment(s: string): boolean {
  return s !== "" && !INDICATORS.includes(s[0]) && s[0] !== " " && !s.includes(" #") &&
    !s.endsWith(":") && !/[[\]{}]/.test(s);
}

/**
 * The one invalid form worth predicting: `key: text: more text`, an unquoted
 * value containing `: ` (Claude agents' descriptions often look like this,
 * with quotes, `<example>` tags and `\n` escapes after the first colon).
 * `yaml` fails at the first `: ` whatever follows it, so only the text before
 * it is checked: it must be a plain scalar that can be a key. Returns true
 * when `value` is such a value.
 */
function isCompactNestedMapping(value: string): boolean {
  const colon = value.search(/: /);
  if (colon < 0) return false;
  const key = value.slice(0, colon);
  // An implicit key is limited to 1024 characters; stay well inside it.
  return key.length <= 1000 && safeSegment(key);
}

/** Where the block reader is: the lines, the next one to read, the first error found. */
interface Reader {
  lines: string[];
  i: number;
  error: string | undefined;
  /** Whether the last {@link nextContent} skipped a blank line. */
  blank: boolean;
}

/**
 * The column of the next line that holds something, skipping blank and
 * comment lines from `r.i` on (and moving `r.i` to it); -1 at the end. A line
 * of nothing but spaces is rare and means different things by position in
 * YAML: `NO`.
 */
function nextContent(r: Reader): Maybe<number> {
  const { lines } = r;
  let i = r.i;
  let blank = false;
  let p = -1;
  for (; i < lines.length; i++) {
    const line = lines[i];
    if (line === "") {
      blank = true;
      continue;
    }
    p = skipSpaces(line, 0);
    if (p === line.length) return NO;
    if (line.charCodeAt(p) !== 35) break;
    p = -1;
  }
  r.i = i;
  r.blank = blank;
  return p;
}

/** Whether `line` is a block list item `- …` at column `p`. */
function isListItem(line: string, p: number): boolean {
  return line.charCodeAt(p) === 45 && line.charCodeAt(p + 1) === 32;
}

/**
 * A block mapping whose keys start at column `indent`, from `r.i` on, up to
 * the first line left of that column. At the top (`depth` 0) one invalid form
 * is recognised too: `key: a: b` records the error `yaml` would throw.
 */
function blockMapping(r: Reader, indent: number, depth: number): Maybe<Record<string, unknown>> {
  const data: Record<string, unknown> = {};
  const { lines } = r;
  for (let empty = true;; empty = false) {
    const p = nextContent(r);
    if (p === NO) return NO;
    // The end, at the end of the text too (-1). No keys at all (only at the
    // top): yaml says null, not an empty mapping; let it say so.
    if (p < indent) return empty ? NO : data;
    if (p > indent) return NO;
    const line = lines[r.i++];
    const colon = keyEnd(line, p);
    if (colon < 0) return NO;
    const key = line.slice(p, colon);
    if (key.length <= 5 && NON_STRING_KEY.test(key)) return NO;
    // The value: after the spaces that follow the colon.
    const start = skipSpaces(line, colon + 1);
    if (start === colon + 1 && start < line.length) return NO;
    const c = line.charCodeAt(start);
    let value: Maybe<unknown>;
    if (start === line.length || c === 35) value = nestedValue(r, indent, depth);
    else if (c === 124 || c === 62) value = blockScalar(r, line, start, indent);
    else {
      value = lineValue(line, start);
      // Predicted at the top only: nested, yaml's reading is not worth the risk.
      if (value === NO && depth === 0) {
        let end = line.length;
        while (line.charCodeAt(end - 1) === 32) end--;
        if (isCompactNestedMapping(line.slice(start, end))) {
          // yaml reports the nested mapping where the value starts.
          r.error ??= "Nested mappings are not allowed in compact mappings at line " +
            `${r.i}, column ${start + 1}`;
          value = undefined;
        }
      }
    }
    if (value === NO || !put(data, key, value)) return NO;
  }
}

/**
 * The value of a key at column `indent` with nothing after its colon: a block
 * list or a block mapping on the next lines, or null.
 */
function nestedValue(r: Reader, indent: number, depth: number): Maybe<unknown> {
  const p = nextContent(r);
  if (p === NO) return NO;
  if (p < 0) return null;
  const line = r.lines[r.i];
  // A list may sit at the key's own column; a blank line before it goes to yaml.
  if (p >= indent && isListItem(line, p)) return r.blank ? NO : blockList(r, p);
  if (p <= indent) return null;
  return depth < MAX_SIMPLE_DEPTH ? blockMapping(r, p, depth + 1) : NO;
}

/**
 * A block list whose `- ` items are at column `indent`, each holding a value
 * that ends its line. Comment lines between items are skipped; a blank line
 * ends the list (and an item after it is then refused by the mapping).
 */
function blockList(r: Reader, indent: number): Maybe<unknown[]> {
  const items: unknown[] = [];
  const { lines } = r;
  do {
    const line = lines[r.i++];
    const start = skipSpaces(line, indent + 2);
    if (start === line.length || line.charCodeAt(start) === 35) return NO;
    const value = lineValue(line, start);
    if (value === NO) return NO;
    items.push(value);
    // Comment lines (and only those) may sit between items.
    for (; r.i < lines.length; r.i++) {
      const l = lines[r.i];
      const p = skipSpaces(l, 0);
      if (p === l.length || l.charCodeAt(p) !== 35) break;
    }
  } while (
    r.i < lines.length && skipSpaces(lines[r.i], 0) === indent && isListItem(lines[r.i], indent)
  );
  return items;
}

/** A folded or literal block scalar whose header starts at `line[start]`, clip or strip. */
function blockScalar(r: Reader, line: string, start: number, indent: number): Maybe<unknown> {
  let end = start + 1;
  if (line.charCodeAt(end) === 45) end++;
  if (!restIsBlank(line, end)) return NO;
  const b = blockScalarLines(r.lines, r.i, line.slice(start, end), indent);
  if (b === NO) return NO;
  r.i = b[1];
  return b[0];
}

/** What {@link parseSimpleYaml} found: the data, or the error `yaml` would throw. */
export type SimpleYaml =
  | { ok: true; data: Record<string, unknown> }
  | { ok: false; error: string };

/**
 * Reads `block` when it is simple YAML (frontmatter or a small config file):
 * `key: value` lines, nested block mappings, values that are plain or quoted
 * scalars, one-line flow lists and flow mappings, block lists of those, or
 * plain folded/literal block scalars, with comments and blank lines between
 * (the module's fast-path notes give the exact subset). Returns exactly what
 * `yaml`'s `parse` returns for such a block, or `undefined` when the block is
 * anything else. One invalid form is recognised too — an unquoted top-level
 * value containing `: ` — and then the result is the first line of the error
 * `yaml` would throw.
 */
export function parseSimpleYaml(block: string): SimpleYaml | undefined {
  // Tabs, control characters, odd breaks and lone surrogates anywhere: not simple.
  // (Escapes such as `\n` in double quotes are fine: only the source is checked.)
  if (UNSAFE_CHAR.test(block)) return undefined;
  const r: Reader = { lines: block.split("\n"), i: 0, error: undefined, blank: false };
  // Nothing is left of column 0, so the top mapping runs to the end.
  const data = blockMapping(r, 0, 0);
  if (data === NO) return undefined;
  return r.error === undefined ? { ok: true, data } : { ok: false, error: r.error };
}

/**
 * The index of the `:` after a `[A-Za-z_][A-Za-z0-9_-]*` key of up to 128
 * characters starting at `line[from]`, or -1.
 */
function keyEnd(line: string, from: number): number {
  const c0 = line.charCodeAt(from);
  const lower0 = c0 | 32;
  if (!((lower0 >= 97 && lower0 <= 122) || c0 === 95)) return -1;
  const max = from + 128;
  let n = from + 1;
  for (; n < line.length && n < max; n++) {
    const c = line.charCodeAt(n);
    const lower = c | 32;
    if (!((lower >= 97 && lower <= 122) || (c >= 48 && c <= 57) || c === 95 || c === 45)) break;
  }
  return line.charCodeAt(n) === 58 ? n : -1;
}
