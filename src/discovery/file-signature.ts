/**
 * When a file can be taken as unchanged without reading it again.
 *
 * A file is unchanged when `stat` gives the same device, inode, size,
 * modification time and change time as when it was read. Two things make
 * that safe. The change time cannot be set by a program, so `touch -d`,
 * `cp -p` or an archive keeping old times still show as a change. And a
 * signature is only trusted once it is *settled*: both times at least
 * {@link SETTLE_MS} before the moment of the `stat`. A write landing in the
 * same timestamp tick as the read (1 s on some file systems, 2 s on FAT)
 * could otherwise keep every field the same while the content differs; a
 * settled file that is written again gets a newer time.
 *
 * @example
 * ```ts
 * import { stat } from "node:fs/promises";
 *
 * const sig = signatureOf(await stat("/repo/.claude/agents/explore.md"));
 * isSettled(sig, Date.now()); // false for a file written a moment ago
 * ```
 *
 * @module
 */

export interface FileSignature {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

/** How old a file's times must be before its signature is trusted. */
export const SETTLE_MS = 2000;

/** The signature of `stat`'s result. */
export function signatureOf(
  s: { dev: number; ino: number; size: number; mtimeMs: number; ctimeMs: number },
): FileSignature {
  return { dev: s.dev, ino: s.ino, size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs };
}

/** True when both signatures describe the same file in the same state. */
export function sameSignature(a: FileSignature, b: FileSignature): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size &&
    a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}

/** True when `sig`, taken at `statAtMs` (epoch ms), may be trusted later. */
export function isSettled(sig: FileSignature, statAtMs: number): boolean {
  return Math.max(sig.mtimeMs, sig.ctimeMs) <= statAtMs - SETTLE_MS;
}

/** A signature as five numbers, for storage. */
export function packSignature(s: FileSignature): number[] {
  return [s.dev, s.ino, s.size, s.mtimeMs, s.ctimeMs];
}

/** The signature stored by {@link packSignature}, or undefined when `v` is not one. */
export function unpackSignature(v: unknown): FileSignature | undefined {
  if (!Array.isArray(v) || v.length !== 5) return undefined;
  // Indexed, not destructured: a cache file holds thousands, read before the JIT warms up.
  const dev = v[0], ino = v[1], size = v[2], mtimeMs = v[3], ctimeMs = v[4];
  if (
    typeof dev !== "number" || typeof ino !== "number" || typeof size !== "number" ||
    typeof mtimeMs !== "number" || typeof ctimeMs !== "number"
  ) {
    return undefined;
  }
  return { dev, ino, size, mtimeMs, ctimeMs };
}
