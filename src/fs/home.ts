/**
 * Which folder is the user's home: `$HOME` when it is set and not empty,
 * else the account's home from the system, else none (`""`: then there are
 * no user-level folders at all, rather than folders relative to cwd).
 *
 * @module
 */
import { homedir } from "node:os";
import { resolve } from "node:path";
import process from "node:process";

/** The home folder, absolute, or `""` when there is none. */
export function homeDirectory(
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  if (env.HOME) return resolve(env.HOME);
  try {
    const h = homedir();
    return h ? resolve(h) : "";
  } catch {
    return "";
  }
}

/** Shortens a path under the home directory to `~/…` for display. */
export function displayPath(
  path: string | undefined,
  home = homeDirectory(),
): string {
  if (!path) return "";
  if (home && home !== "/" && (path === home || path.startsWith(home + "/"))) {
    return "~" + path.slice(home.length);
  }
  return path;
}
