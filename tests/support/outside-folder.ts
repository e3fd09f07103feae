/**
 * A scratch folder outside any test project that sandboxed commands still
 * see (read-only, or writable once the sandbox is off): never below the
 * folders the sandbox replaces with private or empty ones (`/tmp`,
 * `/var/tmp`, `/run`, `/dev`). The repository's own parent folder is used
 * when it qualifies, else the home folder; the caller removes it.
 *
 * @module
 */
import { mkdtempSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { ROOT } from "./cli.ts";

const HIDDEN = ["/tmp", "/var/tmp", "/run", "/var/run", "/dev", "/proc"];

function visible(dir: string): boolean {
  const d = resolve(dir);
  return !HIDDEN.some((h) => d === h || d.startsWith(h + "/"));
}

/** A fresh hidden folder, named `.prefix…`, that a sandboxed command sees. */
export function outsideFolder(prefix = "xcsh-outside-"): string {
  for (const base of [dirname(ROOT), homedir()]) {
    if (!visible(base)) continue;
    try {
      return mkdtempSync(join(base, `.${prefix}`));
    } catch {
      // not writable here: try the next
    }
  }
  throw new Error(
    "no folder outside /tmp, /var/tmp and /run could be made for the sandbox tests " +
      "(the repository's parent and the home folder are both hidden or read-only)",
  );
}
