/**
 * The full YAML and TOML parsers, loaded the first time a file needs one.
 *
 * Most definition files take the simple-frontmatter fast path and never need
 * `yaml`; only Codex folders need `smol-toml`. Loading either up front costs
 * every command start-up time, so the pure parsing functions stay synchronous
 * and ask with {@link yamlParse} / {@link tomlParse}: while the parser is not
 * in memory these throw {@link ParserNotLoaded}, and {@link withParsers}
 * (where the I/O already is) loads it and runs the parse again.
 *
 * @example
 * ```ts
 * const data = await withParsers(() => yamlParse()("a: [1, {b: 2}]"));
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

/** Thrown by a parse that needs a parser not loaded yet; carries how to load it. */
export class ParserNotLoaded extends Error {
  constructor(readonly which: "yaml" | "toml", readonly load: () => Promise<void>) {
    super(`the ${which} parser is not loaded`);
    this.name = "ParserNotLoaded";
  }
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

/** The YAML parser; throws {@link ParserNotLoaded} until it is loaded. */
export function yamlParse(): YamlParse {
  if (yaml) return yaml;
  throw new ParserNotLoaded("yaml", async () => void (await loadYaml()));
}

/** The TOML parser; throws {@link ParserNotLoaded} until it is loaded. */
export function tomlParse(): TomlParse {
  if (toml) return toml;
  throw new ParserNotLoaded("toml", async () => void (await loadToml()));
}

/** Runs `fn`, loading whichever parser it asks for and running it again. */
export async function withParsers<T>(fn: () => T): Promise<T> {
  for (;;) {
    try {
      return fn();
    } catch (err) {
      if (!(err instanceof ParserNotLoaded)) throw err;
      await err.load();
    }
  }
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
