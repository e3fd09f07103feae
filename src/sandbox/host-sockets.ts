/**
 * Which host folders a sandboxed command must not see because they hold the
 * host's sockets: `/run` (ssh and GPG agents under `/run/user/UID`, the
 * session and system buses, `docker.sock`, database sockets; `/var/run` is
 * the same folder on every current system) and `/var/tmp` (a second shared
 * temporary folder). Each is covered by an empty, private folder inside the
 * sandbox. A socket file answers a `connect` even on a read-only bind, so
 * hiding is the only cover.
 *
 * Decides, too, the files inside a hidden folder that commands still need,
 * bound back read-only on their own: the target of `/etc/resolv.conf` when it
 * points into `/run` (systemd-resolved, NetworkManager), so that names still
 * resolve. Only files are bound back, never a folder (a folder there could
 * hold a socket). {@link chooseHiding} is the pure rule, {@link hostHiding}
 * looks at the disk, once per process.
 *
 * @example
 * ```ts
 * chooseHiding({ dirs: ["/run", "/var/tmp"], resolvConf: "/run/systemd/resolve/stub-resolv.conf" });
 * // { folders: ["/run", "/var/tmp"], files: ["/run/systemd/resolve/stub-resolv.conf"] }
 * ```
 *
 * @module
 */
import { isInside } from "../fs/path-inside.ts";
import { realDir, realFile } from "../fs/real-entry.ts";

/** The host folders hidden from sandboxed commands, where they exist. */
export const HIDDEN_FOLDERS = ["/run", "/var/run", "/var/tmp"] as const;

/** Files that must stay visible even when they live in a hidden folder. */
const NEEDED_FILES = ["/etc/resolv.conf"] as const;

export interface Hiding {
  /** Real folders covered by an empty private folder, in this order. */
  folders: string[];
  /** Real files inside those folders, bound back read-only. */
  files: string[];
}

export interface HostFacts {
  /** The real paths of the {@link HIDDEN_FOLDERS} that exist as folders. */
  dirs: readonly string[];
  /** The real path of `/etc/resolv.conf`, when it is a file. */
  resolvConf?: string;
}

/** True when `path` lies below `dir` (`fs/path-inside.ts`'s rule, the folder itself excluded). */
function inside(path: string, dir: string): boolean {
  return path !== dir && isInside(path, [dir]);
}

/** What to hide and what to bind back, from what exists. Pure. */
export function chooseHiding(facts: HostFacts): Hiding {
  // A folder inside another hidden one is hidden with it (and one named twice,
  // as /var/run next to /run, once).
  const folders = [...new Set(facts.dirs)].filter((d, _, all) =>
    d !== "/" && !all.some((o) => o !== d && inside(d, o))
  );
  const wanted = facts.resolvConf === undefined ? [] : [facts.resolvConf];
  const files = wanted.filter((f) => folders.some((d) => inside(f, d)));
  return { folders, files };
}

let cached: Hiding | undefined;

/** {@link chooseHiding} for this machine (looked at once per process). */
export function hostHiding(): Hiding {
  if (cached) return cached;
  const dirs = HIDDEN_FOLDERS.map(realDir).filter((d): d is string => d !== undefined);
  const resolvConf = NEEDED_FILES.map(realFile)[0];
  cached = chooseHiding({ dirs, ...(resolvConf ? { resolvConf } : {}) });
  return cached;
}
