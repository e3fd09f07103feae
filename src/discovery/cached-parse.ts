/**
 * Definition files parsed once: what a file parses to is kept, and a file
 * that has not changed since is not parsed again.
 *
 * Decides the three places a parse is kept and when each is trusted:
 * - in memory, by path, origin and text, for every file a process parsed
 *   (a long-lived process, the MCP server or a child delegating again,
 *   rediscovers on every call). Each discovery keeps only the entries it
 *   used, so deleted files do not linger.
 * - on disk across runs (`definition-cache.ts`, in the files `cache-files.ts`
 *   chooses: the user's and each project's), by path, origin and the file's
 *   signature (`file-signature.ts`), its prompt kept as a reference
 *   (`prompt-ref.ts`).
 * - the bundled agents, once per build.
 *
 * How much of a folder is read depends on what is known: the first
 * discovery of a process that has no cache files just reads and parses
 * (nothing is known yet, and nothing may be asked again); the first one
 * with cache files reads every file (the cache keeps no prompts) and does
 * not parse an unchanged one, its signature coming from the descriptor it
 * was read from; later discoveries in the same process look at each file
 * (`stat`) first and do not read one the cache holds complete. A discovery
 * that lists agents without their prompts (`xcsh agents`) looks at each file
 * first too, and does not read one the cache holds at all: its agents come
 * with empty prompts.
 *
 * A parse that needs a full parser not loaded yet loads it and parses that
 * file again (`formats/full-parsers.ts`); nothing is kept before a parse
 * has given its result. The definition parser itself (`agent-file.ts`, with
 * the field readers and the bundled agents' files) loads at the first file
 * no cache holds: a discovery that finds every file in its caches never
 * loads it.
 *
 * @example
 * ```ts
 * import os from "node:os";
 * import process from "node:process";
 *
 * const e = { cwd: process.cwd(), home: os.homedir(), env: process.env };
 * const round = startRound(e);
 * const origin = { family: "xcsh", source: "project", path: ".xcsh/agents" } as const;
 * const { outcomes } = await readCachedFolder(origin, round);
 * await cachedBundledAgents(round);
 * finishRound(round);
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
import { DefinitionCache } from "./definition-cache.ts";
import { definitionExtensions, type DiscoveryEnv, projectFolderOf } from "./config-dirs.ts";
import { isNeedsParser, type NeedsParser, parseOnDemand } from "../formats/full-parsers.ts";
import type { FileOrigin, FileParse } from "./agent-file.ts";
import type { FileOutcome } from "./lint.ts";
import {
  childPrefix,
  type FolderRead,
  readDefinitionFolder,
  readDefinitionFolderChecked,
  readDefinitionFolderSigned,
  type SignedFile,
  type SourceFile,
} from "./read-files.ts";
import { fillPrompt, isPromptAt, lacksPrompt, packPrompt, withPromptAt } from "./prompt-ref.ts";
import type { AgentDefinition } from "../types.ts";

/** An agents folder and what its files' agents are labelled with. */
export interface FolderOrigin extends FileOrigin {
  path: string;
}

/** One discovery's use of the caches (see the module comment). */
export interface DiscoveryRound {
  readonly caches: CacheFiles<FileParse>;
  /** Whether files are signed and looked up on disk. */
  readonly check: boolean;
  /** Whether an earlier discovery of this process ran: files are looked at before reading. */
  readonly again: boolean;
  /** Whether the agents need their prompts (false: a listing, whose prompts stay empty). */
  readonly prompts: boolean;
  readonly generation: number;
  /**
   * By cache, the folders read (by `DefinitionCache.folderKey`) with their
   * files' paths: at the end, each cache forgets the files gone from them.
   */
  readonly gone: Map<DefinitionCache<FileParse>, Map<string, Set<string>>>;
}

/** Parses kept in memory, by path and origin (see the module comment). */
const parseCache = new Map<string, { text: string; result: FileParse; generation: number }>();
/** Bumped by each discovery; entries a discovery did not touch are dropped after it. */
let generation = 0;

/**
 * Starts a discovery: which caches it uses and how far it trusts them;
 * `prompts: false` for a listing that shows no prompt.
 */
export function startRound(e: DiscoveryEnv, { prompts = true } = {}): DiscoveryRound {
  const current = ++generation;
  const caches = cachesFor(e);
  // Signatures pay off when there are cache files, or a second discovery.
  return {
    caches,
    check: caches.dir !== undefined || current > 1,
    again: current > 1,
    prompts,
    generation: current,
    gone: new Map(),
  };
}

/**
 * Ends a discovery: drops what it did not use from memory, makes the cache
 * files forget the files gone from the folders it read, and writes them soon.
 */
export function finishRound(round: DiscoveryRound): void {
  for (const [key, entry] of parseCache) {
    if (entry.generation < round.generation) parseCache.delete(key);
  }
  for (const [cache, read] of round.gone) cache.retainFolders(read);
  saveSoon(round.caches);
}

/** The definition parser, once a file no cache held needed it. */
let parser: typeof import("./agent-file.ts") | undefined;

/** Loads the definition parser (`agent-file.ts`); {@link cachedParse} needs it. */
export async function loadDefinitionParser(): Promise<void> {
  parser ??= await import("./agent-file.ts");
}

/**
 * What `file` parses to at `origin`, from memory when the same text was
 * parsed before (the definition parser loaded first: {@link
 * loadDefinitionParser}). The result is shared between calls: do not
 * mutate it.
 */
export function cachedParse(file: SourceFile, origin: FileOrigin): FileParse | NeedsParser {
  const key = `${file.path}\0${origin.source}\0${origin.family}\0${origin.plugin ?? ""}`;
  const cached = parseCache.get(key);
  if (cached && cached.text === file.text) {
    cached.generation = generation;
    return cached.result;
  }
  if (!parser) throw new Error("a definition was parsed before the parser was loaded");
  const result = parser.parseAgentFile(file, origin);
  if (!isNeedsParser(result)) parseCache.set(key, { text: file.text, result, generation });
  return result;
}

/** The parse of the file at `path` as the lint rules take it. */
function outcomeOf(path: string, r: FileParse): FileOutcome {
  return { path, agent: r.agent, ...(r.more ? { more: r.more } : {}), warnings: r.warnings };
}

/** One file's parse as the lint rules take it, loading a full parser if it needs one. */
export async function agentOutcome(file: SourceFile, origin: FileOrigin): Promise<FileOutcome> {
  await loadDefinitionParser();
  return outcomeOf(file.path, await parseOnDemand(() => cachedParse(file, origin)));
}

/**
 * Reads one agents folder and parses each definition file in it: the folder's
 * own problems, and one outcome per file in byte order of name. With
 * `within` (a project's folder), files leading outside it are skipped.
 */
export async function readAgentFolder(
  path: string,
  origin: FileOrigin,
  within?: string,
): Promise<{ folder: FolderRead; outcomes: FileOutcome[] }> {
  const folder = await readDefinitionFolder(path, definitionExtensions(origin.family), within);
  if (folder.files.length > 0) await loadDefinitionParser();
  const outcomes: FileOutcome[] = [];
  for (const file of folder.files) {
    let r = cachedParse(file, origin);
    if (isNeedsParser(r)) r = await parseOnDemand(() => cachedParse(file, origin));
    outcomes.push(outcomeOf(file.path, r));
  }
  return { folder, outcomes };
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
  const p = v as
    | { agent?: unknown; more?: unknown; warnings?: unknown; promptAt?: unknown }
    | null;
  if (typeof p !== "object" || p === null || !Array.isArray(p.warnings)) return false;
  if (!isPromptAt(p.promptAt)) return false;
  if (!p.warnings.every((w) => typeof w?.message === "string" && typeof w?.level === "string")) {
    return false;
  }
  if (p.more !== undefined && !isAgentList(p.more)) return false;
  return p.agent === undefined || isAgent(p.agent);
}

function isAgentList(v: unknown): v is AgentDefinition[] {
  return Array.isArray(v) && v.every(isAgent);
}

/** The bundled agents, parsed once per build (kept with the definition caches). */
export async function cachedBundledAgents(
  round: DiscoveryRound,
): Promise<readonly AgentDefinition[]> {
  const cache = round.caches.buildScoped();
  const kept = cache.constant("bundledAgents", isAgentList);
  if (kept) return kept;
  const agents = await (await import("./bundled.ts")).loadBundledAgents();
  cache.setConstant("bundledAgents", agents);
  return agents;
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
 * it alive); several discoveries in a row write once, and one that changed
 * nothing sets no timer.
 */
function saveSoon(caches: CacheFiles<FileParse>): void {
  if (caches.dir === undefined || saving !== undefined || !caches.changed) return;
  saving = setTimeout(() => {
    saving = undefined;
    caches.save();
  }, 0);
}

function originKey(o: FileOrigin): string {
  return `${o.source}\0${o.family}\0${o.plugin ?? ""}`;
}

/**
 * What a file read with its signature parses to: from the disk cache when
 * its signature is the one kept (the prompt filled in from the text just
 * read), else parsed and kept there; undefined when it must be parsed and
 * the definition parser is not loaded yet.
 */
function signedParse(
  f: SignedFile,
  origin: FileOrigin,
  key: string,
  cache: () => DefinitionCache<FileParse>,
): FileParse | NeedsParser | undefined {
  if (!f.signature) return parser ? cachedParse(f, origin) : undefined;
  const hit = cache().get(f.path, key, f.signature);
  const filled = hit && fillPrompt(hit, f.text);
  if (filled) {
    if (filled !== hit) cache().complete(f.path, key, filled);
    return filled;
  }
  if (!parser) return undefined;
  const r = cachedParse(f, origin);
  // Kept as the file will hold it: no copy to make when it is written.
  if (!isNeedsParser(r)) cache().set(f.path, key, f.signature, packPrompt(withPromptAt(r, f.text)));
  return r;
}

/**
 * Reads one agents folder for a discovery, each file through the caches
 * (see the module comment for how much is read).
 */
export async function readCachedFolder(
  origin: FolderOrigin,
  round: DiscoveryRound,
): Promise<{ folder: Omit<FolderRead, "files">; outcomes: FileOutcome[] }> {
  if (!round.check) return readAgentFolder(origin.path, origin, projectFolderOf(origin));
  const key = originKey(origin);
  // Loaded only for a folder that has files.
  let loaded: DefinitionCache<FileParse> | undefined;
  const cache = () => (loaded ??= round.caches.folder(origin));
  const known = new Map<string, FileParse>();
  const extensions = definitionExtensions(origin.family);
  const within = projectFolderOf(origin);
  const folder = round.again || !round.prompts
    ? await readDefinitionFolderChecked(
      origin.path,
      extensions,
      (path, sig) => {
        const hit = cache().get(path, key, sig);
        if (hit && (!round.prompts || !lacksPrompt(hit))) known.set(path, hit);
        return known.has(path);
      },
      Date.now,
      within,
    )
    : await readDefinitionFolderSigned(origin.path, extensions, Date.now, within);
  const outcomes: FileOutcome[] = [];
  for (const f of folder.files) {
    let r: FileParse | NeedsParser;
    if ("known" in f) r = known.get(f.path)!;
    else {
      let parsed = signedParse(f, origin, key, cache);
      if (parsed === undefined) {
        await loadDefinitionParser();
        parsed = signedParse(f, origin, key, cache)!;
      }
      r = parsed;
      // Waits only for the rare file that needs a full parser loaded.
      if (isNeedsParser(r)) r = await parseOnDemand(() => signedParse(f, origin, key, cache)!);
    }
    outcomes.push(outcomeOf(f.path, r));
  }
  // Entries of files gone from the folder can only come from the file or an
  // earlier discovery: on a first run, every entry is one just read.
  if (loaded && (round.again || loaded.loadedEntries > 0)) {
    let read = round.gone.get(loaded);
    if (!read) round.gone.set(loaded, read = new Map());
    read.set(
      DefinitionCache.folderKey(childPrefix(origin.path), key),
      new Set(folder.files.map((f) => f.path)),
    );
  }
  return { folder, outcomes };
}
