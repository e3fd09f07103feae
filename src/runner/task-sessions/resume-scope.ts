/**
 * Whose sessions a caller may resume: only those whose folder lies inside
 * the caller's own project. A session's folder is the folder it last
 * worked in or, for an isolated session, the repository its worktree was
 * made of (either inside the project will do); the caller's
 * project is the project root of its working directory (a child's `task`
 * tool: the child's; the MCP server: its own; `xcsh run --resume`: the
 * folder the user runs it from). A session id alone (they are printed in
 * results and listed in the user's data folder) never moves a task into
 * another repository. {@link resumeScopeProblem} is the pure rule,
 * {@link checkResumeScope} resolves the real paths.
 *
 * @example
 * ```ts
 * resumeScopeProblem("20260101-000000-abcdef", ["/src/b"], "/src/a");
 * // "cannot resume session 20260101-000000-abcdef: its folder /src/b is outside …"
 * ```
 *
 * @module
 */
import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import { projectRoot } from "../../sandbox/project-root.ts";
import type { SessionWorktree } from "../../sessions/store.ts";
import { isInside } from "../../fs/path-inside.ts";

/**
 * The folders a session belongs to, the one to name first: the repository
 * its worktree was made of (when isolated), and the folder it last worked in.
 */
export function sessionFolders(place: { cwd: string; worktree?: SessionWorktree }): string[] {
  return place.worktree ? [place.worktree.repo, place.cwd] : [place.cwd];
}

/**
 * Why a caller whose project root is `callerRoot` may not resume session
 * `id` whose folders are `folders`, or undefined when it may (one of them
 * lies inside). Real paths. Pure.
 */
export function resumeScopeProblem(
  id: string,
  folders: readonly string[],
  callerRoot: string,
): string | undefined {
  if (folders.some((f) => isInside(f, [callerRoot]))) return undefined;
  return `cannot resume session ${id}: its folder ${folders[0]} is outside this project ` +
    `(${callerRoot}); resume it from that folder`;
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** {@link resumeScopeProblem} for a caller working in `cwd`. */
export function checkResumeScope(
  id: string,
  place: { cwd: string; worktree?: SessionWorktree },
  cwd: string,
  home: string,
): string | undefined {
  return resumeScopeProblem(id, sessionFolders(place).map(real), real(projectRoot(cwd, home)));
}
