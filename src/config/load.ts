/**
 * Which config files apply to a directory, and the merged result.
 *
 * Reads `~/.xcsh/agent/config.yml` (the user's) and then the nearest
 * `.xcsh/config.yml` walking up from `cwd` (the project's; nearer wins key by
 * key). A project config the user has not trusted (`xcsh trust`) for this
 * project applies only what tightens the user's settings (see
 * `untrusted.ts`), with one warning naming the rest, and its `task.allowEnv`
 * (trusted or not) only narrows the user's; a relative MCP server command in
 * a config file is a path from that file's real folder; a config file
 * someone else could have written is ignored with a warning (see
 * `file-safety.ts`; for the project's, the walk's rule of `walk-up.ts`
 * covers the folders holding it too). `$HOME/.xcsh/config.yml` is never a
 * project config. Missing files are simply absent; a file that cannot be read or parsed, or that has a key of
 * the wrong type, is an error value naming the file and the key.
 *
 * @module
 */
import { dirname, join } from "node:path";
import process from "node:process";
import { Buffer } from "node:buffer";
import {
  MAX_SETTINGS_FILE_BYTES,
  ownershipHint,
  ownershipProblem,
  readCappedSync,
} from "../fs/file-safety.ts";
import { isTrusted, realPathOf, trustStoreFor } from "./trust-store.ts";
import { restrictUntrusted } from "./untrusted.ts";
import { findUp, isFileInfo } from "../fs/walk-up.ts";
import {
  isNeedsParser,
  type NeedsParser,
  parseOnDemand,
  yamlParser,
} from "../formats/full-parsers.ts";
import { normalizeText } from "../formats/frontmatter.ts";
import { parseSimpleYaml } from "../formats/simple-yaml.ts";
import { anchorServers } from "../discovery/mcp-definition.ts";
import { mergeConfigs, type PartialConfig, validateConfig } from "./validate.ts";
import { BUILTIN_PROVIDERS, untypedProvider, untypedProviderMessage } from "../model/providers.ts";
import { narrowAllowList } from "../sandbox/command-env.ts";
import type { Diagnostic, XcshConfig } from "../types.ts";

export type LoadedConfig =
  | { ok: true; config: XcshConfig; files: string[]; warnings: Diagnostic[] }
  | { ok: false; error: Diagnostic; files: string[]; warnings: Diagnostic[] };

/** The user config file. */
export function userConfigPath(home: string): string {
  return join(home, ".xcsh", "agent", "config.yml");
}

/**
 * The nearest `.xcsh/config.yml` at or above `cwd` that the walk accepts
 * (`walk-up.ts`: never `$HOME`'s own or above it; the folder holding it,
 * `.xcsh` and the file must be the user's or root's and not writable by
 * others). Refused ones are skipped, each with a warning in `warnings`.
 */
export function findProjectConfig(
  cwd: string,
  home: string,
  warnings: Diagnostic[] = [],
): string | undefined {
  return findUp(cwd, home, join(".xcsh", "config.yml"), isFileInfo, warnings)?.path;
}

/**
 * Parses and validates one file's text. Pure apart from naming `file`; a
 * {@link NeedsParser} when the text needs the full YAML parser before it is
 * loaded (`parseOnDemand` loads it).
 */
export function parseConfigText(
  text: string,
  file: string,
): { ok: true; value: PartialConfig; warnings: Diagnostic[] } | {
  ok: false;
  error: Diagnostic;
  warnings: Diagnostic[];
} | NeedsParser {
  // Most config files are simple YAML, read without loading the full parser
  // (the same fast path as agent frontmatter, proven equal to `yaml`).
  const simple = parseSimpleYaml(normalizeText(text));
  if (simple?.ok) return validateConfig(simple.data, file);
  const parse = yamlParser();
  if (isNeedsParser(parse)) return parse;
  let doc: unknown;
  const yamlWarnings: Diagnostic[] = [];
  try {
    doc = parse(text, {
      maxAliasCount: 100,
      onWarning: (message) =>
        yamlWarnings.push({ level: "warning", file, message: `YAML: ${message}` }),
    });
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
  const checked = validateConfig(doc, file);
  checked.warnings.unshift(...yamlWarnings);
  return checked;
}

/**
 * A project config's `task.allowEnv`, trusted or not, can only narrow the
 * user's (`before`, the files read so far): it keeps nothing the user's list
 * does not (the trust rule: a repository never loosens the sandbox).
 */
function narrowingOnly(part: PartialConfig, before: readonly PartialConfig[]): PartialConfig {
  if (part.task?.allowEnv === undefined) return part;
  const user = mergeConfigs(before).task.allowEnv;
  return { ...part, task: { ...part.task, allowEnv: narrowAllowList(user, part.task.allowEnv) } };
}

type ConfigRead =
  | { kind: "absent" }
  | { kind: "error"; message: string }
  | { kind: "ignored"; message: string }
  | { kind: "text"; text: string; bytes: Buffer; project: boolean };

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads one config file: capped, never blocking on a FIFO, and ignored when
 * someone else could have written it (the file, or for a project config the
 * `.xcsh` folder holding it).
 */
function readConfigFile(file: string, project: boolean): ConfigRead {
  const r = readCappedSync(file, MAX_SETTINGS_FILE_BYTES);
  if (!r.ok) {
    if (r.code === "ENOENT" || r.code === "ENOTDIR") return { kind: "absent" };
    if (r.code === "EISDIR") {
      return { kind: "error", message: "cannot be read: not a regular file" };
    }
    return { kind: "error", message: r.reason };
  }
  // The descriptor's owner, checked again: the walk looked at the path.
  const problem = ownershipProblem(r.info);
  if (problem) return { kind: "ignored", message: `${problem}; ${ownershipHint(problem, file)}` };
  let text: string;
  try {
    text = utf8.decode(r.bytes);
  } catch {
    return { kind: "error", message: "cannot be read: not valid UTF-8 text" };
  }
  return { kind: "text", text, bytes: r.bytes, project };
}

/**
 * Loads and merges the config files that apply to `cwd`.
 *
 * @example
 * ```ts
 * import os from "node:os";
 *
 * const r = await loadConfig(process.cwd(), os.homedir());
 * if (!r.ok) console.error(`${r.error.file}: ${r.error.message}`);
 * else console.log(r.config.task.maxConcurrency, r.files);
 * ```
 */
export async function loadConfig(
  cwd: string,
  home: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<LoadedConfig> {
  // Without a home there is no user config (never one relative to cwd).
  const candidates = home ? [userConfigPath(home)] : [];
  const warnings: Diagnostic[] = [];
  const project = findProjectConfig(cwd, home, warnings);
  if (project && project !== candidates[0]) candidates.push(project);

  const files: string[] = [];
  const parts: PartialConfig[] = [];
  for (const file of candidates) {
    const read = readConfigFile(file, file !== candidates[0] || !home);
    if (read.kind === "absent") continue;
    if (read.kind === "error") {
      return { ok: false, error: { level: "error", file, message: read.message }, files, warnings };
    }
    if (read.kind === "ignored") {
      warnings.push({ level: "warning", file, message: read.message });
      continue;
    }
    files.push(file);
    const r = await parseOnDemand(() => parseConfigText(read.text, file));
    warnings.push(...r.warnings);
    if (!r.ok) return { ok: false, error: r.error, files, warnings };
    let part = r.value;
    if (part.mcpServers) {
      // Relative commands mean paths from the file's own (real) folder.
      part = { ...part, mcpServers: anchorServers(part.mcpServers, dirname(realPathOf(file))) };
    }
    if (read.project && !isTrusted(file, read.bytes, trustStoreFor(env, home))) {
      const known = new Set([
        ...Object.keys(BUILTIN_PROVIDERS),
        ...parts.flatMap((p) => Object.keys(p.providers ?? {})),
      ]);
      const { kept, dropped } = restrictUntrusted(part, known, mergeConfigs(parts));
      part = kept;
      if (dropped.length > 0) {
        warnings.push({
          level: "warning",
          file,
          message: `${dropped.join(", ")} ignored: this project config is not trusted ` +
            `(run 'xcsh trust ${join(file, "..", "..")}' after reading it)`,
        });
      }
    }
    parts.push(read.project ? narrowingOnly(part, parts) : part);
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
