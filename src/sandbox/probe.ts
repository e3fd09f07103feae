/**
 * Whether bubblewrap can sandbox commands on this machine, asked once per
 * process (and, for `xcsh run`, asked in the background while it discovers
 * agents, so that nobody waits for the answer).
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
import { spawnPiped } from "../runtime.ts";
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
/** Probes started ahead of need ({@link startSandboxProbe}), by cache key. */
const pending = new Map<string, Promise<SandboxSupport>>();

/** The longest a probe may take before it counts as failed. */
const PROBE_TIMEOUT_MS = 10_000;

function cacheKey(path: string | undefined, network: boolean, checked: boolean): string {
  return `${network}\0${checked}\0${path ?? ""}`;
}

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
  const key = cacheKey(path, network, checked);
  const known = cache.get(key);
  if (known) return known;
  const answer = probe(path, network, checked);
  cache.set(key, answer);
  return answer;
}

/**
 * Starts the probe of {@link sandboxSupport} in the background (Linux, with
 * `bwrap` on `path`), so that a process which will need the answer does not
 * wait for it: {@link sandboxSupportSoon} then takes it when it is ready.
 */
export function startSandboxProbe(
  path: string | undefined,
  network: boolean,
  timeoutMs = PROBE_TIMEOUT_MS,
): void {
  const key = cacheKey(path, network, false);
  if (process.platform !== "linux" || cache.has(key) || pending.has(key)) return;
  const bwrap = findBwrap(path);
  if (!bwrap) return;
  pending.set(
    key,
    probeAsync(bwrap, network, timeoutMs).then((answer) => {
      cache.set(key, answer);
      pending.delete(key);
      return answer;
    }),
  );
}

/** {@link sandboxSupport}, waiting for a probe started ahead of need when there is one. */
export async function sandboxSupportSoon(
  path: string | undefined,
  network: boolean,
): Promise<SandboxSupport> {
  const started = pending.get(cacheKey(path, network, false));
  return started ? await started : sandboxSupport(path, network);
}

/** How the probe ended: its exit code or signal, its stderr, or why it could not start. */
interface ProbeExit {
  code: number | null;
  signal: string | null;
  stderr: string;
  error?: Error;
}

/** What the probe's exit says: bwrap works, or why not (its first stderr line, or the failure). */
function verdict(bwrap: string, exit: ProbeExit): SandboxSupport {
  if (exit.code === 0) return { ok: true, bwrap };
  const why = exit.stderr.trim().split("\n")[0] || exit.error?.message ||
    `exit ${exit.code ?? exit.signal}`;
  return {
    ok: false,
    reason: `${bwrap} cannot create a sandbox here (${why}); user namespaces may be disabled`,
  };
}

/** The probe run without blocking: `bwrap` running `true`, as {@link probe} does. */
async function probeAsync(
  bwrap: string,
  network: boolean,
  timeoutMs: number,
): Promise<SandboxSupport> {
  let stderr = "";
  const exit = await new Promise<Omit<ProbeExit, "stderr">>(
    (done) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      let ended = false;
      const finish = (r: Omit<ProbeExit, "stderr">) => {
        ended = true;
        if (timer !== undefined) clearTimeout(timer);
        done(r);
      };
      spawnPiped({
        command: bwrap,
        args: probeArgs(network, tmpdir()),
        cwd: process.cwd(),
        env: process.env,
        detached: false,
        onStdout: () => {},
        onStderr: (text) => {
          if (stderr.length < 4096) stderr += text;
        },
        onClose: (code, signal) => finish({ code, signal }),
        onError: (error) => finish({ code: null, signal: null, error }),
      }).then((child) => {
        child.end();
        // No timer for a probe that has already ended (its pid may be reused).
        if (ended) return;
        timer = setTimeout(() => {
          try {
            if (child.pid !== undefined) process.kill(child.pid, "SIGKILL");
          } catch {
            // gone already
          }
        }, timeoutMs);
      }, (error: Error) => finish({ code: null, signal: null, error }));
    },
  );
  return verdict(bwrap, { ...exit, stderr });
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
    timeout: PROBE_TIMEOUT_MS,
  });
  return verdict(bwrap, {
    code: r.status,
    signal: r.signal,
    stderr: r.stderr ?? "",
    error: r.error,
  });
}
