/**
 * Whether the files a check command runs are still those the task started
 * with. A check's command line is the caller's and stays with the parent,
 * but a script it names inside the task's folders (`sh check.sh`,
 * `./scripts/verify`) is a file the child could rewrite to pass. The files
 * each command names are found as the sandbox finds a hook's
 * (`programFiles` in `child/program-files.ts`), their content pinned (a
 * SHA-256) before the child starts; a check whose file changed, or is gone,
 * fails without running. What those scripts read in turn (a test suite, a
 * package.json) is not pinned: a check is only as good as what it runs.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { workspaceRoots } from "../../child/workspace.ts";
import { programFiles } from "../../child/program-files.ts";
import type { AcceptCheck, XcshConfig } from "../../types.ts";

/** Check name → the files its command runs, with their content's hash. */
export type ScriptPins = Map<string, { path: string; hash: string | undefined }[]>;

function hashOf(path: string): string | undefined {
  try {
    return createHash("sha256").update(readFileSync(path)).digest("hex");
  } catch {
    return undefined;
  }
}

/** The pins of `checks`' command scripts in the task folder `cwd`. */
export function pinCheckScripts(
  checks: readonly AcceptCheck[],
  at: { cwd: string; home: string; config: XcshConfig },
): ScriptPins {
  const { roots } = workspaceRoots(at.cwd, at.home, at.config);
  const pins: ScriptPins = new Map();
  for (const c of checks) {
    if (c.kind !== "cmd") continue;
    const files = programFiles({ commands: [c.cmd], cwd: at.cwd, projectDir: roots[0], roots });
    if (files.length > 0) pins.set(c.name, files.map((path) => ({ path, hash: hashOf(path) })));
  }
  return pins;
}

/** The files of check `name` that differ from their pin. */
export function changedScripts(pins: ScriptPins | undefined, name: string): string[] {
  return (pins?.get(name) ?? []).filter((p) => hashOf(p.path) !== p.hash).map((p) => p.path);
}
