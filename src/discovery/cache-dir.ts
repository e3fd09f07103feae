/**
 * Where xcsh keeps its cache of parsed definition files, or that it keeps none.
 *
 * `XCSH_CACHE=off` (or `0`, `false`, `no`) turns the cache off; `XCSH_CACHE_DIR`
 * names the folder. Otherwise it is the platform's user cache folder:
 * `$XDG_CACHE_HOME/xcsh` or `~/.cache/xcsh` on Linux and other Unix systems,
 * `~/Library/Caches/xcsh` on macOS, `%LOCALAPPDATA%\xcsh\cache` on Windows.
 * A run from source (not a compiled binary) keeps no cache unless
 * `XCSH_CACHE_DIR` is set: its parsing rules change with every edit. Pure.
 *
 * @example
 * ```ts
 * cacheDir({ env: {}, home: "/home/me", platform: "linux", compiled: true });
 * // "/home/me/.cache/xcsh"
 * ```
 *
 * @module
 */
import { join } from "node:path";

export interface CacheDirInput {
  env: Record<string, string | undefined>;
  home: string;
  platform: string;
  /** True in a compiled binary. */
  compiled: boolean;
}

const OFF = new Set(["off", "0", "false", "no"]);

/** The cache folder, or undefined when there is to be no cache. */
export function cacheDir(i: CacheDirInput): string | undefined {
  const setting = i.env.XCSH_CACHE?.trim().toLowerCase();
  if (setting !== undefined && OFF.has(setting)) return undefined;
  const explicit = i.env.XCSH_CACHE_DIR?.trim();
  if (explicit) return explicit;
  if (!i.compiled || !i.home) return undefined;
  if (i.platform === "darwin") return join(i.home, "Library", "Caches", "xcsh");
  if (i.platform === "win32") {
    const local = i.env.LOCALAPPDATA?.trim();
    return join(local || join(i.home, "AppData", "Local"), "xcsh", "cache");
  }
  const xdg = i.env.XDG_CACHE_HOME?.trim();
  // The XDG rules ignore a relative XDG_CACHE_HOME.
  return join(xdg && xdg.startsWith("/") ? xdg : join(i.home, ".cache"), "xcsh");
}
