/**
 * Runs a few lines of TypeScript in this runtime as an unprivileged user, so
 * that a unit test of a permission rule runs as root too: root reads through
 * permission bits, `nobody` (uid/gid 65534, through `setpriv`) does not.
 *
 * What this module decides:
 * - `runAsNobody(code)` writes `code` to a module in a fresh folder, runs it
 *   with this runtime (`bun FILE`, or `deno run -A --no-check FILE`) as
 *   nobody with that folder as HOME, and gives back what it printed; a run
 *   that fails throws with its stderr.
 * - `nobodyUnavailable()` says why it cannot run (not root, or no
 *   `setpriv`), for a test's skip reason; undefined when it can.
 * - The code imports modules by absolute `file://` URLs
 *   (`import.meta.resolve` of the test); the folders on the way to them,
 *   and every path the code touches, must be readable by nobody.
 *
 * @example
 * ```ts
 * const out = runAsNobody(`console.log(process.getuid?.());`);
 * // out === "65534\n"
 * ```
 *
 * @module
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { runtimeName } from "../../src/runtime.ts";

/** Why {@link runAsNobody} cannot run here, or undefined when it can. */
export function nobodyUnavailable(): string | undefined {
  if (process.getuid?.() !== 0) return "needs root, to drop to nobody";
  const r = spawnSync("setpriv", ["--version"], { stdio: "ignore" });
  if (r.error || r.status !== 0) return "setpriv (util-linux) is not installed";
  return undefined;
}

/** Runs `code` as nobody; see the module comment. */
export function runAsNobody(code: string): string {
  const dir = mkdtempSync(join(tmpdir(), "xcsh-nobody-"));
  try {
    chmodSync(dir, 0o777);
    const file = join(dir, "run.ts");
    writeFileSync(file, `import process from "node:process";\n${code}\n`);
    chmodSync(file, 0o644);
    const runtime = runtimeName() === "deno"
      ? [process.execPath, "run", "-A", "--no-check", "--no-config", file]
      : [process.execPath, file];
    return execFileSync(
      "setpriv",
      ["--reuid=65534", "--regid=65534", "--clear-groups", ...runtime],
      {
        encoding: "utf8",
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir, DENO_DIR: join(dir, "deno") },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
