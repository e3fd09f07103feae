/**
 * Finds every agent a task could run, in precedence order.
 *
 * Decides the order of sources — per family (xcsh, claude, codex, gemini) its
 * nearest project folder then its user folder(s); then Claude plugin roots
 * (project-scoped before user-scoped); then the bundled agents — and reads
 * them all concurrently while keeping that order. Each bad file becomes one
 * warning naming it; nothing stops discovery. A file that has not changed
 * since it was parsed comes from the definition cache instead (in memory, and
 * on disk across runs: `discovery/definition-cache.ts`).
 *
 * @example
 * ```ts
 * import os from "node:os";
 *
 * const found = await discoverAgents({ cwd: process.cwd(), home: os.homedir(), env: process.env });
 * getAgent(found.agents, "explore");
 * ```
 *
 * @module
 */
import { join } from "node:path";
import process from "node:process";
import pkg from "../../package.json" with { type: "json" };
import { buildIdentity, isCompiled } from "../runtime.ts";
import { cacheDir } from "./cache-dir.ts";
import { CacheFiles } from "./cache-files.ts";
import type { DefinitionCache } from "./definition-cache.ts";
import { type ConfigDir, type DiscoveryEnv, getConfigDirs } from "./config-dirs.ts";
import { codexToFields } from "./codex.ts";
import { withParsers } from "../formats/full-parsers.ts";
import { parseAgent, parseAgentFields } from "./agent-fields.ts";
import { mergeAgents, type ShadowedAgent } from "./merge.ts";
import { listClaudePluginRoots, type PluginListing } from "./plugins.ts";
import type { FileOutcome } from "./lint.ts";
import {
  type FolderRead,
  readDefinitionFolder,
  readDefinitionFolderChecked,
  readDefinitionFolderSigned,
  type SourceFile,
} from "./read-files.ts";
import { fillPrompt, isPromptAt, lacksPrompt, packPrompt, withPromptAt } from "./prompt-ref.ts";
import { loadBundledAgents } from "./bundled.ts";
import type { AgentDefinition, AgentFamily, AgentSource, Diagnostic } from "../types.ts";

export { getAgent } from "./merge.ts";
export type { ShadowedAgent } from "./merge.ts";

/** A folder discovery looked at, in precedence order. */
export interface SearchedFolder {
  family: AgentFamily;
  scope: "project" | "user";
  path: string;
  exists: boolean;
  /** Set when the path is there but gave nothing: `not a folder`, `unreadable (…)`. */
  problem?: string;
  plugin?: string;
  /** How many valid definitions it gave. */
  count: number;
}

export interface DiscoveryResult {
  agents: AgentDefinition[];
  shadowed: ShadowedAgent[];
  warnings: Diagnostic[];
  folders: SearchedFolder[];
  plugins: PluginListing;
}

interface Origin {
  family: AgentFamily;
  source: AgentSource;
  scope: "project" | "user";
  path: string;
  plugin?: string;
}

/** Joins one file's problems into a single warning line. */
function oneWarningPerFile(diags: readonly Diagnostic[]): Diagnostic[] {
  const byFile = new Map<string, Diagnostic[]>();
  const out: Diagnostic[] = [];
  for (const d of diags) {
    const key = d.file ?? "";
    if (!byFile.has(key)) byFile.set(key, []);
    byFile.get(key)!.push(d);
  }
  for (const [file, list] of byFile) {
    if (list.length === 1 || file === "") {
      out.push(...list);
      continue;
    }
    out.push({
      level: list.some((d) => d.level === "error") ? "error" : "warning",
      file,
      message: list.map((d) =>
        (d.field && !d.message.includes(`'${d.field}'`) ? `${d.field}: ` : "") + d.message
      )
        .join("; "),
    });
  }
  return out;
}

type FileOrigin = Omit<Origin, "path" | "scope">;
type FileParse = { agent?: AgentDefinition; warnings: Diagnostic[]; promptAt?: [number, number] };

/**
 * Parses of files already seen in this process, by path and origin. A long-
 * lived process (the MCP server, a child delegating again) rediscovers on
 * every call; an unchanged file is then not parsed again. Each discovery
 * keeps only the entries it used, so deleted files do not linger.
 */
const parseCache = new Map<string, { text: string; result: FileParse; generation: number }>();
/** Bumped by each discovery; entries a discovery did not touch are dropped after it. */
let generation = 0;

/**
 * Parses one file of a folder into an agent, or the reasons it was skipped.
 * The result is shared between calls for unchanged files: do not mutate it.
 */
export function parseAgentFile(file: SourceFile, origin: FileOrigin): FileParse {
  const key = `${file.path}\0${origin.source}\0${origin.family}\0${origin.plugin ?? ""}`;
  const cached = parseCache.get(key);
  if (cached && cached.text === file.text) {
    cached.generation = generation;
    return cached.result;
  }
  const result = parseAgentFileUncached(file, origin);
  parseCache.set(key, { text: file.text, result, generation });
  return result;
}

/** A file that gives no agent: its warnings, then why it was skipped. */
function skippedFile(warnings: readonly Diagnostic[], error: Diagnostic): FileParse {
  return {
    warnings: [...warnings, { ...error, level: "warning", message: `skipped: ${error.message}` }],
  };
}

function parseAgentFileUncached(file: SourceFile, origin: FileOrigin): FileParse {
  const base = {
    file: file.path,
    source: origin.source,
    family: origin.family,
    plugin: origin.plugin,
  };
  if (file.path.endsWith(".toml")) {
    const mapped = codexToFields(file.text);
    if (!mapped.ok) {
      return skippedFile([], { level: "error", file: file.path, message: mapped.reason });
    }
    const fields = parseAgentFields(mapped.fields, { file: file.path });
    if (!fields.ok) return skippedFile(fields.warnings, fields.error);
    const agent: AgentDefinition = {
      ...fields.value,
      systemPrompt: mapped.body.trim(),
      source: origin.source,
      filePath: file.path,
      family: origin.family,
    };
    return { agent, warnings: fields.warnings };
  }
  const parsed = parseAgent(file.text, base, "warn");
  if (!parsed.ok) return skippedFile(parsed.warnings, parsed.error);
  return { agent: parsed.value, warnings: parsed.warnings };
}

/** The file endings a folder of `family` holds definitions in. */
export function definitionExtensions(family: AgentFamily): string[] {
  return family === "codex" ? [".md", ".toml"] : [".md"];
}

/**
 * Reads one agents folder and parses each definition file in it: the folder's
 * own problems, and one outcome per file in byte order of name.
 */
export async function readAgentFolder(
  path: string,
  origin: FileOrigin,
): Promise<{ folder: FolderRead; outcomes: FileOutcome[] }> {
  const folder = await readDefinitionFolder(path, definitionExtensions(origin.family));
  // A file that needs the full YAML or TOML parser loads it and the folder is
  // parsed again; files already parsed come from the parse cache.
  const outcomes = await withParsers(() =>
    folder.files.map((file) => parseAgentOutcome(file, origin))
  );
  return { folder, outcomes };
}

/** One file's parse as the lint rules take it. */
export function parseAgentOutcome(file: SourceFile, origin: FileOrigin): FileOutcome {
  const r = parseAgentFile(file, origin);
  return { path: file.path, agent: r.agent, warnings: r.warnings };
}

/** Whether `a` has the shape of an agent definition (a cache file is outside input). */
function isAgent(a: unknown): a is AgentDefinition {
  const r = a as Record<string, unknown> | null;
  return typeof r === "object" && r !== null && typeof r.name === "string" &&
    typeof r.description === "string" && typeof r.systemPrompt === "string" &&
    typeof r.source === "string" && typeof r.family === "string";
}

/** Whether `v` has the shape of a {@link FileParse}. */
function isFileParse(v: unknown): v is FileParse {
  const p = v as { agent?: unknown; warnings?: unknown; promptAt?: unknown } | null;
  if (typeof p !== "object" || p === null || !Array.isArray(p.warnings)) return false;
  if (!isPromptAt(p.promptAt)) return false;
  if (!p.warnings.every((w) => typeof w?.message === "string" && typeof w?.level === "string")) {
    return false;
  }
  return p.agent === undefined || isAgent(p.agent);
}

function isAgentList(v: unknown): v is AgentDefinition[] {
  return Array.isArray(v) && v.every(isAgent);
}

/** The bundled agents, parsed once per build (kept in the definition cache). */
async function bundledAgents(
  cache: DefinitionCache<FileParse>,
): Promise<readonly AgentDefinition[]> {
  const kept = cache.constant("bundledAgents", isAgentList);
  if (kept) return kept;
  const parsed = await withParsers(loadBundledAgents);
  cache.setConstant("bundledAgents", parsed);
  return parsed;
}

let definitionCaches: CacheFiles<FileParse> | undefined;

/** The caches for `e` (see `discovery/cache-dir.ts`), one set per location. */
function cachesFor(e: DiscoveryEnv): CacheFiles<FileParse> {
  const base = cacheDir({
    env: e.env,
    home: e.home,
    platform: process.platform,
    compiled: isCompiled(),
  });
  // One folder per version, so that two installed versions do not keep
  // replacing each other's files.
  const dir = base === undefined ? undefined : join(base, `definitions-${pkg.version}`);
  if (definitionCaches === undefined || definitionCaches.dir !== dir) {
    definitionCaches = new CacheFiles(
      dir,
      `${pkg.version} ${buildIdentity()}`,
      isFileParse,
      packPrompt,
    );
  }
  return definitionCaches;
}

let saving: ReturnType<typeof setTimeout> | undefined;

/**
 * Writes the cache files once the caller is done with this turn of the event
 * loop: after `agents` has printed its output, while `run` waits for its
 * child. A process that ends at once still writes them (a pending timer keeps
 * it alive); several discoveries in a row write once.
 */
function saveSoon(caches: CacheFiles<FileParse>): void {
  if (caches.dir === undefined || saving !== undefined) return;
  saving = setTimeout(() => {
    saving = undefined;
    caches.save();
  }, 0);
}

function originKey(o: FileOrigin): string {
  return `${o.source}\0${o.family}\0${o.plugin ?? ""}`;
}

/**
 * Reads one agents folder for discovery, remembering each parse with the
 * signature of the file it came from. Without `check` the files are simply
 * read: for the first discovery of a process that has no cache files, where
 * nothing is known yet and nothing may be asked again. On the first
 * discovery of a process with cache files every file is read (the cache
 * keeps no prompts, see `prompt-ref.ts`) and an unchanged one is not parsed
 * again; its signature comes from the descriptor it was read from. Later
 * discoveries in the same process (`again`) look at each file (`stat`) first
 * and do not read one the cache holds complete.
 */
async function readOriginFolder(
  origin: Origin,
  caches: CacheFiles<FileParse>,
  check: boolean,
  again: boolean,
): Promise<{ folder: Omit<FolderRead, "files">; outcomes: FileOutcome[] }> {
  if (!check) return readAgentFolder(origin.path, origin);
  const key = originKey(origin);
  // Loaded only for a folder that has files.
  let loaded: DefinitionCache<FileParse> | undefined;
  // Plugin folders share one file; their origins name the plugin.
  const group = origin.family === "plugin" ? "(plugins)" : undefined;
  const cache = () => (loaded ??= caches.folder(origin.path, key, group));
  const known = new Map<string, FileParse>();
  const extensions = definitionExtensions(origin.family);
  const folder = again
    ? await readDefinitionFolderChecked(origin.path, extensions, (path, sig) => {
      const hit = cache().get(path, key, sig);
      if (hit && !lacksPrompt(hit)) known.set(path, hit);
      return known.has(path);
    })
    : await readDefinitionFolderSigned(origin.path, extensions);
  const outcomes = await withParsers(() =>
    folder.files.map((f): FileOutcome => {
      if ("known" in f) {
        const r = known.get(f.path)!;
        return { path: f.path, agent: r.agent, warnings: r.warnings };
      }
      let r: FileParse | undefined;
      if (f.signature) {
        const hit = cache().get(f.path, key, f.signature);
        r = hit && fillPrompt(hit, f.text);
        if (r && r !== hit) cache().complete(f.path, key, r);
      }
      if (!r) {
        r = parseAgentFile(f, origin);
        // Kept as the file will hold it: no copy to make when it is written.
        if (f.signature) {
          cache().set(f.path, key, f.signature, packPrompt(withPromptAt(r, f.text)));
        }
      }
      return { path: f.path, agent: r.agent, warnings: r.warnings };
    })
  );
  // Entries of files gone from the folder can only come from the file or an
  // earlier discovery: on a first run, every entry is one just read.
  if (loaded && (again || loaded.loadedEntries > 0)) {
    loaded.retainPaths(key, new Set(folder.files.map((f) => f.path)));
  }
  return { folder, outcomes };
}

async function readOrigin(
  origin: Origin,
  caches: CacheFiles<FileParse>,
  check: boolean,
  again: boolean,
): Promise<
  { agents: AgentDefinition[]; warnings: Diagnostic[]; exists: boolean; problem?: string }
> {
  const { folder, outcomes } = await readOriginFolder(origin, caches, check, again);
  const agents: AgentDefinition[] = [];
  const warnings = [...folder.warnings];
  for (const o of outcomes) {
    if (o.agent) agents.push(o.agent);
    for (const w of o.warnings) warnings.push(w);
  }
  return {
    agents,
    warnings,
    exists: folder.exists,
    ...(folder.problem ? { problem: folder.problem } : {}),
  };
}

function dirOrigin(d: ConfigDir): Origin {
  return { family: d.family, source: d.scope, scope: d.scope, path: d.path };
}

/** The agents folders in precedence order, plugin roots included. */
export function agentOrigins(
  e: DiscoveryEnv,
): { origins: Origin[]; plugins: PluginListing; warnings: Diagnostic[] } {
  const warnings: Diagnostic[] = [];
  const dirs = getConfigDirs("agents", e, { warnings });
  const plugins = listClaudePluginRoots(e);
  const origins: Origin[] = dirs.map(dirOrigin);
  for (const root of plugins.roots) {
    const scope = root.scope === "project" || root.scope === "local" ? "project" : "user";
    origins.push({
      family: "plugin",
      source: scope,
      scope,
      path: join(root.path, "agents"),
      plugin: root.id,
    });
  }
  return { origins, plugins, warnings };
}

/**
 * Discovers and merges every agent visible from `e.cwd`. Bundled agents come
 * last, so any file-based agent of the same name shadows them.
 */
export async function discoverAgents(e: DiscoveryEnv): Promise<DiscoveryResult> {
  const { origins, plugins, warnings: walked } = agentOrigins(e);
  const current = ++generation;
  const caches = cachesFor(e);
  // Signatures pay off when there are cache files, or a second discovery.
  const check = caches.dir !== undefined || generation > 1;
  const again = generation > 1;
  const reads = await Promise.all(origins.map((o) => readOrigin(o, caches, check, again)));
  for (const [key, entry] of parseCache) if (entry.generation < current) parseCache.delete(key);
  const bundled = await bundledAgents(caches.buildScoped());
  const { agents, shadowed } = mergeAgents([...reads.map((r) => r.agents), bundled]);
  const folders: SearchedFolder[] = origins.map((o, i) => ({
    family: o.family,
    scope: o.scope,
    path: o.path,
    exists: reads[i].exists,
    ...(reads[i].problem ? { problem: reads[i].problem } : {}),
    ...(o.plugin ? { plugin: o.plugin } : {}),
    count: reads[i].agents.length,
  }));
  const warnings = oneWarningPerFile([
    ...walked,
    ...plugins.warnings,
    ...reads.flatMap((r) => r.warnings),
  ]);
  saveSoon(caches);
  return { agents, shadowed, warnings, folders, plugins };
}
