/**
 * Whether a file another person could have written may steer xcsh, and how
 * such files are read: the size is checked on the open descriptor before a
 * byte is read, and the read itself stops at the cap (a 2 GB sparse file
 * costs nothing).
 *
 * A file that can start programs or send keys somewhere (config, settings,
 * `.mcp.json`) is ignored when it is owned by another user, or writable by
 * its group or by everyone: like git's `safe.directory`, this stops a file
 * planted in a shared parent such as `/tmp` from applying to a repository
 * below it. Files owned by root count as the user's own: nobody but root
 * could have planted them, and root can do anything anyway (system-wide
 * installs, root-owned checkouts in containers).
 *
 * @example
 * ```ts
 * ownershipProblem({ uid: 1001, mode: 0o100644 }, 1000); // "owned by another user (uid 1001)"
 * ownershipProblem({ uid: 0, mode: 0o100644 }, 1000);    // undefined (root's)
 * const r = readCappedSync("/home/me/.xcsh/agent/config.yml", 1024 * 1024);
 * if (!r.ok) console.error(r.reason);
 * ```
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import process from "node:process";

/** Config, settings, registry and `.mcp.json` files over this size are refused. */
export const MAX_SETTINGS_FILE_BYTES = 1024 * 1024;

/** This process's user id, or undefined where there is none (Windows). */
export function currentUid(): number | undefined {
  return typeof process.getuid === "function" ? process.getuid() : undefined;
}

/** This process's group id, or undefined where there is none (Windows). */
export function currentGid(): number | undefined {
  return typeof process.getgid === "function" ? process.getgid() : undefined;
}

/**
 * Why a file (or folder) with these owner and mode bits must not be trusted,
 * or undefined when it may be. Pure. A folder with the sticky bit (`/tmp`)
 * is not "writable by everyone" in the sense that matters: others cannot
 * replace what is in it. Group write is fine when the group is the user's
 * private group: the user's own primary group, with the user's own number
 * (the "user private group" scheme under which systems set a umask of 002,
 * so that every folder a user makes is group-writable); a shared primary
 * group such as `users` (gid 100) does not qualify.
 */
export function ownershipProblem(
  info: { uid: number; mode: number; gid?: number },
  uid: number | undefined = currentUid(),
  gid: number | undefined = currentGid(),
): string | undefined {
  if (uid === undefined) return undefined;
  if (info.uid !== uid && info.uid !== 0) return `owned by another user (uid ${info.uid})`;
  const sticky = (info.mode & 0o1000) !== 0;
  if ((info.mode & 0o002) !== 0 && !sticky) return "writable by every user";
  const privateGroup = info.gid !== undefined && info.gid === gid && gid === uid;
  if ((info.mode & 0o020) !== 0 && !sticky && !privateGroup) return "writable by its group";
  return undefined;
}

/**
 * Parses a whole file's text as JSON. A syntax error says only that: the
 * engines' messages quote the text they met, and the file may be a secret
 * (a token, a credentials file) linked where a settings file was expected.
 */
export function parseJsonFile(text: string): { ok: true; value: unknown } | {
  ok: false;
  reason: string;
} {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, reason: "not valid JSON" };
  }
}

/** How to make a file acceptable again, for warnings. */
export function ownershipHint(problem: string, path: string): string {
  return problem.startsWith("owned")
    ? `ignored: a file or folder owned by someone else may not configure xcsh for you (chown it, or remove ${path})`
    : `ignored: others could change it (run 'chmod go-w ${path}')`;
}

export type CappedRead =
  | { ok: true; bytes: Buffer; info: Stats }
  | { ok: false; reason: string; code?: string; size?: number; error?: unknown };

/** Opening flags: read only, never waiting for a FIFO's writer. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** What the descriptor's `fstat` rules out before anything is read. */
function refuse(info: Stats, limit: number): CappedRead | undefined {
  if (info.isDirectory()) return { ok: false, reason: "is a folder, not a file", code: "EISDIR" };
  if (!info.isFile()) {
    return { ok: false, reason: "cannot be read: not a regular file", code: "ENOTREG" };
  }
  if (info.size > limit) {
    return { ok: false, reason: tooLargeReason(info.size, limit), code: "EFBIG", size: info.size };
  }
  return undefined;
}

function failure(err: unknown): CappedRead {
  const e = err as NodeJS.ErrnoException;
  return { ok: false, reason: `cannot be read: ${e?.message ?? e}`, code: e?.code, error: err };
}

/** {@link readCappedSync}, asynchronously. */
export async function readCapped(path: string, limit: number): Promise<CappedRead> {
  let fh: FileHandle;
  try {
    // Loaded on first use: a process that reads only synchronously never pays for it.
    const { open } = await import("node:fs/promises");
    fh = await open(path, OPEN_FLAGS);
  } catch (err) {
    return failure(err);
  }
  try {
    const info = await fh.stat();
    const refused = refuse(info, limit);
    if (refused) return refused;
    const buf = Buffer.allocUnsafe(info.size);
    let n = 0;
    while (n < buf.length) {
      const { bytesRead } = await fh.read(buf, n, buf.length - n, n);
      if (bytesRead === 0) break;
      n += bytesRead;
    }
    return { ok: true, bytes: buf.subarray(0, n), info };
  } catch (err) {
    return failure(err);
  } finally {
    await fh.close().catch(() => {});
  }
}

function sizeLabel(n: number): string {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MiB` : `${n} bytes`;
}

/** The message for a file over `limit` bytes. */
export function tooLargeReason(size: number, limit: number): string {
  return `file is ${sizeLabel(size)}, over the ${sizeLabel(limit)} limit`;
}

/**
 * Reads at most `limit` bytes of a regular file. It is opened without
 * blocking (a FIFO is refused, never waited on), measured on the descriptor,
 * and read no further than that size, so never past the cap even when it
 * grows meanwhile (four system calls: open, fstat, read, close). Never
 * throws: `ENOENT` and other failures come back with their code.
 */
export function readCappedSync(path: string, limit: number): CappedRead {
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (err) {
    return failure(err);
  }
  try {
    const info = fstatSync(fd);
    const refused = refuse(info, limit);
    if (refused) return refused;
    // The size the descriptor gave (at most the limit, or refused above) is
    // all that is read: the bytes and `info` describe one state of the file,
    // and a file growing meanwhile changes its signature for the next look.
    const buf = Buffer.allocUnsafe(info.size);
    let n = 0;
    while (n < buf.length) {
      const got = readSync(fd, buf, n, buf.length - n, n);
      if (got === 0) break;
      n += got;
    }
    return { ok: true, bytes: buf.subarray(0, n), info };
  } catch (err) {
    return failure(err);
  } finally {
    closeSync(fd);
  }
}
