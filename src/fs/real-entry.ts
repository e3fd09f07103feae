/**
 * The real path of an existing folder or regular file, or nothing: the
 * question several places ask before they bind, protect or compare a path
 * (the sandbox's host folders, the files a task's hooks run, a task's
 * roots). A path that is missing, unreadable or of the other kind gives
 * `undefined`, never an error.
 *
 * @example
 * ```ts
 * realDir("/"); // "/"
 * realFile("/"); // undefined
 * ```
 *
 * @module
 */
import { realpathSync, statSync } from "node:fs";

function realOfKind(path: string, kind: "isFile" | "isDirectory"): string | undefined {
  try {
    const real = realpathSync(path);
    return statSync(real)[kind]() ? real : undefined;
  } catch {
    return undefined;
  }
}

/** The real path of `path` when it is a folder (through links), else undefined. */
export function realDir(path: string): string | undefined {
  return realOfKind(path, "isDirectory");
}

/** The real path of `path` when it is a regular file (through links), else undefined. */
export function realFile(path: string): string | undefined {
  return realOfKind(path, "isFile");
}
