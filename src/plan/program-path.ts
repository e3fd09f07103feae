/**
 * Where a program named in config would be found: a path with a `/` is
 * taken as it is, a bare name is looked for on `PATH` (empty entries and
 * relative entries skipped: a relative `PATH` entry means "wherever the
 * command happens to run"). Answers only "is it there and executable".
 *
 * @example
 * ```ts
 * programPath("sh", "/usr/bin:/bin"); // "/usr/bin/sh"
 * programPath("no-such-program", "/usr/bin"); // undefined
 * ```
 *
 * @module
 */
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";

function executable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The executable `name` resolves to, or undefined. */
export function programPath(name: string, path: string | undefined): string | undefined {
  if (name.includes("/")) return executable(name) ? name : undefined;
  for (const dir of (path ?? "").split(delimiter)) {
    if (dir === "" || !isAbsolute(dir)) continue;
    const file = join(dir, name);
    if (executable(file)) return file;
  }
  return undefined;
}
