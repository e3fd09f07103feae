/**
 * Which definition cache file holds which folder's files.
 *
 * One file per place a discovery reads from: the user's, and each project's.
 * The user's file holds the user's own agents folders, the Claude plugins'
 * and what depends only on the build (the bundled agents, parsed): every
 * discovery reads all of them, whatever its project. A project's file holds
 * the project folders found in one folder (`<dir>/.claude/agents`,
 * `<dir>/.xcsh/agents`, …). So a discovery reads the caches of the places it
 * looks at and nothing else, however many projects the user has worked in
 * (a single file for all of them would be read whole by every run), and a
 * warm run opens two files, not one per folder; a first run creates two
 * (creating a file can cost more than writing it).
 * A file is named by a hash of its scope and says inside which scope it is
 * for, so a hash collision only costs a cache miss. Files are loaded on
 * first use and {@link CacheFiles.save} writes the ones that changed.
 *
 * @example
 * ```ts
 * import type { FileSignature } from "./file-signature.ts";
 *
 * declare function isParse(v: unknown): v is { name: string };
 * declare const sig: FileSignature;
 * const path = "/repo/.claude/agents/explore.md";
 * const files = new CacheFiles("/home/me/.cache/xcsh/definitions-0.1.0", "0.1.0 build", isParse);
 * const folder = { path: "/repo/.claude/agents", source: "project", family: "claude" };
 * files.folder(folder).get(path, "project claude", sig);
 * files.save();
 * ```
 *
 * @module
 */
import { join } from "node:path";
import { projectFolderOf } from "./config-dirs.ts";
import { DefinitionCache } from "./definition-cache.ts";

/** The scope of the user's file: the user's folders, the plugins' and the build's values. */
export const USER_SCOPE = "(user)";

/** A folder of definition files, as the caches place it. */
export interface CachedFolder {
  path: string;
  source: string;
  family: string;
}

/** The scope of the file that holds the entries of `folder`'s files. */
export function scopeOf(folder: CachedFolder): string {
  const project = projectFolderOf(folder);
  return project === undefined ? USER_SCOPE : `project\0${project}`;
}

/** A 64-bit FNV-1a hash of `s`, as 16 hexadecimal digits. Not for security. */
export function hashName(s: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
  }
  return a.toString(16).padStart(8, "0") + b.toString(16).padStart(8, "0");
}

export class CacheFiles<T> {
  private readonly caches = new Map<string, DefinitionCache<T>>();

  /**
   * Caches under `dir` (none: memory only) for build `build`; `pack` says
   * what of a value the files keep (see {@link DefinitionCache.load}).
   */
  constructor(
    readonly dir: string | undefined,
    readonly build: string,
    private readonly valid: (v: unknown) => v is T,
    private readonly pack?: (v: T) => unknown,
  ) {}

  private load(scope: string): DefinitionCache<T> {
    let cache = this.caches.get(scope);
    if (!cache) {
      const file = this.dir === undefined ? undefined : join(this.dir, `${hashName(scope)}.json`);
      cache = DefinitionCache.load(file, this.build, this.valid, scope, this.pack);
      this.caches.set(scope, cache);
    }
    return cache;
  }

  /**
   * The cache that holds the definitions in `folder`, shared with the other
   * folders of its scope ({@link scopeOf}): entries are keyed by path.
   */
  folder(folder: CachedFolder): DefinitionCache<T> {
    return this.load(scopeOf(folder));
  }

  /** The cache of values that depend only on the build (the user's file). */
  buildScoped(): DefinitionCache<T> {
    return this.load(USER_SCOPE);
  }

  /** Whether a cache changed since it was loaded or last written. */
  get changed(): boolean {
    for (const cache of this.caches.values()) if (cache.changed) return true;
    return false;
  }

  /** Writes every cache that changed. */
  save(): void {
    for (const cache of this.caches.values()) cache.save();
  }
}
