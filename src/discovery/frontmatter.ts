/**
 * Splits a Markdown file into its YAML frontmatter and body.
 *
 * Decides what counts as frontmatter (a first line of exactly `---`, closed by
 * the next line of exactly `---`), how strict YAML errors are (`fatal` throws,
 * `warn` reports and falls back to a `key: value` line parser, `off` falls back
 * silently) and the bounds that keep hostile input cheap: alias expansion and
 * the size of the block. Simple blocks (flat `key: value` lines) take a fast
 * path that gives exactly what `yaml` would; the rest go to `yaml`.
 *
 * @example
 * ```ts
 * const fm = parseFrontmatter("---\nname: x\n---\nHello", { file: "x.md", level: "warn" });
 * // fm.data = { name: "x" }, fm.body = "Hello"
 * ```
 *
 * @module
 */
import { yamlParse } from "./parsers.ts";
import type { Diagnostic, ParseLevel } from "../task/types.ts";

/** How the frontmatter block was read. */
export type FrontmatterStatus = "ok" | "fallback" | "none" | "unterminated" | "invalid";

export interface Frontmatter {
  /** The parsed keys; empty when there is no usable block. */
  data: Record<string, unknown>;
  /** Everything after the closing `---` (or the whole text without a block). */
  body: string;
  status: FrontmatterStatus;
  warnings: Diagnostic[];
}

export interface FrontmatterOptions {
  /** Named in every message. */
  file: string;
  level: ParseLevel;
}

/** Thrown at level `fatal` (bundled agents), where bad frontmatter is a build bug. */
export class FrontmatterError extends Error {
  constructor(readonly file: string, readonly reason: string) {
    super(`${file}: ${reason}`);
    this.name = "FrontmatterError";
  }
}

/** Frontmatter blocks past this size are refused rather than parsed. */
export const MAX_FRONTMATTER_BYTES = 64 * 1024;
/** Lines a block may have before the full YAML parser is asked (it slows down quadratically). */
export const MAX_FRONTMATTER_LINES = 2000;
/** `[`/`{` nesting a block may have before the full YAML parser is asked. */
export const MAX_FRONTMATTER_NESTING = 64;

function countLines(block: string): number {
  let n = block.endsWith("\n") ? 0 : 1;
  for (let i = block.indexOf("\n"); i >= 0; i = block.indexOf("\n", i + 1)) n++;
  return n;
}

/** The deepest `[`/`{` nesting in `block`, counting brackets inside strings too (a bound, not a parse). */
function bracketDepth(block: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < block.length; i++) {
    const c = block.charCodeAt(i);
    if (c === 91 || c === 123) {
      if (++depth > max) max = depth;
    } else if ((c === 93 || c === 125) && depth > 0) depth--;
  }
  return max;
}

/** YAML aliases a block may expand; a "billion laughs" block stops here. */
export const MAX_YAML_ALIASES = 50;

const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_-]*)[ \t]*:(?:[ \t]+(.*))?$/;

/** Normalises line endings and drops a UTF-8 byte-order mark. */
export function normalizeText(text: string): string {
  const noBom = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return noBom.includes("\r") ? noBom.replace(/\r\n?/g, "\n") : noBom;
}

/**
 * Reads `key: value` lines the way a person means them when strict YAML
 * disagrees (an unquoted description containing `: ` is the usual case).
 * Indented lines, comments and lines without a key are ignored; values are
 * trimmed strings with one pair of matching surrounding quotes removed.
 */
export function parseKeyValueLines(block: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of block.split("\n")) {
    const m = KEY_LINE.exec(line);
    if (!m) continue;
    let value = (m[2] ?? "").trim();
    if (
      value.length >= 2 && (value[0] === '"' || value[0] === "'") &&
      value[value.length - 1] === value[0]
    ) {
      value = value.slice(1, -1);
    }
    if (!(m[1] in out)) out[m[1]] = value;
  }
  return out;
}

// ---- Fast path: the simple frontmatter almost every agent file uses ----------
//
// Parsing with `yaml` costs about 100 µs per agent file, several times the
// cost of reading it (see bench/). Most frontmatter is flat `key: value` lines,
// so that subset is read here directly (about 5 µs) and everything else goes
// to `yaml`. The subset is chosen so that the result is exactly what `yaml`
// returns (YAML 1.2 core schema); tests/fuzz/simple-yaml.test.ts proves it
// against `yaml` on generated blocks. Anything outside it — comments,
// anchors, aliases, tags, nested maps, multi-line quoted strings, escapes
// other than \\ \" \/ \n \t \r, block scalars with indicators, blank lines
// inside a list or block scalar, tabs and control characters, odd indentation,
// duplicate keys, numbers other than plain decimals — returns `undefined`,
// never a guess.

/** Keys the core schema reads as null or booleans, not strings. */
const NON_STRING_KEY = /^(?:[Nn]ull|NULL|[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
/** A block list item: indent, `- `, the value. */
const LIST_ITEM = /^( *)- +(.*)$/;
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

/** Not in the simple subset. */
const NO = Symbol("not simple");
type Maybe<T> = T | typeof NO;

/** A plain (unquoted) scalar, already trimmed of spaces, resolved by the core schema. */
function plainScalar(s: string, flow: boolean): Maybe<unknown> {
  if (s === "") return NO;
  // Only short words can be null or booleans: skip the tests for prose.
  if (s.length <= 5) {
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
  if (s.includes(": ") || s.endsWith(":") || s.includes(" #")) return NO;
  if (flow && /[,[\]{}:#]/.test(s)) return NO;
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

/** `s` without trailing spaces (only U+0020: YAML's other white space is tab, refused here). */
function trimEndSpaces(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 32) end--;
  return end === s.length ? s : s.slice(0, end);
}

/** A scalar value in block context: quoted or plain, nothing after it but spaces. */
function blockScalar(raw: string): Maybe<unknown> {
  const s = trimEndSpaces(raw);
  if (s[0] === '"' || s[0] === "'") {
    const q = quotedScalar(s, 0);
    return q === NO || q[1] !== s.length ? NO : q[0];
  }
  return plainScalar(s, false);
}

/** A one-line flow list `[a, "b", 'c']` of scalars. */
function flowList(raw: string): Maybe<unknown[]> {
  const s = trimEndSpaces(raw);
  if (s[s.length - 1] !== "]") return NO;
  const items: unknown[] = [];
  let i = 1;
  const skip = () => {
    while (s[i] === " ") i++;
  };
  skip();
  if (s[i] === "]") return i === s.length - 1 ? items : NO;
  for (;;) {
    skip();
    let value: unknown;
    if (s[i] === '"' || s[i] === "'") {
      const q = quotedScalar(s, i);
      if (q === NO) return NO;
      [value, i] = q;
    } else {
      let j = i;
      while (j < s.length && s[j] !== "," && s[j] !== "]") j++;
      const v = plainScalar(trimEndSpaces(s.slice(i, j)), true);
      if (v === NO) return NO;
      value = v;
      i = j;
    }
    items.push(value);
    skip();
    if (s[i] === "]") return i === s.length - 1 ? items : NO;
    if (s[i] !== ",") return NO;
    i++;
    skip();
    if (s[i] === "]" || s[i] === ",") return NO; // trailing or empty entry: leave it to yaml
  }
}

/** A block scalar header this reader handles: folded or literal, clip or strip. */
const BLOCK_HEADER = /^[>|]-?$/;

/**
 * The lines of a block scalar starting at `lines[i]`: all indented by the same
 * number of spaces (at least one), no blank or trailing-space lines, and a line
 * break after the last one. Returns the value and the index of the next line.
 */
function blockScalarLines(lines: string[], i: number, header: string): Maybe<[string, number]> {
  const content: string[] = [];
  const literal = header[0] === "|";
  let indent = -1;
  for (; i < lines.length; i++) {
    const l = lines[i];
    let n = 0;
    while (l.charCodeAt(n) === 32) n++;
    if (n === 0) break;
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
 * value containing `: ` (Claude agents' descriptions often look like this).
 * Returns true when `value` is such a value and nothing else is odd about it.
 */
function isCompactNestedMapping(value: string): boolean {
  const parts = value.split(/: +/);
  if (parts.length < 2) return false;
  for (let k = 0; k < parts.length; k++) {
    if (!safeSegment(parts[k])) return false;
    // An implicit key is limited to 1024 characters; stay well inside it.
    if (k < parts.length - 1 && parts[k].length > 1000) return false;
  }
  return true;
}

/** What {@link parseSimpleYaml} found: the data, or the error `yaml` would throw. */
export type SimpleYaml =
  | { ok: true; data: Record<string, unknown> }
  | { ok: false; error: string };

/**
 * Reads `block` when it is simple frontmatter: flat `key: value` lines whose
 * values are plain or quoted scalars, one-line flow lists, block lists of
 * scalars, or plain folded/literal block scalars. Returns exactly what `yaml`'s
 * `parse` returns for such a block, or `undefined` when the block is anything
 * else. One invalid form is recognised too — an unquoted value containing
 * `: ` — and then the result is the first line of the error `yaml` would throw.
 */
export function parseSimpleYaml(block: string): SimpleYaml | undefined {
  // Tabs, control characters, odd breaks and lone surrogates anywhere: not simple.
  // (Escapes such as `\n` in double quotes are fine: only the source is checked.)
  if (UNSAFE_CHAR.test(block)) return undefined;
  const lines = block.split("\n");
  const pairs: [string, unknown][] = [];
  let seen: Set<string> | undefined;
  let error: string | undefined;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i++];
    if (line === "") continue;
    const colon = keyEnd(line);
    if (colon < 0) return undefined;
    const key = line.slice(0, colon);
    if (key.length <= 5 && NON_STRING_KEY.test(key)) return undefined;
    // Duplicate keys are an error in yaml: leave them to it. A scan is cheapest
    // for the usual handful of keys; a set keeps thousands of keys linear.
    if (pairs.length < 16) {
      for (const [k] of pairs) if (k === key) return undefined;
    } else {
      seen ??= new Set(pairs.map(([k]) => k));
      if (seen.has(key)) return undefined;
      seen.add(key);
    }
    // The value: after the spaces that follow the colon, up to trailing spaces.
    let start = colon + 1;
    if (start < line.length && line.charCodeAt(start) !== 32) return undefined;
    while (line.charCodeAt(start) === 32) start++;
    let end = line.length;
    while (end > start && line.charCodeAt(end - 1) === 32) end--;
    const raw = line.slice(start, end);
    let value: Maybe<unknown>;
    if (raw === "") {
      // Nothing after the colon: a block list on the next lines, or null.
      const items: unknown[] = [];
      let indent = -1;
      for (; i < lines.length; i++) {
        const item = LIST_ITEM.exec(lines[i]);
        if (!item) break;
        if (indent < 0) indent = item[1].length;
        else if (item[1].length !== indent) return undefined;
        const v = blockScalar(item[2]);
        if (v === NO) return undefined;
        items.push(v);
      }
      const next = lines[i];
      if (next !== undefined && next !== "" && (next[0] === " " || next[0] === "-")) {
        return undefined;
      }
      value = items.length > 0 ? items : null;
    } else if (raw[0] === "[") value = flowList(raw);
    else if (BLOCK_HEADER.test(raw)) {
      const r = blockScalarLines(lines, i, raw);
      if (r === NO) return undefined;
      [value, i] = r;
    } else {
      value = blockScalar(raw);
      if (value === NO && isCompactNestedMapping(raw)) {
        // yaml reports the nested mapping where the value starts.
        error ??= "Nested mappings are not allowed in compact mappings at line " +
          `${i}, column ${start + 1}`;
        pairs.push([key, undefined]);
        continue;
      }
    }
    if (value === NO) return undefined;
    pairs.push([key, value]);
  }
  // No keys at all: yaml says null, not an empty mapping; let it say so.
  if (pairs.length === 0) return undefined;
  if (error !== undefined) return { ok: false, error };
  const data: Record<string, unknown> = {};
  for (const [key, value] of pairs) {
    // As yaml does: a key the object has through its prototype (`constructor`,
    // `__proto__`, …) becomes an ordinary own property.
    if (key in data) {
      Object.defineProperty(data, key, {
        value,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    } else data[key] = value;
  }
  return { ok: true, data };
}

/** The index of the `:` after a `[A-Za-z_][A-Za-z0-9_-]*` key of up to 128 characters, or -1. */
function keyEnd(line: string): number {
  const c0 = line.charCodeAt(0) | 32;
  if (!((c0 >= 97 && c0 <= 122) || line.charCodeAt(0) === 95)) return -1;
  let n = 1;
  for (; n < line.length && n < 128; n++) {
    const c = line.charCodeAt(n);
    const lower = c | 32;
    if (!((lower >= 97 && lower <= 122) || (c >= 48 && c <= 57) || c === 95 || c === 45)) break;
  }
  return line.charCodeAt(n) === 58 ? n : -1;
}

function firstLine(message: string): string {
  return message.split("\n")[0].trim().replace(/:$/, "");
}

/**
 * Parses the frontmatter of `text`. Never throws except at level `fatal`, and
 * with `ParserNotLoaded` when the block needs the full YAML parser before it
 * is loaded (`withParsers` handles that).
 */
export function parseFrontmatter(text: string, opts: FrontmatterOptions): Frontmatter {
  const src = normalizeText(text);
  const warnings: Diagnostic[] = [];
  const problem = (status: FrontmatterStatus, reason: string, body: string): Frontmatter => {
    if (opts.level === "fatal") throw new FrontmatterError(opts.file, reason);
    if (opts.level === "warn") {
      warnings.push({ level: "warning", file: opts.file, message: reason });
    }
    return { data: {}, body, status, warnings };
  };

  if (!(src === "---" || src.startsWith("---\n"))) {
    return { data: {}, body: src, status: "none", warnings };
  }
  const start = src.indexOf("\n") + 1;
  let end = -1;
  let bodyStart = src.length;
  if (start > 0) {
    const close = /^---$/m;
    const rest = src.slice(start);
    const m = close.exec(rest);
    if (m) {
      end = start + m.index;
      const after = end + m[0].length;
      bodyStart = src[after] === "\n" ? after + 1 : after;
    }
  }
  if (end < 0) {
    return problem(
      "unterminated",
      "frontmatter is not closed: no line '---' after the opening one",
      src,
    );
  }
  const block = src.slice(start, end);
  const body = src.slice(bodyStart);
  // UTF-16 length <= UTF-8 bytes <= 3 * UTF-16 length: encode only when it matters.
  const blockBytes =
    block.length > MAX_FRONTMATTER_BYTES || block.length * 3 <= MAX_FRONTMATTER_BYTES
      ? block.length
      : new TextEncoder().encode(block).length;
  if (blockBytes > MAX_FRONTMATTER_BYTES) {
    return problem(
      "invalid",
      `frontmatter is over the ${MAX_FRONTMATTER_BYTES}-byte limit`,
      body,
    );
  }

  // The common simple block is read directly; anything else goes to yaml.
  const simple = parseSimpleYaml(block);
  let data: unknown = simple?.ok ? simple.data : undefined;
  let yamlError: string | undefined = simple?.ok === false ? simple.error : undefined;
  if (simple === undefined) {
    // Bounds that keep the full parser cheap on hostile blocks: its duplicate-
    // key check grows with the square of the keys, and deep nesting exhausts
    // the stack (with a message that depends on the runtime).
    const lines = countLines(block);
    if (lines > MAX_FRONTMATTER_LINES) {
      return problem(
        "invalid",
        `frontmatter has ${lines} lines, over the ${MAX_FRONTMATTER_LINES}-line limit`,
        body,
      );
    }
    if (bracketDepth(block) > MAX_FRONTMATTER_NESTING) {
      return problem(
        "invalid",
        `frontmatter nests more than ${MAX_FRONTMATTER_NESTING} levels of brackets`,
        body,
      );
    }
    const parse = yamlParse();
    try {
      data = parse(block, { maxAliasCount: MAX_YAML_ALIASES, prettyErrors: true });
    } catch (err) {
      yamlError = firstLine(err instanceof Error ? err.message : String(err));
    }
  }
  if (yamlError === undefined) {
    if (data === null || data === undefined) return { data: {}, body, status: "ok", warnings };
    if (typeof data === "object" && !Array.isArray(data)) {
      return { data: data as Record<string, unknown>, body, status: "ok", warnings };
    }
    yamlError = "frontmatter is not a mapping of keys to values";
  }
  if (opts.level === "fatal") throw new FrontmatterError(opts.file, `invalid YAML: ${yamlError}`);
  if (opts.level === "warn") {
    warnings.push({
      level: "warning",
      file: opts.file,
      message: `invalid YAML frontmatter (${yamlError}); read as plain 'key: value' lines`,
    });
  }
  return { data: parseKeyValueLines(block), body, status: "fallback", warnings };
}
