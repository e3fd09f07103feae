/**
 * Where xcsh keeps what it writes for the user: sessions, background runs and
 * isolated worktrees. The data folder is `$XCSH_DATA_DIR` when set (tests),
 * else `$XDG_DATA_HOME/xcsh`, else `~/.local/share/xcsh`; `""` when there is
 * no home folder and no variable names one. Pure.
 *
 * @example
 * ```ts
 * dataDirectory({ XDG_DATA_HOME: "/d" }, "/home/me"); // "/d/xcsh"
 * ```
 *
 * @module
 */
import { isAbsolute, join, resolve } from "node:path";

/** The user's xcsh data folder (absolute), or `""` when there is none. */
export function dataDirectory(
  env: Readonly<Record<string, string | undefined>>,
  home: string,
): string {
  if (env.XCSH_DATA_DIR) return resolve(env.XCSH_DATA_DIR);
  const xdg = env.XDG_DATA_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, "xcsh");
  return home ? join(home, ".local", "share", "xcsh") : "";
}

/** The folder of session files. */
export function sessionsDirectory(data: string): string {
  return join(data, "sessions");
}

/** The folder of background runs (one folder each). */
export function runsDirectory(data: string): string {
  return join(data, "runs");
}

/** The folder holding isolated worktrees and their records. */
export function worktreesDirectory(data: string): string {
  return join(data, "worktrees");
}
