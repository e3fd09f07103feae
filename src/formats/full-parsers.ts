/**
 * The full YAML and TOML parsers, loaded the first time a file needs one.
 *
 * Most definition files take the simple-frontmatter fast path and never need
 * `yaml`; only some Codex files need `smol-toml`. Loading either up front
 * costs every command start-up time, so the pure parsing functions stay
 * synchronous and ask with {@link yamlParser} / {@link tomlParser}. While the
 * parser is not in memory they get a {@link NeedsParser} value instead, which
 * they return as their own result; the caller, where the I/O already is,
 * hands the parse to {@link parseOnDemand}, which loads what was asked for and
 * parses again. No exception is part of this: a parse that returns a
 * `NeedsParser` has done nothing a second parse would repeat.
 *
 * @example
 * ```ts
 * const parse = (text: string) => {
 *   const yaml = yamlParser();
 *   return isNeedsParser(yaml) ? yaml : yaml(text);
 * };
 * const data = await parseOnDemand(() => parse("a: [1, {b: 2}]")); // { a: [1, { b: 2 }] }
 * ```
 *
 * @module
 */
/** Options of {@link YamlParse}. */
export interface YamlOptions {
  maxAliasCount?: number;
  prettyErrors?: boolean;
  /**
   * Receives the parser's warnings (an unknown tag, …), one line each.
   * Without it they are dropped: never printed by the runtime as a process
   * warning (which names flags of a runtime xcsh does not have).
   */
  onWarning?: (message: string) => void;
}

/** Parses YAML text to a plain value; throws the first error. */
export type YamlParse = (text: string, options?: YamlOptions) => unknown;
export type TomlParse = (text: string) => Record<string, unknown>;

let yaml: YamlParse | undefined;
let toml: TomlParse | undefined;

/** The parsers loaded on demand. */
export type ParserName = "yaml" | "toml";

/** What a parse gives instead of its result while the parser it needs is not loaded. */
export interface NeedsParser {
  readonly needsParser: ParserName;
}

const NEEDS_YAML: NeedsParser = Object.freeze({ needsParser: "yaml" });
const NEEDS_TOML: NeedsParser = Object.freeze({ needsParser: "toml" });

/**
 * Whether `v` is a {@link NeedsParser} (a parse to run again once the parser
 * is there). Only the two values this module hands out are: parsed data that
 * happens to have a `needsParser` key is data.
 */
export function isNeedsParser(v: unknown): v is NeedsParser {
  return v === NEEDS_YAML || v === NEEDS_TOML;
}

/** Loads `yaml`. */
export async function loadYaml(): Promise<YamlParse> {
  if (!yaml) {
    const { parseDocument } = await import("yaml");
    // What `yaml`'s own parse does, except that warnings are handed to the
    // caller instead of the runtime's process warnings.
    yaml = (text, { onWarning, ...options } = {}) => {
      const doc = parseDocument(text, options);
      if (doc.errors.length > 0) throw doc.errors[0];
      for (const w of doc.warnings) onWarning?.(w.message.split("\n")[0].replace(/:$/, ""));
      return doc.toJS(options);
    };
  }
  return yaml;
}

/** Loads `smol-toml`. */
export async function loadToml(): Promise<TomlParse> {
  toml ??= (await import("smol-toml")).parse as TomlParse;
  return toml;
}

/** The YAML parser, or a {@link NeedsParser} until it is loaded. */
export function yamlParser(): YamlParse | NeedsParser {
  return yaml ?? NEEDS_YAML;
}

/** The TOML parser, or a {@link NeedsParser} until it is loaded. */
export function tomlParser(): TomlParse | NeedsParser {
  return toml ?? NEEDS_TOML;
}

/** Loads the parser `which`. */
export async function loadParser(which: ParserName): Promise<void> {
  if (which === "yaml") await loadYaml();
  else await loadToml();
}

/**
 * The result of `parse`, loading each parser it asks for and parsing again.
 * `parse` must be safe to run again after a `NeedsParser` (the pure parsers
 * are). A parser asked for twice is a bug in the parse, not in its input.
 */
export async function parseOnDemand<T>(parse: () => T | NeedsParser): Promise<T> {
  const loaded: ParserName[] = [];
  for (;;) {
    const r = parse();
    if (!isNeedsParser(r)) return r;
    if (loaded.includes(r.needsParser)) {
      throw new Error(`a parse asked for the ${r.needsParser} parser after it was loaded`);
    }
    loaded.push(r.needsParser);
    await loadParser(r.needsParser);
  }
}

/**
 * `r` as a result: for code that loaded the parsers first ({@link loadParsers}),
 * where a `NeedsParser` cannot happen and is a bug if it does.
 */
export function parsedNow<T>(r: T | NeedsParser): T {
  if (isNeedsParser(r)) throw new Error(`the ${r.needsParser} parser was used before loading`);
  return r;
}

/** Loads both parsers, for callers (and tests) that parse synchronously. */
export async function loadParsers(): Promise<void> {
  await Promise.all([loadYaml(), loadToml()]);
}

/** Forgets the loaded parsers, so tests can check what loads them. For tests only. */
export function forgetParsers(): void {
  yaml = undefined;
  toml = undefined;
}
