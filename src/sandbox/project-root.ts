/**
 * The project a task works in: the folder its file tools and sandboxed
 * commands are confined to.
 *
 * Decides the rule: the nearest folder at or above the working directory
 * that holds `.git` (a repository, or a worktree whose `.git` is a file);
 * else the nearest one holding `.xcsh`, `.claude`, `.codex` or `.gemini`
 * (never the home folder itself, whose `~/.xcsh` is the user's); never `/`;
 * else the working directory. {@link chooseProjectRoot} is the pure rule,
 * {@link projectRoot} looks at the disk.
 *
 * @example
 * ```ts
 * projectRoot("/home/me/src/app/lib", "/home/me"); // "/home/me/src/app" when it holds .git
 * ```
 *
 * @module
 */
import { statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

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
 * The project root for `cwd`, given which entries exist (`has(dir, name)`).
 * Pure.
 */
export function chooseProjectRoot(
  cwd: string,
  home: string,
  has: (dir: string, name: string) => boolean,
): string {
  const dirs = ancestors(cwd);
  const git = dirs.find((d) => dirname(d) !== d && has(d, ".git"));
  if (git) return git;
  const homeAbs = home ? resolve(home) : "";
  const marked = dirs.find((d) =>
    d !== homeAbs && dirname(d) !== d && PROJECT_MARKERS.some((m) => has(d, m))
  );
  return marked ?? resolve(cwd);
}

function exists(dir: string, name: string): boolean {
  try {
    return statSync(join(dir, name), { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

/** The project root of `cwd`, looking at the disk. */
export function projectRoot(cwd: string, home: string): string {
  return chooseProjectRoot(cwd, home, exists);
}
