/**
 * Which folders a walk up from the working directory may use: the one rule
 * every upward lookup shares (the project root's `.git` and marker folders,
 * the project's agents, commands and skills folders, `.xcsh/config.yml`,
 * `.mcp.json`, Claude settings, instruction files).
 *
 * Decides:
 * - the folders visited ({@link walkUpDirs}): the working directory, then
 *   each parent, nearest first. When the working directory is inside
 *   `$HOME` (as written, or its real path) the walk stops below it: `$HOME`
 *   and the folders above it are never visited (`~/.claude`, `~/.git` are
 *   the user's own, read as such, never as a project's). Outside `$HOME` it
 *   goes up to `/`.
 * - whether something found there counts ({@link foundProblem}): the folder
 *   it was found in and every path from there down to it must pass the
 *   owner and mode rule of `file-safety.ts` (`ownershipProblem`: the user's
 *   own or root's, and not writable by its group or by everyone unless the
 *   sticky bit is set), and a symlink on the way must be the user's or
 *   root's too. `/tmp` (root's, sticky) passes; `/tmp/x/.claude` made by
 *   another user does not.
 * - what a refusal does: the find counts as absent, the walk goes on, and
 *   one warning names what was ignored and why.
 *
 * @example
 * ```ts
 * import type { Diagnostic } from "../types.ts";
 *
 * walkUpFrom("/home/ada/src/app", ["/home/ada"]); // ["/home/ada/src/app", "/home/ada/src"]
 * const warnings: Diagnostic[] = [];
 * findUp("/tmp/p/q", "/home/ada", ".claude/agents", isFolderInfo, warnings);
 * // undefined, with a warning for /tmp/.claude/agents:
 * // "in /tmp/.claude, which is owned by another user (uid 4242); ignored: …"
 * ```
 *
 * @module
 */
import { lstatSync, realpathSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { currentUid, ownershipHint, ownershipProblem } from "./file-safety.ts";
import { isInside } from "./path-inside.ts";
import type { Diagnostic } from "../types.ts";

/** What the rule needs to know about one path. */
export interface PathInfo {
  uid: number;
  gid?: number;
  mode: number;
  isDirectory: boolean;
  isFile: boolean;
  /** The owner of the path itself when it is a symlink (the rest describes its target). */
  linkUid?: number;
}

/** Looks at one path; undefined when it does not exist. */
export type Inspect = (path: string) => PathInfo | undefined;

/**
 * The folders a walk up from `cwd` visits, nearest first (see the module
 * comment). Pure: `homes` are the spellings of the home folder to stop at
 * ({@link homeSpellings} gives them on the disk).
 */
export function walkUpFrom(cwd: string, homes: readonly string[]): string[] {
  const start = resolve(cwd);
  const stop = homes.find((h) => isInside(start, [h]));
  const out: string[] = [];
  for (let dir = start;;) {
    if (dir === stop) return out;
    if (!homes.includes(dir)) out.push(dir);
    const parent = dirname(dir);
    if (parent === dir) return out;
    dir = parent;
  }
}

const realHomes = new Map<string, string>();

/**
 * The home folder as written and as its real path (a `$HOME` of
 * `/home/ada` whose `/home` links to `/data/home` is also
 * `/data/home/ada`, the path a working directory usually shows); none
 * without a home. Resolved once per process.
 */
export function homeSpellings(home: string): string[] {
  if (!home) return [];
  const abs = resolve(home);
  let real = realHomes.get(abs);
  if (real === undefined) {
    try {
      real = realpathSync(abs);
    } catch {
      real = abs;
    }
    realHomes.set(abs, real);
  }
  return real === abs ? [abs] : [abs, real];
}

/** The folders a walk up from `cwd` visits, nearest first (see the module comment). */
export function walkUpDirs(cwd: string, home: string): string[] {
  return walkUpFrom(cwd, homeSpellings(home));
}

/** What {@link foundProblem} refused: the path, why, and whether it is a symlink. */
export interface FoundProblem {
  path: string;
  /** `ownershipProblem`'s words. */
  problem: string;
  symlink?: boolean;
}

/**
 * Why `path`, found in the walked folder `dir`, must be ignored: the nearest
 * path from `path` up to `dir` (both included) that fails the owner and mode
 * rule, and why; undefined when it may be used. Pure apart from `inspect`.
 */
export function foundProblem(
  dir: string,
  path: string,
  inspect: Inspect,
  uid: number | undefined = currentUid(),
): FoundProblem | undefined {
  if (uid === undefined) return undefined;
  const steps = relative(dir, path).split(sep).filter((s) => s !== "");
  const chain = [dir];
  for (const s of steps) chain.push(join(chain[chain.length - 1], s));
  for (const p of chain.reverse()) {
    const info = inspect(p);
    if (!info) return undefined;
    if (info.linkUid !== undefined) {
      const link = ownershipProblem({ uid: info.linkUid, mode: 0 }, uid);
      if (link) return { path: p, problem: link, symlink: true };
    }
    const problem = ownershipProblem(info, uid);
    if (problem) return { path: p, problem };
  }
  return undefined;
}

/** The warning for a find that {@link foundProblem} refused. */
export function ignoredWarning(found: string, why: FoundProblem): Diagnostic {
  const what = why.path === found ? "" : `in ${why.path}, which is `;
  return {
    level: "warning",
    file: found,
    message: `${what}${why.symlink ? "a symlink " : ""}${why.problem}; ` +
      ownershipHint(why.problem, why.path),
  };
}

/** {@link Inspect} on the disk: `lstat`, then `stat` through a symlink. */
export function inspectPath(path: string): PathInfo | undefined {
  try {
    const l = lstatSync(path, { throwIfNoEntry: false });
    if (!l) return undefined;
    const t = l.isSymbolicLink() ? statSync(path, { throwIfNoEntry: false }) : l;
    if (!t) return undefined;
    const info: PathInfo = {
      uid: t.uid,
      gid: t.gid,
      mode: t.mode,
      isDirectory: t.isDirectory(),
      isFile: t.isFile(),
    };
    if (l.isSymbolicLink()) info.linkUid = l.uid;
    return info;
  } catch {
    return undefined;
  }
}

/** Kinds of finds. */
export const isFolderInfo = (i: PathInfo): boolean => i.isDirectory;
export const isFileInfo = (i: PathInfo): boolean => i.isFile;
export const existsInfo = (_: PathInfo): boolean => true;

/**
 * True when `rel` exists in `dir` as `kind` wants and passes the rule; a
 * refused one adds its warning to `warnings`.
 */
export function acceptedIn(
  dir: string,
  rel: string,
  kind: (i: PathInfo) => boolean,
  warnings: Diagnostic[],
  inspect: Inspect = inspectPath,
): boolean {
  const path = join(dir, rel);
  const info = inspect(path);
  if (!info || !kind(info)) return false;
  const why = foundProblem(dir, path, inspect);
  if (why) {
    warnings.push(ignoredWarning(path, why));
    return false;
  }
  return true;
}

/**
 * The nearest walked folder holding an acceptable `rel` (see
 * {@link acceptedIn}), and the path found; refused ones are warned about and
 * the walk goes on past them.
 */
export function findUp(
  cwd: string,
  home: string,
  rel: string,
  kind: (i: PathInfo) => boolean,
  warnings: Diagnostic[],
  inspect: Inspect = inspectPath,
): { dir: string; path: string } | undefined {
  for (const dir of walkUpDirs(cwd, home)) {
    if (acceptedIn(dir, rel, kind, warnings, inspect)) return { dir, path: join(dir, rel) };
  }
  return undefined;
}
