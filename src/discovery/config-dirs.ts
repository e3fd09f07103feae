/**
 * Where each ecosystem keeps its config folders, and in which order they count.
 *
 * Decides the family priority (xcsh, claude, codex, gemini), each family's
 * user folders (honouring `CLAUDE_CONFIG_DIR` and `CODEX_HOME`), and the
 * project walk: over the folders `walk-up.ts` visits from cwd (up to the
 * filesystem root, or below `$HOME` for a cwd inside it — `$HOME`'s config
 * folders are the user's), the first `<dir>/.<family>/<subpath>` that is a
 * directory and passes the walk's owner rule wins for its family; one owned
 * by another user or writable by others is skipped with a warning.
 *
 * @example
 * ```ts
 * userConfigDirs("agents", { home: "/home/ada", env: {} })
 * // [{ family: "xcsh", path: "/home/ada/.xcsh/agent/agents" }, { family: "claude", … }, …]
 * ```
 *
 * @module
 */
import { statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Diagnostic } from "../types.ts";
import { acceptedIn, isFolderInfo, walkUpDirs } from "../fs/walk-up.ts";

/** Config families in priority order. */
export const FAMILIES = ["xcsh", "claude", "codex", "gemini"] as const;
export type ConfigFamily = typeof FAMILIES[number];

/** What discovery needs to know about the process: no globals read below. */
export interface DiscoveryEnv {
  cwd: string;
  home: string;
  env: Readonly<Record<string, string | undefined>>;
}

/** One folder discovery looks at. */
export interface ConfigDir {
  family: ConfigFamily;
  scope: "project" | "user";
  path: string;
}

/** The file endings a folder of agents of `family` holds definitions in. */
export function definitionExtensions(family: string): string[] {
  return family === "codex" ? [".md", ".toml"] : [".md"];
}

/** `~/.claude`, or `$CLAUDE_CONFIG_DIR` when set. */
export function claudeHome(home: string, env: DiscoveryEnv["env"]): string {
  return env.CLAUDE_CONFIG_DIR ? resolve(home, env.CLAUDE_CONFIG_DIR) : join(home, ".claude");
}

/** `~/.codex`, or `$CODEX_HOME` when set. */
export function codexHome(home: string, env: DiscoveryEnv["env"]): string {
  return env.CODEX_HOME ? resolve(home, env.CODEX_HOME) : join(home, ".codex");
}

/** The user-level folders of `subpath` (e.g. `agents`), in priority order. */
export function userConfigDirs(
  subpath: string,
  e: Pick<DiscoveryEnv, "home" | "env">,
): ConfigDir[] {
  const user = (family: ConfigFamily, path: string): ConfigDir => ({ family, scope: "user", path });
  return [
    user("xcsh", join(e.home, ".xcsh", "agent", subpath)),
    user("claude", join(claudeHome(e.home, e.env), subpath)),
    user("codex", join(codexHome(e.home, e.env), subpath)),
    user("gemini", join(e.home, ".gemini", subpath)),
    user("gemini", join(e.home, ".config", "gemini-cli", subpath)),
  ];
}

/**
 * The folders a project walk may look at, nearest first: the walk of
 * `walk-up.ts` (cwd and each ancestor, stopping below `home` when cwd is
 * inside it).
 */
export function projectAncestors(cwd: string, home: string): string[] {
  return walkUpDirs(cwd, home);
}

/** The project-level candidate of `family` in folder `dir`. */
export function projectDirOf(dir: string, family: ConfigFamily, subpath: string): string {
  return join(dir, `.${family}`, subpath);
}

/**
 * The folder a project's definitions folder (`<dir>/.<family>/agents`,
 * `…/commands`) was found in: `<dir>`, where its files must really lie.
 * Undefined for the user's folders and plugins' (theirs to link).
 */
export function projectFolderOf(
  d: { path: string; source: string; family: string },
): string | undefined {
  return d.source === "project" && d.family !== "plugin" ? dirname(dirname(d.path)) : undefined;
}

/**
 * True when `path` is a folder (following symlinks). Synchronous on purpose:
 * a `stat` takes microseconds, while a promise round trip through the I/O
 * pool costs ten times that, and the project walk makes over a hundred.
 */
export function isDirectory(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}

/**
 * For each family, the nearest project folder of `subpath`, walking up from
 * cwd. Families without one are absent from the result; folders the walk's
 * owner rule refuses are skipped, each with a warning added to `warnings`.
 */
export function findAllNearestProjectConfigDirs(
  subpath: string,
  e: Pick<DiscoveryEnv, "cwd" | "home">,
  warnings: Diagnostic[] = [],
): ConfigDir[] {
  const ancestors = projectAncestors(e.cwd, e.home);
  const found = FAMILIES.map((family): ConfigDir | undefined => {
    const rel = join(`.${family}`, subpath);
    const i = ancestors.findIndex((dir) => acceptedIn(dir, rel, isFolderInfo, warnings));
    return i < 0
      ? undefined
      : { family, scope: "project", path: projectDirOf(ancestors[i], family, subpath) };
  });
  return found.filter((d): d is ConfigDir => d !== undefined);
}

/**
 * Every folder of `subpath` in precedence order: per family, its nearest
 * project folder, then its user folder(s). Warnings about project folders
 * the walk refused go to `opts.warnings`.
 */
export function getConfigDirs(
  subpath: string,
  e: DiscoveryEnv,
  opts: { project?: boolean; user?: boolean; warnings?: Diagnostic[] } = {},
): ConfigDir[] {
  const project = opts.project === false
    ? []
    : findAllNearestProjectConfigDirs(subpath, e, opts.warnings);
  const user = opts.user === false || !e.home ? [] : userConfigDirs(subpath, e);
  return FAMILIES.flatMap((family) => [
    ...project.filter((d) => d.family === family),
    ...user.filter((d) => d.family === family),
  ]);
}
