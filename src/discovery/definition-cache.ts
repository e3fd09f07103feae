/**
 * Remembers what definition files parsed to, keyed by path and origin and
 * trusted only while a file's signature is unchanged (see
 * `file-signature.ts`), so discovery neither reads nor parses it again: in
 * memory for a long-lived process (the MCP server), and in a file on disk so
 * that each new `xcsh` process starts warm (`cache-files.ts` decides which
 * file holds which folder).
 *
 * It also keeps values that only depend on the build (the bundled agents,
 * parsed). A file belongs to one build (a different build starts empty, as
 * its parsing rules may differ) and one scope; it is written whole to a
 * temporary file and renamed (concurrent processes never see half a file;
 * the last writer wins), is private to the user (0600 in a 0700 folder), and
 * drops entries not used for {@link MAX_IDLE_DAYS} days. Every failure to
 * read or write it is silent: the cache only ever saves time.
 *
 * @example
 * ```ts
 * import type { FileSignature } from "./file-signature.ts";
 *
 * type Parse = { name: string };
 * declare function isValid(v: unknown): v is Parse;
 * declare function parse(text: string): Parse;
 * declare const sig: FileSignature;
 * const [path, origin, text] = ["/repo/.xcsh/agents/a.md", "project xcsh", "---\nname: a\n---\n"];
 * const cache = DefinitionCache.load("/home/me/.cache/xcsh/x.json", "0.1.0", isValid);
 * cache.get(path, origin, sig) ?? cache.set(path, origin, sig, parse(text));
 * cache.save();
 * ```
 *
 * @module
 */
import { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, sep } from "node:path";
import process from "node:process";
import {
  type FileSignature,
  packSignature,
  sameSignature,
  unpackSignature,
} from "./file-signature.ts";

/** Entries unused for this many days are dropped when the file is written. */
export const MAX_IDLE_DAYS = 30;

/**
 * The format of the file; a different one starts empty. Format 2 keeps the
 * entries as an array of `[key, signature, day, value]` (an object with
 * thousands of keys made `JSON.stringify` and `JSON.parse` about three times
 * slower).
 */
const FORMAT = 2;

interface Entry<T> {
  sig: FileSignature;
  value: T;
  /** Day (since the epoch) of the last use. */
  used: number;
  /** Loaded from the file and not yet checked. */
  unchecked?: boolean;
}

function today(): number {
  return Math.floor(Date.now() / 86_400_000);
}

export class DefinitionCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  /**
   * The keys by folder (`origin\0folder`, the folder ending in a separator),
   * each by path: built by the first {@link retainFolders}, then kept.
   */
  private byFolder?: Map<string, Map<string, string>>;
  private readonly constants = new Map<string, unknown>();
  private dirty = false;
  /** Entries the file held when it was loaded. */
  private fromFile = 0;
  private valid: (v: unknown) => v is T = (_v): _v is T => true;
  /** What of a value the file keeps (all of it unless set). */
  private pack: (v: T) => unknown = (v) => v;

  /**
   * A cache kept at `file` (none: memory only) for build `build`; `scope` says
   * what the file is for (a folder), and a file for another scope is not used.
   */
  constructor(
    readonly file: string | undefined,
    readonly build: string,
    readonly scope = "",
  ) {}

  /**
   * Loads `file`, keeping the entries whose value passes `valid`. A missing,
   * unreadable, corrupt, other-build or other-scope file gives an empty cache.
   * `pack` says what of a value is written to the file (for instance without
   * the parts that can be taken from the file itself again); `valid` must
   * accept its result, and packing a packed value must give it back.
   */
  static load<T>(
    file: string | undefined,
    build: string,
    valid: (v: unknown) => v is T,
    scope = "",
    pack?: (v: T) => unknown,
  ): DefinitionCache<T> {
    const cache = new DefinitionCache<T>(file, build, scope);
    if (pack) cache.pack = pack;
    if (file === undefined) return cache;
    let doc: unknown;
    try {
      doc = JSON.parse(readFileSync(file, "utf8"));
    } catch {
      return cache;
    }
    const d = doc as {
      format?: unknown;
      build?: unknown;
      scope?: unknown;
      entries?: unknown;
      constants?: unknown;
    };
    if (
      d?.format !== FORMAT || d.build !== build || (d.scope ?? "") !== scope ||
      !Array.isArray(d.entries)
    ) {
      return cache;
    }
    cache.valid = valid;
    for (const raw of d.entries as unknown[]) {
      if (!Array.isArray(raw) || raw.length !== 4) continue;
      // Indexed, not destructured: cheaper before the JIT warms up.
      const key = raw[0], used = raw[2], value = raw[3];
      const sig = unpackSignature(raw[1]);
      if (typeof key !== "string" || !sig || typeof used !== "number") continue;
      // The value is checked when it is first used, not for every entry here.
      cache.entries.set(key, { sig, value: value as T, used, unchecked: true });
    }
    cache.fromFile = cache.entries.size;
    if (typeof d.constants === "object" && d.constants !== null) {
      for (const [key, value] of Object.entries(d.constants)) cache.constants.set(key, value);
    }
    return cache;
  }

  /** An entry's key: `origin\0path` (an origin may hold NULs, a path none). */
  private static key(path: string, origin: string): string {
    return `${origin}\0${path}`;
  }

  /** The path of a key's file. */
  private static pathOf(key: string): string {
    return key.slice(key.lastIndexOf("\0") + 1);
  }

  /**
   * The key {@link retainFolders} names folder `folder` of `origin` by:
   * `origin\0folder`, the folder ending in the platform's separator.
   */
  static folderKey(folder: string, origin: string): string {
    return DefinitionCache.key(folder, origin);
  }

  /** The folder key of a key's file. */
  private static folderOf(key: string): string {
    return key.slice(0, key.lastIndexOf(sep) + 1);
  }

  /** Puts `key` in the folder index, when there is one. */
  private indexed(key: string): void {
    if (!this.byFolder) return;
    const folder = DefinitionCache.folderOf(key);
    let files = this.byFolder.get(folder);
    if (!files) this.byFolder.set(folder, files = new Map());
    files.set(DefinitionCache.pathOf(key), key);
  }

  /** Removes the entry of `key`, from the folder index too. */
  private forget(key: string): void {
    this.entries.delete(key);
    if (!this.byFolder) return;
    this.byFolder.get(DefinitionCache.folderOf(key))?.delete(DefinitionCache.pathOf(key));
  }

  /** The value stored for `path` from `origin` if the file still has `sig`. */
  get(path: string, origin: string, sig: FileSignature): T | undefined {
    const key = DefinitionCache.key(path, origin);
    const e = this.entries.get(key);
    if (!e || !sameSignature(e.sig, sig)) return undefined;
    if (e.unchecked) {
      if (!this.valid(e.value)) {
        this.forget(key);
        return undefined;
      }
      e.unchecked = false;
    }
    const day = today();
    if (e.used !== day) {
      e.used = day;
      this.dirty = true;
    }
    return e.value;
  }

  /** Stores `value` for `path` from `origin` with its (settled) signature. */
  set(path: string, origin: string, sig: FileSignature, value: T): void {
    const key = DefinitionCache.key(path, origin);
    if (!this.entries.has(key)) this.indexed(key);
    this.entries.set(key, { sig, value, used: today() });
    this.dirty = true;
  }

  /**
   * Puts `value` in place of the value of the entry for `path` from `origin`
   * without marking the file changed: for a value completed in memory from
   * what the file keeps (it packs back to the same).
   */
  complete(path: string, origin: string, value: T): void {
    const e = this.entries.get(DefinitionCache.key(path, origin));
    if (e) e.value = value;
  }

  /**
   * Forgets the entries of files gone from the folders a discovery read:
   * `read` gives each folder read, by its {@link folderKey}, with the paths
   * of the files it holds now; an entry of that origin in that folder whose
   * path is not among them goes. The first call indexes the entries by
   * folder, so each later one looks only at the folders read.
   */
  retainFolders(read: ReadonlyMap<string, ReadonlySet<string>>): void {
    if (read.size === 0) return;
    if (!this.byFolder) {
      this.byFolder = new Map();
      for (const key of this.entries.keys()) this.indexed(key);
    }
    for (const [folder, paths] of read) {
      const files = this.byFolder.get(folder);
      if (!files) continue;
      for (const [path, key] of files) {
        if (!paths.has(path)) {
          this.forget(key);
          this.dirty = true;
        }
      }
    }
  }

  /** A value stored for this build under `key`, if it passes `valid`. */
  constant<V>(key: string, valid: (v: unknown) => v is V): V | undefined {
    const v = this.constants.get(key);
    return v !== undefined && valid(v) ? v : undefined;
  }

  /** Stores a value that depends only on the build. */
  setConstant(key: string, value: unknown): void {
    this.constants.set(key, value);
    this.dirty = true;
  }

  /** How many entries the file held when it was loaded. */
  get loadedEntries(): number {
    return this.fromFile;
  }

  /** How many entries it holds (checked or not). */
  get size(): number {
    return this.entries.size;
  }

  /** Whether something changed since the file was loaded or last written. */
  get changed(): boolean {
    return this.dirty && this.file !== undefined;
  }

  /** Writes the file when something changed since it was loaded or last written. */
  save(): void {
    const file = this.file;
    if (!this.changed || file === undefined) return;
    this.dirty = false;
    const oldest = today() - MAX_IDLE_DAYS;
    const entries: unknown[] = [];
    for (const [key, e] of this.entries) {
      if (e.used < oldest || (e.unchecked && !this.valid(e.value))) {
        this.forget(key);
        continue;
      }
      entries.push([key, packSignature(e.sig), e.used, this.pack(e.value)]);
    }
    const constants = Object.fromEntries(this.constants);
    const text = JSON.stringify({
      format: FORMAT,
      build: this.build,
      scope: this.scope,
      constants,
      entries,
    });
    const tmp = `${file}.${process.pid}.tmp`;
    try {
      try {
        writeFileSync(tmp, text, { mode: 0o600 });
      } catch (err) {
        // The folder is made only when it is missing (a first run, or removed).
        if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
        mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
        writeFileSync(tmp, text, { mode: 0o600 });
      }
      renameSync(tmp, file);
    } catch {
      // A read-only home, a full disk: run without the file.
      try {
        unlinkSync(tmp);
      } catch {
        // nothing was written
      }
    }
  }
}
