/**
 * The project a task works in: the folder its file tools and sandboxed
 * commands are confined to.
 *
 * Decides the rule: among the folders a walk up from the working directory
 * visits (`walk-up.ts`: it stops below `$HOME`, so neither `~` nor anything
 * above it is ever a project root), the nearest one holding `.git` (a
 * repository, or a worktree whose `.git` is a file); else the nearest one
 * holding a `.xcsh`, `.claude`, `.codex` or `.gemini` folder; never `/`;
 * else the working directory. A `.git` or marker that another user owns, or
 * that others could write, counts as absent (with a warning): another
 * user's `/tmp/shared/.git` never widens a project below it.
 * {@link chooseProjectRoot} is the pure rule, {@link projectRoot} and
 * {@link findProjectRoot} look at the disk.
 *
 * @example
 * ```ts
 * projectRoot("/home/me/src/app/lib", "/home/me"); // "/home/me/src/app" when it holds .git
 * ```
 *
 * @module
 */
import { dirname, resolve } from "node:path";
import type { Diagnostic } from "../types.ts";
import { acceptedIn, existsInfo, isFolderInfo, walkUpDirs } from "../fs/walk-up.ts";

/** Folders whose presence marks a project (besides `.git`). */
export const PROJECT_MARKERS = [".xcsh", ".claude", ".codex", ".gemini"] as const;

/** `cwd` and each of its ancestors, nearest first. */
export function ancestors(cwd: string): string[] {
  const out: string[] = [];
  for (let d = resolve(cwd);; d = dirname(d)) {
    out.push(d);
    if (dirname(d) === d) return out;
  }
}

/**
 * The project root for `cwd`, given which entries may be used (`has(dir,
 * name)`: `.git` of any kind, a marker as a folder, each passing the walk's
 * owner rule). Pure.
 */
export function chooseProjectRoot(
  cwd: string,
  home: string,
  has: (dir: string, name: string) => boolean,
): string {
  const dirs = walkUpDirs(cwd, home).filter((d) => dirname(d) !== d);
  const git = dirs.find((d) => has(d, ".git"));
  if (git) return git;
  const marked = dirs.find((d) => PROJECT_MARKERS.some((m) => has(d, m)));
  return marked ?? resolve(cwd);
}

/** The project root of `cwd` and the warnings about what the walk ignored. */
export function findProjectRoot(
  cwd: string,
  home: string,
): { root: string; warnings: Diagnostic[] } {
  const warnings: Diagnostic[] = [];
  const root = chooseProjectRoot(
    cwd,
    home,
    (dir, name) => acceptedIn(dir, name, name === ".git" ? existsInfo : isFolderInfo, warnings),
  );
  return { root, warnings };
}

/** The project root of `cwd`, looking at the disk. */
export function projectRoot(cwd: string, home: string): string {
  return findProjectRoot(cwd, home).root;
}
