/**
 * A fast reader for the simple TOML that Codex agent files use.
 *
 * A Codex agent is a handful of `key = value` lines and one long
 * `developer_instructions = """…"""` string. `smol-toml` reads that too, but
 * its code is loaded and compiled in every process that meets a `.toml`
 * agent, and its first few hundred parses run cold (milliseconds on a tree
 * of a few hundred files). This reads the common subset directly and returns
 * exactly what `smol-toml` returns (a null-prototype object, keys in file
 * order); tests/fuzz/simple-toml.test.ts proves it against `smol-toml` on
 * generated documents.
 *
 * The subset: lines that are blank, `# comments`, or `key = value` with a
 * bare key (`[A-Za-z0-9_-]+`) given once, and a value that is a one-line
 * basic string with the escapes \" \\ \n \t \r \b \f, a literal string, a
 * multi-line basic string without backslashes, a multi-line literal string,
 * `true`/`false`, a plain decimal integer of at most 15 digits, or a one-line
 * array of such strings; a value may be followed by a comment. Anything else
 * — tables, dotted or quoted keys, other escapes, floats, dates, carriage
 * returns, control characters, quotes next to a closing delimiter, trailing
 * commas — gives `undefined`, and the caller uses `smol-toml`.
 *
 * @example
 * ```ts
 * parseSimpleToml('name = "x"\ndeveloper_instructions = """\nBe brief."""');
 * // { name: "x", developer_instructions: "Be brief." } (null prototype)
 * parseSimpleToml("[mcp_servers.x]"); // undefined: tables go to smol-toml
 * ```
 *
 * @module
 */

const KEY = /[A-Za-z0-9_-]/;
const INTEGER = /^(?:0|-?[1-9][0-9]{0,14})$/;
/** Control characters but tab and newline, and (basic strings) any backslash. */
// deno-lint-ignore no-control-regex -- control characters are what it looks for
const BAD_IN_MULTILINE_BASIC = /[\x00-\x08\x0b-\x1f\x7f\\]/;
// deno-lint-ignore no-control-regex -- as above
const BAD_IN_MULTILINE_LITERAL = /[\x00-\x08\x0b-\x1f\x7f]/;
const ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  n: "\n",
  t: "\t",
  r: "\r",
  b: "\b",
  f: "\f",
};

/** True for a character TOML refuses inside strings and comments (tab is allowed). */
function isControl(c: number): boolean {
  return (c < 0x20 && c !== 0x09) || c === 0x7f;
}

class Reader {
  i = 0;
  constructor(readonly s: string) {}

  skipBlanks(): void {
    const s = this.s;
    while (this.i < s.length && (s[this.i] === " " || s[this.i] === "\t")) this.i++;
  }

  /** Past a comment (if any) and the end of the line; false when something else is there. */
  endOfLine(): boolean {
    const s = this.s;
    this.skipBlanks();
    if (s[this.i] === "#") {
      this.i++;
      while (this.i < s.length && s[this.i] !== "\n") {
        if (isControl(s.charCodeAt(this.i))) return false;
        this.i++;
      }
    }
    if (this.i === s.length) return true;
    if (s[this.i] !== "\n") return false;
    this.i++;
    return true;
  }

  /** A one-line basic string, the opening quote already passed. */
  basic(): string | undefined {
    const s = this.s;
    let out = "";
    let from = this.i;
    for (;;) {
      if (this.i >= s.length) return undefined;
      const ch = s[this.i];
      if (ch === '"') {
        out += s.slice(from, this.i++);
        return out;
      }
      if (ch === "\\") {
        const esc = ESCAPES[s[this.i + 1]];
        if (esc === undefined) return undefined;
        out += s.slice(from, this.i) + esc;
        this.i += 2;
        from = this.i;
        continue;
      }
      if (isControl(s.charCodeAt(this.i))) return undefined;
      this.i++;
    }
  }

  /** A one-line literal string, the opening quote already passed. */
  literal(): string | undefined {
    const s = this.s;
    const start = this.i;
    for (; this.i < s.length; this.i++) {
      if (s[this.i] === "'") return s.slice(start, this.i++);
      if (isControl(s.charCodeAt(this.i))) return undefined;
    }
    return undefined;
  }

  /** A multi-line string closed by three `quote`s, the opening ones passed. */
  multiline(quote: string): string | undefined {
    const s = this.s;
    if (s[this.i] === "\n") this.i++;
    const close = quote.repeat(3);
    const end = s.indexOf(close, this.i);
    if (end < 0 || s[end + 3] === quote) return undefined;
    const text = s.slice(this.i, end);
    if ((quote === '"' ? BAD_IN_MULTILINE_BASIC : BAD_IN_MULTILINE_LITERAL).test(text)) {
      return undefined;
    }
    this.i = end + 3;
    return text;
  }

  /** A string of any of the four kinds. */
  string(): string | undefined {
    const s = this.s;
    const q = s[this.i];
    if (s[this.i + 1] === q && s[this.i + 2] === q) {
      this.i += 3;
      return this.multiline(q);
    }
    this.i++;
    return q === '"' ? this.basic() : this.literal();
  }

  /** A one-line array of one-line strings. */
  array(): string[] | undefined {
    const s = this.s;
    this.i++;
    const out: string[] = [];
    this.skipBlanks();
    if (s[this.i] === "]") {
      this.i++;
      return out;
    }
    for (;;) {
      this.skipBlanks();
      const q = s[this.i];
      if (q !== '"' && q !== "'") return undefined;
      if (s[this.i + 1] === q && s[this.i + 2] === q) return undefined;
      this.i++;
      const v = q === '"' ? this.basic() : this.literal();
      if (v === undefined) return undefined;
      out.push(v);
      this.skipBlanks();
      if (s[this.i] === "]") {
        this.i++;
        return out;
      }
      if (s[this.i] !== ",") return undefined;
      this.i++;
    }
  }

  value(): unknown {
    const s = this.s;
    const c = s[this.i];
    if (c === '"' || c === "'") return this.string();
    if (c === "[") return this.array();
    let end = this.i;
    while (end < s.length && KEY.test(s[end])) end++;
    const word = s.slice(this.i, end);
    this.i = end;
    if (word === "true") return true;
    if (word === "false") return false;
    return INTEGER.test(word) ? Number(word) : undefined;
  }
}

/** `text` read as simple TOML, or undefined when it is not (or not only) that. */
export function parseSimpleToml(text: string): Record<string, unknown> | undefined {
  const r = new Reader(text);
  const s = text;
  const doc: Record<string, unknown> = Object.create(null);
  const seen = new Set<string>();
  while (r.i < s.length) {
    r.skipBlanks();
    const c = s[r.i];
    if (c === "\n" || c === "#" || r.i === s.length) {
      if (!r.endOfLine()) return undefined;
      continue;
    }
    const start = r.i;
    while (r.i < s.length && KEY.test(s[r.i])) r.i++;
    if (r.i === start) return undefined;
    const key = s.slice(start, r.i);
    if (seen.has(key)) return undefined;
    r.skipBlanks();
    if (s[r.i] !== "=") return undefined;
    r.i++;
    r.skipBlanks();
    const v = r.value();
    if (v === undefined || !r.endOfLine()) return undefined;
    seen.add(key);
    doc[key] = v;
  }
  return doc;
}
