/**
 * Whether bubblewrap can sandbox commands on this machine, asked once per
 * process.
 *
 * Decides how `bwrap` is found (the first executable `bwrap` on `PATH`) and
 * what "works" means: Linux, and `bwrap` running `true` in the same kind of
 * sandbox the commands get (a machine without unprivileged user namespaces
 * fails here). The answer is cached per network setting; the probe costs a
 * few milliseconds, so a child whose parent already probed only looks
 * `bwrap` up. Elsewhere than Linux the answer is no: macOS's
 * `sandbox-exec` is deprecated, so commands there run unsandboxed.
 *
 * @example
 * ```ts
 * const s = sandboxSupport(process.env.PATH, true);
 * if (!s.ok) console.error(s.reason);
 * ```
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import process from "node:process";
import { probeArgs } from "./bwrap-args.ts";

export type SandboxSupport = { ok: true; bwrap: string } | { ok: false; reason: string };

/** The first executable `bwrap` on `path`, if any. */
export function findBwrap(path: string | undefined): string | undefined {
  for (const dir of (path ?? "").split(delimiter)) {
    if (dir === "") continue;
    const file = join(dir, "bwrap");
    try {
      if (!statSync(file).isFile()) continue;
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

const cache = new Map<string, SandboxSupport>();

/**
 * Can commands be sandboxed here (with or without network)? Cached. With
 * `checked` (the parent process already probed this machine with the same
 * `PATH`) only `bwrap` is looked up, not run.
 */
export function sandboxSupport(
  path: string | undefined,
  network: boolean,
  checked = false,
): SandboxSupport {
  const key = `${network}\0${checked}\0${path ?? ""}`;
  const known = cache.get(key);
  if (known) return known;
  const answer = probe(path, network, checked);
  cache.set(key, answer);
  return answer;
}

function probe(path: string | undefined, network: boolean, checked: boolean): SandboxSupport {
  if (process.platform !== "linux") {
    return {
      ok: false,
      reason: `commands cannot be sandboxed on ${process.platform} (bubblewrap is Linux-only)`,
    };
  }
  const bwrap = findBwrap(path);
  if (!bwrap) {
    return { ok: false, reason: "bubblewrap (bwrap) is not installed or not on PATH" };
  }
  if (checked) return { ok: true, bwrap };
  const r = spawnSync(bwrap, probeArgs(network, tmpdir()), {
    stdio: ["ignore", "ignore", "pipe"],
    encoding: "utf8",
    timeout: 10_000,
  });
  if (r.status === 0) return { ok: true, bwrap };
  const why = (r.stderr ?? "").trim().split("\n")[0] || r.error?.message ||
    `exit ${r.status ?? r.signal}`;
  return {
    ok: false,
    reason: `${bwrap} cannot create a sandbox here (${why}); user namespaces may be disabled`,
  };
}
