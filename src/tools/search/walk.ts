/**
 * Which files a search visits: a depth-first walk below a directory, in byte
 * order of names, that skips `.git`, honours `.gitignore` files (those of the
 * enclosing repository above the start directory, found by the walk up of
 * `walk-up.ts`, and those met on the way),
 * never follows symlinked directories (no loops) and stops after a bounded
 * number of entries. Also the path helpers the file tools share.
 *
 * The walk lists each directory once with its entry types (no `stat` per
 * entry; only a symlink is followed, to tell a directory from a file) and
 * works synchronously in slices of a few milliseconds, giving the event loop
 * a turn between slices, so a search of a large tree neither waits on a
 * promise per entry nor blocks the process.
 *
 * @module
 */
import { type Dirent, lstatSync, readdirSync, readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { existsInfo, findUp } from "../../fs/walk-up.ts";
import { type IgnoreRule, isIgnored, parseGitignore } from "./gitignore.ts";
import { type Pacer, pacer } from "./pace.ts";

/** Entries visited before a walk gives up (bounds time on huge trees). */
export const MAX_WALK_ENTRIES = 200_000;

/** `p` made absolute against `cwd`. */
export function resolvePath(cwd: string, p: string | undefined): string {
  if (p === undefined || p === "") return cwd;
  return isAbsolute(p) ? resolve(p) : resolve(cwd, p);
}

/** `abs` relative to `cwd` with `/` separators, or absolute when outside it. */
export function displayPath(cwd: string, abs: string): string {
  const rel = relative(cwd, abs);
  if (rel === "") return ".";
  if (rel.startsWith("..") || isAbsolute(rel)) return abs.split(sep).join("/");
  return rel.split(sep).join("/");
}

/** True when the bytes look binary (a NUL in the first 8 KiB). */
export function looksBinary(buf: Uint8Array): boolean {
  return buf.subarray(0, 8192).indexOf(0) !== -1;
}

/**
 * The nearest ancestor of `dir` (inclusive) holding a `.git` the walk up
 * accepts (`walk-up.ts`: below the home folder, the user's or root's), if
 * any: another user's `.git` in a shared parent brings no `.gitignore` rules.
 * (The child's workspace already warned about what the walk ignored.)
 */
function gitRoot(dir: string): string | undefined {
  return findUp(dir, homedir(), ".git", existsInfo, [])?.dir;
}

function readIgnore(dir: string, base: string): IgnoreRule[] {
  try {
    return parseGitignore(readFileSync(join(dir, ".gitignore"), "utf8"), base);
  } catch {
    return [];
  }
}

function toPosix(p: string): string {
  return p.split(sep).join("/");
}

/**
 * One entry of a walk. The walk passes the same object each time, updated:
 * read what you need before returning.
 */
export interface WalkEntry {
  /** The directory holding the entry, with a trailing separator. */
  dir: string;
  name: string;
  /** The path relative to the start directory, with `/` separators. */
  rel: string;
  /** A directory, or a symlink to one (listed, never descended into). */
  isDir: boolean;
  /** A regular file, or a symlink to one: something a search can read. */
  isFile: boolean;
  /** A symlink (to a file, or to a folder that is listed but not entered). */
  isLink: boolean;
}

/** The absolute path of a walk entry. */
export function entryPath(e: WalkEntry): string {
  return e.dir + e.name;
}

export interface WalkOptions {
  signal?: AbortSignal;
  /** Entries visited before giving up (default {@link MAX_WALK_ENTRIES}). */
  maxEntries?: number;
  /** When to give the event loop a turn (default: after each slice of ./pace.ts). */
  pace?: Pacer;
}

/**
 * What an entry the listing could not classify is (a symlink, or an unknown
 * type), following a symlink; undefined when it is gone. Sets `e.isDir`,
 * `e.isFile`; returns whether it is a link.
 */
function classify(d: Dirent, e: WalkEntry, abs: string): boolean | undefined {
  e.isDir = e.isFile = false;
  let link = d.isSymbolicLink();
  if (!link) {
    if (d.isFIFO() || d.isSocket() || d.isCharacterDevice() || d.isBlockDevice()) return false;
    // An unknown type (some file systems do not report it).
    const st = lstatSync(abs, { throwIfNoEntry: false });
    if (st === undefined) return undefined;
    link = st.isSymbolicLink();
    if (!link) {
      e.isDir = st.isDirectory();
      e.isFile = st.isFile();
      return false;
    }
  }
  try {
    const target = statSync(abs, { throwIfNoEntry: false });
    e.isDir = target?.isDirectory() ?? false;
    e.isFile = target?.isFile() ?? false;
  } catch { /* a loop or no permission: listed as neither */ }
  return true;
}

const byName = (a: Dirent, b: Dirent) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * Calls `onEntry` for every file and directory below `start` (not `start`
 * itself) that is not ignored, in walk order, until it returns (or resolves
 * to) true. Resolves to whether the entry bound was hit.
 */
export async function walk(
  start: string,
  opts: WalkOptions,
  onEntry: (e: WalkEntry) => boolean | void | Promise<boolean | void>,
): Promise<{ truncated: boolean }> {
  const root = gitRoot(start) ?? start;
  // Rules of the directories from the repository root down to `start`.
  let rules: IgnoreRule[] = [];
  const chain: string[] = [];
  for (let d = start;; d = dirname(d)) {
    chain.unshift(d);
    if (d === root || dirname(d) === d) break;
  }
  for (const d of chain.slice(0, -1)) {
    rules = rules.concat(readIgnore(d, toPosix(relative(root, d))));
  }
  const startFromRoot = toPosix(relative(root, start));
  const rootPrefix = startFromRoot === "" ? "" : startFromRoot + "/";
  const pace = opts.pace ?? pacer();
  const maxEntries = opts.maxEntries ?? MAX_WALK_ENTRIES;
  let seen = 0;
  let truncated = false;
  let stopped = false;
  const entry: WalkEntry = {
    dir: "",
    name: "",
    rel: "",
    isDir: false,
    isFile: false,
    isLink: false,
  };

  async function visit(dir: string, rel: string, inherited: IgnoreRule[]): Promise<void> {
    let list: Dirent[];
    try {
      list = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    let here = inherited;
    if (list.some((d) => d.name === ".gitignore")) {
      here = inherited.concat(readIgnore(dir, rel === "" ? startFromRoot : rootPrefix + rel));
    }
    list.sort(byName);
    const absPrefix = dir.endsWith(sep) ? dir : dir + sep;
    const relPrefix = rel === "" ? "" : rel + "/";
    const checked = here.length > 0;
    for (const d of list) {
      if (stopped || opts.signal?.aborted) {
        stopped = true;
        return;
      }
      if (++seen > maxEntries) {
        truncated = stopped = true;
        return;
      }
      const name = d.name;
      if (name === ".git") continue;
      const entryRel = relPrefix + name;
      let link = false;
      if (d.isDirectory()) {
        entry.isDir = true;
        entry.isFile = false;
      } else if (d.isFile()) {
        entry.isDir = false;
        entry.isFile = true;
      } else {
        let kind;
        try {
          kind = classify(d, entry, absPrefix + name);
        } catch {
          continue;
        }
        if (kind === undefined) continue;
        link = kind;
      }
      const isDir = entry.isDir;
      if (checked && isIgnored(rootPrefix + entryRel, isDir, here)) continue;
      entry.dir = absPrefix;
      entry.name = name;
      entry.rel = entryRel;
      entry.isLink = link;
      let stop = onEntry(entry);
      if (stop instanceof Promise) stop = await stop;
      if (stop) {
        stopped = true;
        return;
      }
      if (isDir && !link) await visit(absPrefix + name, entryRel, here);
      if (pace.due()) await pace.breathe();
    }
  }
  await visit(start, "", rules);
  return { truncated };
}
