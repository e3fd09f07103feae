/**
 * Whether bubblewrap can sandbox commands on this machine, asked once per
 * process (and, for `xcsh run`, asked in the background while it discovers
 * agents, so that nobody waits for the answer).
 *
 * Decides how `bwrap` is found and what "works" means. `bwrap` is taken from
 * fixed system locations ({@link BWRAP_LOCATIONS}), never from `PATH`: under
 * `npm run` or `npx`, `PATH` starts with the project's `node_modules/.bin`,
 * and a `bwrap` there would run every command unsandboxed. A candidate owned
 * by someone other than root or this user, or that its group or everyone may
 * change, is passed over (the owner and mode rule of `file-safety.ts`).
 * `XCSH_NO_BWRAP=1` makes xcsh behave as if bubblewrap were not installed
 * (tests use it to see how xcsh degrades; it can only take the sandbox away,
 * never choose another program). "Works" means Linux, and `bwrap` running
 * `true` in the same kind of sandbox the commands get (a machine without
 * unprivileged user namespaces fails here). The answer is cached per network
 * setting; the probe costs a few milliseconds, so a child whose parent
 * already probed only looks `bwrap` up, and a parent given a
 * {@link ProbeMemory} skips a probe that succeeded before on the same
 * machine, program and settings (`probe-fingerprint.ts`). Elsewhere than Linux the answer is
 * no: macOS's `sandbox-exec` is deprecated, so commands there run
 * unsandboxed.
 *
 * @example
 * ```ts
 * const s = sandboxSupport(bwrapLocations(process.env), true);
 * if (!s.ok) console.error(s.reason);
 * ```
 *
 * @module
 */
import { createRequire } from "node:module";
import { accessSync, constants, statSync } from "node:fs";
import { tmpdir } from "node:os";
import process from "node:process";
import { ownershipProblem } from "../fs/file-safety.ts";
import { withoutRuntimeVariables } from "../process/runtime-variables.ts";
import { spawnPiped } from "../runtime.ts";
import { probeArgs } from "./bwrap-args.ts";
import { probeFingerprint } from "./probe-fingerprint.ts";
import { hostHiding } from "./host-sockets.ts";

export type SandboxSupport = { ok: true; bwrap: string } | { ok: false; reason: string };

/** Where bubblewrap is looked for, in this order (NixOS's last). */
export const BWRAP_LOCATIONS = [
  "/usr/bin/bwrap",
  "/bin/bwrap",
  "/usr/local/bin/bwrap",
  "/run/current-system/sw/bin/bwrap",
] as const;

/**
 * The candidate files for `bwrap` under this environment: the fixed
 * locations, or none with `XCSH_NO_BWRAP=1`. Pure.
 */
export function bwrapLocations(env: Readonly<Record<string, string | undefined>>): string[] {
  const off = env.XCSH_NO_BWRAP;
  return off !== undefined && off !== "" && off !== "0" ? [] : [...BWRAP_LOCATIONS];
}

/**
 * The first of `candidates` that is an executable file owned by root (or
 * this user) and writable by nobody else (symbolic links followed), if any.
 */
export function findBwrap(candidates: readonly string[]): string | undefined {
  for (const file of candidates) {
    try {
      const info = statSync(file);
      if (!info.isFile() || ownershipProblem(info) !== undefined) continue;
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

function cacheKey(where: readonly string[], network: boolean, checked: boolean): string {
  return `${network}\0${checked}\0${where.join("\0")}`;
}

/**
 * Can commands be sandboxed here (with or without network)? Cached. `where`
 * is the list of candidate files ({@link bwrapLocations}). With `checked`
 * (the parent process already probed this machine) only `bwrap` is looked
 * up, not run.
 */
export function sandboxSupport(
  where: readonly string[],
  network: boolean,
  checked = false,
): SandboxSupport {
  const key = cacheKey(where, network, checked);
  const known = cache.get(key);
  if (known) return known;
  const answer = probe(where, network, checked);
  cache.set(key, answer);
  return answer;
}

/**
 * The probes that succeeded before this process, by fingerprint
 * (`probe-fingerprint.ts`): a store that outlives the process. Only
 * successes are kept: a remembered success can at worst make a command
 * fail in a sandbox that no longer starts, never run one unsandboxed.
 */
export interface ProbeMemory {
  knows(fingerprint: string): boolean;
  remember(fingerprint: string): void;
}

/**
 * Starts the probe of {@link sandboxSupport} in the background (Linux, with
 * a `bwrap` among `where`), so that a process which will need the answer does
 * not wait for it: {@link sandboxSupportSoon} then takes it when it is ready.
 * With `memory`, a probe that succeeded before under the same fingerprint is
 * not run again, and one that succeeds now is remembered.
 */
export function startSandboxProbe(
  where: readonly string[],
  network: boolean,
  timeoutMs = PROBE_TIMEOUT_MS,
  memory?: ProbeMemory,
): void {
  const key = cacheKey(where, network, false);
  if (process.platform !== "linux" || cache.has(key) || pending.has(key)) return;
  const bwrap = findBwrap(where);
  if (!bwrap) return;
  const args = probeArgs(network, tmpdir(), hostHiding());
  const fingerprint = memory ? probeFingerprint(bwrap, args) : undefined;
  if (fingerprint !== undefined && memory?.knows(fingerprint)) {
    cache.set(key, { ok: true, bwrap });
    return;
  }
  pending.set(
    key,
    probeAsync(bwrap, args, timeoutMs).then((answer) => {
      cache.set(key, answer);
      pending.delete(key);
      if (answer.ok && fingerprint !== undefined) memory?.remember(fingerprint);
      return answer;
    }),
  );
}

/**
 * {@link sandboxSupport}, waiting for a probe started ahead of need when there
 * is one; with `memory`, one not started yet starts as
 * {@link startSandboxProbe} would.
 */
export async function sandboxSupportSoon(
  where: readonly string[],
  network: boolean,
  memory?: ProbeMemory,
): Promise<SandboxSupport> {
  if (memory) startSandboxProbe(where, network, PROBE_TIMEOUT_MS, memory);
  const started = pending.get(cacheKey(where, network, false));
  return started ? await started : sandboxSupport(where, network);
}

/** How the probe ended: its exit code or signal, its stderr, or why it could not start. */
interface ProbeExit {
  code: number | null;
  signal: string | null;
  stderr: string;
  error?: Error;
}

/** Why no `bwrap` was found among `where`. */
function notFound(where: readonly string[]): string {
  return where.length === 0
    ? "bubblewrap (bwrap) is not installed (XCSH_NO_BWRAP is set)"
    : `bubblewrap (bwrap) is not installed (looked for ${where.join(", ")}, ` +
      "owned by root and writable by nobody else)";
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
  args: string[],
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
        args,
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

function probe(where: readonly string[], network: boolean, checked: boolean): SandboxSupport {
  if (process.platform !== "linux") {
    return {
      ok: false,
      reason: `commands cannot be sandboxed on ${process.platform} (bubblewrap is Linux-only)`,
    };
  }
  const bwrap = findBwrap(where);
  if (!bwrap) return { ok: false, reason: notFound(where) };
  if (checked) return { ok: true, bwrap };
  // Loaded here: most processes never probe synchronously, and the module costs each a load.
  const { spawnSync } = createRequire(import.meta.url)(
    "node:child_process",
  ) as typeof import("node:child_process");
  const r = spawnSync(bwrap, probeArgs(network, tmpdir(), hostHiding()), {
    stdio: ["ignore", "ignore", "pipe"],
    encoding: "utf8",
    env: withoutRuntimeVariables(process.env),
    timeout: PROBE_TIMEOUT_MS,
  });
  return verdict(bwrap, {
    code: r.status,
    signal: r.signal,
    stderr: r.stderr ?? "",
    error: r.error,
  });
}
