/**
 * Which definition cache file holds which folder's files.
 *
 * One file per agents folder (and one for what depends only on the build,
 * such as the bundled agents), so that a discovery reads the cache of the
 * folders it looks at and nothing else, however many projects the user has
 * worked in: a single file for all of them would be read whole by every run.
 * The Claude plugins' folders, all in the user's plugin cache, share one
 * file: a first run then creates one file for them instead of one per
 * plugin (creating a file can cost more than writing it).
 * A file is named by a hash of its folder and origin and says inside which
 * folder it is for, so a hash collision only costs a cache miss. Folders are
 * loaded on first use and {@link CacheFiles.save} writes the ones that
 * changed.
 *
 * @example
 * ```ts
 * import type { FileSignature } from "./file-signature.ts";
 *
 * declare function isParse(v: unknown): v is { name: string };
 * declare const sig: FileSignature;
 * const path = "/repo/.claude/agents/explore.md";
 * const files = new CacheFiles("/home/me/.cache/xcsh/definitions-0.1.0", "0.1.0 build", isParse);
 * files.folder("/repo/.claude/agents", "project claude").get(path, "project claude", sig);
 * files.save();
 * ```
 *
 * @module
 */
import { join } from "node:path";
import { DefinitionCache } from "./definition-cache.ts";

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
   * The cache of the definitions in `folder`, read as `origin`; with `group`,
   * the one cache that every folder of that group shares (`origin` must then
   * tell the folders apart: each keeps to its own entries).
   */
  folder(folder: string, origin: string, group?: string): DefinitionCache<T> {
    return this.load(group ?? `${origin}\0${folder}`);
  }

  /** The cache of values that depend only on the build. */
  buildScoped(): DefinitionCache<T> {
    return this.load("(build)");
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
