/**
 * Which config files apply to a directory, and the merged result.
 *
 * Reads `~/.xcsh/agent/config.yml` (the user's) and then the nearest
 * `.xcsh/config.yml` walking up from `cwd` (the project's; nearer wins key by
 * key). `$HOME/.xcsh/config.yml` is never a project config. Missing files are
 * simply absent; a file that cannot be read or parsed, or that has a key of
 * the wrong type, is an error value naming the file and the key.
 *
 * @module
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { projectAncestors } from "../discovery/config-dirs.ts";
import { withParsers, yamlParse } from "../discovery/parsers.ts";
import { normalizeText } from "../discovery/frontmatter.ts";
import { parseSimpleYaml } from "../discovery/simple-yaml.ts";
import { mergeConfigs, type PartialConfig, validateConfig } from "./validate.ts";
import { BUILTIN_PROVIDERS } from "../model/providers.ts";
import type { Diagnostic, XcshConfig } from "../types.ts";

export type LoadedConfig =
  | { ok: true; config: XcshConfig; files: string[]; warnings: Diagnostic[] }
  | { ok: false; error: Diagnostic; files: string[]; warnings: Diagnostic[] };

/** The user config file. */
export function userConfigPath(home: string): string {
  return join(home, ".xcsh", "agent", "config.yml");
}

function isFile(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    return false;
  }
}

/**
 * The nearest `.xcsh/config.yml` at or above `cwd`, skipping `$HOME`'s own:
 * the same walk as the project agent folders.
 */
export function findProjectConfig(cwd: string, home: string): string | undefined {
  return projectAncestors(cwd, home).map((dir) => join(dir, ".xcsh", "config.yml")).find(isFile);
}

/**
 * Parses and validates one file's text. Pure apart from naming `file`; needs
 * the YAML parser loaded (see `withParsers`).
 */
export function parseConfigText(
  text: string,
  file: string,
): { ok: true; value: PartialConfig; warnings: Diagnostic[] } | {
  ok: false;
  error: Diagnostic;
  warnings: Diagnostic[];
} {
  // Most config files are simple YAML, read without loading the full parser
  // (the same fast path as agent frontmatter, proven equal to `yaml`).
  const simple = parseSimpleYaml(normalizeText(text));
  if (simple?.ok) return validateConfig(simple.data, file);
  const parse = yamlParse();
  let doc: unknown;
  try {
    doc = parse(text, { maxAliasCount: 100 });
  } catch (err) {
    const pos = (err as { linePos?: { line: number; col: number }[] } | null)?.linePos?.[0];
    const where = pos ? ` (line ${pos.line}, column ${pos.col})` : "";
    const reason = err instanceof Error ? err.message.split("\n")[0] : String(err);
    return {
      ok: false,
      error: { level: "error", file, message: `not valid YAML${where}: ${reason}` },
      warnings: [],
    };
  }
  return validateConfig(doc, file);
}

/** The first provider with no `type` that is not a built-in one, if any. */
export function untypedProvider(config: XcshConfig): string | undefined {
  return Object.entries(config.providers).find(([name, p]) =>
    !p.type && !Object.hasOwn(BUILTIN_PROVIDERS, name)
  )?.[0];
}

/** The message for {@link untypedProvider}'s finding. */
export function untypedProviderMessage(name: string): string {
  return `'providers.${name}.type' is required: one of openai-compatible, anthropic, openai, google`;
}

/**
 * Loads and merges the config files that apply to `cwd`.
 *
 * @example
 * ```ts
 * const r = await loadConfig(process.cwd(), os.homedir());
 * if (!r.ok) console.error(`${r.error.file}: ${r.error.message}`);
 * else console.log(r.config.task.maxConcurrency, r.files);
 * ```
 */
export async function loadConfig(cwd: string, home: string): Promise<LoadedConfig> {
  // Without a home there is no user config (never one relative to cwd).
  const candidates = home ? [userConfigPath(home)] : [];
  const project = findProjectConfig(cwd, home);
  if (project && project !== candidates[0]) candidates.push(project);

  const files: string[] = [];
  const parts: PartialConfig[] = [];
  const warnings: Diagnostic[] = [];
  for (const file of candidates) {
    let text: string;
    try {
      // Looked at first: reading a FIFO (or a device) would wait forever.
      const info = statSync(file, { throwIfNoEntry: false });
      if (!info) continue;
      if (!info.isFile()) {
        return {
          ok: false,
          error: { level: "error", file, message: "cannot be read: not a regular file" },
          files,
          warnings,
        };
      }
      text = readFileSync(file, "utf8");
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") continue;
      const reason = err instanceof Error ? err.message : String(err);
      return {
        ok: false,
        error: { level: "error", file, message: `cannot be read: ${reason}` },
        files,
        warnings,
      };
    }
    files.push(file);
    const r = await withParsers(() => parseConfigText(text, file));
    warnings.push(...r.warnings);
    if (!r.ok) return { ok: false, error: r.error, files, warnings };
    parts.push(r.value);
  }

  const config = mergeConfigs(parts);
  const name = untypedProvider(config);
  if (name !== undefined) {
    const file = [...files].reverse().find((_, i) => parts[files.length - 1 - i].providers?.[name]);
    return {
      ok: false,
      error: {
        level: "error",
        file,
        field: `providers.${name}.type`,
        message: untypedProviderMessage(name),
      },
      files,
      warnings,
    };
  }
  return { ok: true, config, files, warnings };
}
