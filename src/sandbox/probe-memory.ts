/**
 * Where the bubblewrap probes that succeeded are remembered between runs,
 * so that a task's start does not run one again (`sandbox/probe.ts`).
 *
 * One small file, `sandbox-probe.json`, in xcsh's cache folder
 * (`discovery/cache-dir.ts`: `XCSH_CACHE=off` turns it off as it does the
 * definition cache), holding the fingerprints of the last
 * {@link MAX_REMEMBERED} probes that succeeded. It is written whole to a
 * private temporary file (mode 0600) and renamed into place; it is not
 * believed when it or its folder is owned by another user or writable by
 * others (`fs/file-safety.ts`), or when it does not parse. A remembered
 * success never chooses a program or loosens a sandbox: `bwrap` is still
 * looked up as always, and a stale entry can at worst make a sandboxed
 * command fail.
 *
 * @example
 * ```ts
 * const memory = probeMemory("/home/ada/.cache/xcsh");
 * memory.knows("3f2a…"); // false until remember("3f2a…")
 * ```
 *
 * @module
 */
import { mkdirSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { ownershipProblem, readCappedSync } from "../fs/file-safety.ts";
import type { ProbeMemory } from "./probe.ts";

/** How many fingerprints the file keeps (machines, containers, program versions). */
export const MAX_REMEMBERED = 16;
const FILE = "sandbox-probe.json";
const MAX_BYTES = 64 * 1024;

/** The fingerprints in `text`, or none when it is not this file's shape. Pure. */
export function parseRemembered(text: string): string[] {
  try {
    const v: unknown = JSON.parse(text);
    if (typeof v !== "object" || v === null || (v as { version?: unknown }).version !== 1) {
      return [];
    }
    const ok = (v as { ok?: unknown }).ok;
    return Array.isArray(ok) ? ok.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}

/** The fingerprints remembered in `dir`, if its file may be believed. */
function readRemembered(dir: string): string[] {
  try {
    if (ownershipProblem(statSync(dir)) !== undefined) return [];
  } catch {
    return [];
  }
  const read = readCappedSync(join(dir, FILE), MAX_BYTES);
  if (!read.ok || ownershipProblem(read.info) !== undefined) return [];
  return parseRemembered(read.bytes.toString("utf8"));
}

/** The probe memory kept in `dir`, or none (nothing remembered) when `dir` is undefined. */
export function probeMemory(dir: string | undefined): ProbeMemory {
  let known: string[] | undefined;
  const load = () => (known ??= dir === undefined ? [] : readRemembered(dir));
  return {
    knows: (fingerprint) => load().includes(fingerprint),
    remember: (fingerprint) => {
      if (dir === undefined) return;
      const kept = [fingerprint, ...load().filter((f) => f !== fingerprint)]
        .slice(0, MAX_REMEMBERED);
      known = kept;
      const file = join(dir, FILE);
      const tmp = `${file}.${process.pid}.tmp`;
      try {
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        writeFileSync(tmp, JSON.stringify({ version: 1, ok: kept }) + "\n", {
          mode: 0o600,
          flag: "wx",
        });
        renameSync(tmp, file);
      } catch {
        // Best effort: the next run probes again.
        try {
          unlinkSync(tmp);
        } catch {
          // not there
        }
      }
    },
  };
}
