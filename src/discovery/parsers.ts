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
import type * as Yaml from "yaml";

export type YamlParse = typeof Yaml.parse;
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
  yaml ??= (await import("yaml")).parse;
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
