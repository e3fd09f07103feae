/**
 * Reference copy: the implementation before the search speed-up, kept
 * unchanged so equivalence tests can compare its results with the current
 * tools on generated trees. Not used by xcsh itself.
 *
 * Which files a search visits: a depth-first walk below a directory, in byte
 * order of names, that skips `.git`, honours `.gitignore` files (those of the
 * enclosing repository above the start directory, and those met on the way),
 * never follows symlinked directories (no loops) and stops after a bounded
 * number of entries. Also the path helpers the file tools share.
 *
 * @module
 */
import { lstat, readdir, readFile, stat } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { type IgnoreRule, isIgnored, parseGitignore } from "./gitignore.ts";

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
  const n = Math.min(buf.length, 8192);
  for (let i = 0; i < n; i++) if (buf[i] === 0) return true;
  return false;
}

/** The nearest ancestor of `dir` (inclusive) that holds `.git`, if any. */
async function gitRoot(dir: string): Promise<string | undefined> {
  let d = dir;
  for (;;) {
    try {
      await stat(join(d, ".git"));
      return d;
    } catch { /* keep going up */ }
    const parent = dirname(d);
    if (parent === d) return undefined;
    d = parent;
  }
}

async function readIgnore(dir: string, base: string): Promise<IgnoreRule[]> {
  try {
    return parseGitignore(await readFile(join(dir, ".gitignore"), "utf8"), base);
  } catch {
    return [];
  }
}

function toPosix(p: string): string {
  return p.split(sep).join("/");
}

export interface WalkEntry {
  abs: string;
  isDir: boolean;
  /** A symlink (to a file, or to a folder that is listed but not entered). */
  isLink?: boolean;
}

export interface WalkOptions {
  signal?: AbortSignal;
  /** Stop early (e.g. once enough results are found). */
  shouldStop?: () => boolean;
}

/**
 * Yields every file and directory below `start` (not `start` itself) that is
 * not ignored. `truncated()` on the returned object says whether the entry
 * bound was hit.
 */
export function walk(start: string, opts: WalkOptions = {}): {
  entries: AsyncGenerator<WalkEntry>;
  truncated: () => boolean;
} {
  let truncated = false;
  async function* gen(): AsyncGenerator<WalkEntry> {
    const root = (await gitRoot(start)) ?? start;
    // Rules of the directories from the repository root down to `start`.
    let rules: IgnoreRule[] = [];
    const chain: string[] = [];
    for (let d = start;; d = dirname(d)) {
      chain.unshift(d);
      if (d === root || dirname(d) === d) break;
    }
    for (const d of chain.slice(0, -1)) {
      rules = rules.concat(await readIgnore(d, toPosix(relative(root, d))));
    }
    let seen = 0;
    async function* visit(dir: string, inherited: IgnoreRule[]): AsyncGenerator<WalkEntry> {
      const rel = toPosix(relative(root, dir));
      const here = inherited.concat(await readIgnore(dir, rel));
      let names: string[];
      try {
        names = (await readdir(dir)).sort();
      } catch {
        return;
      }
      for (const name of names) {
        if (opts.signal?.aborted || opts.shouldStop?.()) return;
        if (++seen > MAX_WALK_ENTRIES) {
          truncated = true;
          return;
        }
        if (name === ".git") continue;
        const abs = join(dir, name);
        let isDir = false;
        let isLink = false;
        try {
          const st = await lstat(abs);
          if (st.isSymbolicLink()) {
            isDir = false; // a symlink is listed, never descended into
            isLink = true;
            const target = await stat(abs).catch(() => undefined);
            if (target?.isDirectory()) {
              if (!isIgnored(toPosix(relative(root, abs)), true, here)) {
                yield { abs, isDir: true, isLink };
              }
              continue;
            }
          } else {
            isDir = st.isDirectory();
          }
        } catch {
          continue;
        }
        if (isIgnored(toPosix(relative(root, abs)), isDir, here)) continue;
        yield isLink ? { abs, isDir, isLink } : { abs, isDir };
        if (isDir) yield* visit(abs, here);
      }
    }
    yield* visit(start, rules);
  }
  return { entries: gen(), truncated: () => truncated };
}
