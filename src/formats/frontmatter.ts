/**
 * Splits a Markdown file into its YAML frontmatter and body.
 *
 * Decides what counts as frontmatter (a first line of exactly `---`, closed by
 * the next line of exactly `---`), how strict YAML errors are (`fatal` throws,
 * `warn` reports and falls back to a `key: value` line parser, `off` falls back
 * silently) and the bounds that keep hostile input cheap: alias expansion and
 * the size of the block. Simple blocks (flat `key: value` lines) take a fast
 * path that gives exactly what `yaml` would; the rest go to `yaml`. The
 * `key: value` fallback is silent when it reads every line unambiguously
 * (the common unquoted `description: … Examples: <example>…` of Claude agents).
 *
 * @example
 * ```ts
 * const fm = parseFrontmatter("---\nname: x\n---\nHello", { file: "x.md", level: "warn" });
 * // fm.data = { name: "x" }, fm.body = "Hello"
 * ```
 *
 * @module
 */
import { isNeedsParser, type NeedsParser, yamlParser } from "./full-parsers.ts";
import { parseSimpleYaml } from "./simple-yaml.ts";
import type { Diagnostic, ParseLevel } from "../types.ts";

/** How the frontmatter block was read. */
export type FrontmatterStatus = "ok" | "fallback" | "none" | "unterminated" | "invalid";

export interface Frontmatter {
  /** The parsed keys; empty when there is no usable block. */
  data: Record<string, unknown>;
  /** Everything after the closing `---` (or the whole text without a block). */
  body: string;
  status: FrontmatterStatus;
  warnings: Diagnostic[];
  /**
   * A block that is a list of mappings (Gemini CLI's several remote agents
   * in one file): the mappings, in order; `data` is then empty.
   */
  list?: Record<string, unknown>[];
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

/** A non-empty list whose every item is a mapping. */
function isMappingList(v: unknown): v is Record<string, unknown>[] {
  return Array.isArray(v) && v.length > 0 &&
    v.every((x) => typeof x === "object" && x !== null && !Array.isArray(x));
}

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
 * A key with no value followed by indented `- item` lines is a list of those
 * items (Claude's `tools:` written as a YAML list); other indented lines,
 * comments and lines without a key are ignored; values are trimmed strings
 * with one pair of matching surrounding quotes removed.
 */
export function parseKeyValueLines(block: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  let listKey: string | undefined;
  for (const line of block.split("\n")) {
    const item = LIST_ITEM.exec(line);
    if (item && listKey !== undefined) {
      (out[listKey] as string[]).push(unquote(item[1].trim()));
      continue;
    }
    listKey = undefined;
    const m = KEY_LINE.exec(line);
    if (!m) continue;
    const value = unquote((m[2] ?? "").trim());
    if (m[1] in out) continue;
    out[m[1]] = value;
    if (value === "") {
      listKey = m[1];
      out[m[1]] = [];
    }
  }
  // A key with no value and no items stays an empty string.
  for (const [k, v] of Object.entries(out)) if (Array.isArray(v) && v.length === 0) out[k] = "";
  return out;
}

/** An indented `- item` line of a block list. */
const LIST_ITEM = /^[ \t]+-[ \t]+(\S.*)$/;

function unquote(value: string): string {
  if (
    value.length >= 2 && (value[0] === '"' || value[0] === "'") &&
    value[value.length - 1] === value[0]
  ) {
    return value.slice(1, -1);
  }
  return value;
}

const NOT_A_MAPPING = "frontmatter is not a mapping of keys to values";

/** How every lenient-reading warning begins (`agents check` keeps such files loadable). */
export const LENIENT_READING = "frontmatter is not valid YAML";

/** Values that mean something else in YAML than as plain text. */
const YAML_SYNTAX = /^(?:[[\]{}|>&*!%@`]|- |-$)|\s#/;

/**
 * Why reading `block` as `key: value` lines may not give what its author
 * meant, as one message saying what to change; undefined when every line is
 * a `key: value` line with a plain value and no key repeats. Pure.
 */
export function lenientReadingDoubt(block: string, why = ""): string | undefined {
  const seen = new Map<string, number>();
  let colonValue: { key: string; line: number } | undefined;
  const lines = block.split("\n");
  const doubts: string[] = [];
  let inList = false;
  for (const [i, line] of lines.entries()) {
    const n = i + 1;
    if (line.trim() === "" || line.startsWith("#")) continue;
    const item = LIST_ITEM.exec(line);
    if (item && inList) {
      const v = item[1].trim();
      if (YAML_SYNTAX.test(v) || /^["']/.test(v) && unquote(v) === v) {
        doubts.push(`the list item on line ${n} was read as the plain text ${JSON.stringify(v)}`);
      }
      continue;
    }
    const m = KEY_LINE.exec(line);
    inList = m !== null && (m[2] ?? "").trim() === "";
    if (!m) {
      doubts.push(`line ${n} is not a 'key: value' line and was skipped`);
      continue;
    }
    const key = m[1];
    const value = (m[2] ?? "").trim();
    if (seen.has(key)) {
      doubts.push(`'${key}' is given twice (lines ${seen.get(key)} and ${n}); the first is used`);
    } else seen.set(key, n);
    const quote = value[0] === '"' || value[0] === "'" ? value[0] : undefined;
    if (quote) {
      const inner = value.slice(1, -1);
      if (
        value.length < 2 || value[value.length - 1] !== quote || inner.includes(quote) ||
        inner.includes("\\")
      ) {
        doubts.push(`the quotes of '${key}' (line ${n}) were kept as written`);
      }
    } else if (YAML_SYNTAX.test(value)) {
      doubts.push(`'${key}' (line ${n}) was read as the plain text ${JSON.stringify(value)}`);
    }
    if (!quote && value.includes(": ") && !colonValue) colonValue = { key, line: n };
  }
  if (doubts.length === 0) return undefined;
  const fix = colonValue
    ? `put the value of '${colonValue.key}' (line ${colonValue.line}) in quotes, or write ` +
      `'${colonValue.key}: |' with the text indented on the lines below`
    : "make it valid YAML";
  const shown = doubts.length > 3 ? [...doubts.slice(0, 3), `${doubts.length - 3} more`] : doubts;
  return `${LENIENT_READING}${why}, so it was read line by line: ${
    shown.join("; ")
  }. To fix: ${fix}`;
}

function firstLine(message: string): string {
  return message.split("\n")[0].trim().replace(/:$/, "");
}

/**
 * Parses the frontmatter of `text`. Never throws except at level `fatal`.
 * Gives a {@link NeedsParser} when the block needs the full YAML parser
 * before it is loaded (`parseOnDemand` in `full-parsers.ts` loads it and asks again).
 */
export function parseFrontmatter(
  text: string,
  opts: FrontmatterOptions,
): Frontmatter | NeedsParser {
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
    const parse = yamlParser();
    if (isNeedsParser(parse)) return parse;
    try {
      data = parse(block, {
        maxAliasCount: MAX_YAML_ALIASES,
        prettyErrors: true,
        onWarning: (message) => {
          if (opts.level !== "off") {
            warnings.push({ level: "warning", file: opts.file, message: `YAML: ${message}` });
          }
        },
      });
    } catch (err) {
      yamlError = firstLine(err instanceof Error ? err.message : String(err));
    }
  }
  if (yamlError === undefined) {
    if (data === null || data === undefined) return { data: {}, body, status: "ok", warnings };
    if (typeof data === "object" && !Array.isArray(data)) {
      return { data: data as Record<string, unknown>, body, status: "ok", warnings };
    }
    if (isMappingList(data)) return { data: {}, list: data, body, status: "ok", warnings };
    yamlError = NOT_A_MAPPING;
  }
  if (opts.level === "fatal") throw new FrontmatterError(opts.file, `invalid YAML: ${yamlError}`);
  // Real-world files (Claude's `description: … Examples: <example>…`) are
  // often not YAML but plain `key: value` lines: read silently when every
  // line means one thing, otherwise say what to change.
  const doubt = yamlError === NOT_A_MAPPING
    ? `${NOT_A_MAPPING}: write one 'key: value' line per field (name: …, description: …)`
    : lenientReadingDoubt(
      block,
      /alias/i.test(yamlError)
        ? ` for xcsh (it expands more than ${MAX_YAML_ALIASES} aliases)`
        : "",
    );
  if (opts.level === "warn" && doubt !== undefined) {
    warnings.push({ level: "warning", file: opts.file, message: doubt });
  }
  return { data: parseKeyValueLines(block), body, status: "fallback", warnings };
}
