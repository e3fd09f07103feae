/**
 * Reading one instruction file without trusting it: the file is opened
 * without blocking (a FIFO never hangs the run), checked on the open
 * descriptor (a folder, a FIFO or a device, and anything over
 * {@link CONTEXT_FILE_MAX_BYTES} are refused before a byte is read), and
 * refused when it looks binary. A missing file is simply absent; every other
 * problem is one warning naming the file. The reads are synchronous (a few
 * small files, read once per task call: the promise API would cost every
 * start its load).
 *
 * @example
 * ```ts
 * await readContextFile("/p/AGENTS.md");
 * // { kind: "text", text: "Use tabs.\n" } | { kind: "missing" } | { kind: "skipped", reason: "…" }
 * ```
 *
 * @module
 */
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

/** An instruction file larger than this is skipped. */
export const CONTEXT_FILE_MAX_BYTES = 1024 * 1024;

export type ContextRead =
  | { kind: "text"; text: string }
  | { kind: "missing" }
  | { kind: "skipped"; reason: string };

/** True when the first 8 KiB hold a NUL byte. Pure. */
export function looksBinary(buf: Uint8Array): boolean {
  const n = Math.min(buf.length, 8192);
  for (let i = 0; i < n; i++) if (buf[i] === 0) return true;
  return false;
}

/** Reads one instruction file, or says why not. Never throws. */
export function readContextFile(
  path: string,
  maxBytes = CONTEXT_FILE_MAX_BYTES,
): Promise<ContextRead> {
  return Promise.resolve(readContextFileSync(path, maxBytes));
}

function readContextFileSync(path: string, maxBytes: number): ContextRead {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { kind: "missing" };
    return { kind: "skipped", reason: `cannot be read (${code ?? (err as Error).message})` };
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) return { kind: "skipped", reason: "is a folder, not a file" };
    if (!st.isFile()) {
      return { kind: "skipped", reason: "is not a regular file (a FIFO, socket or device)" };
    }
    if (st.size > maxBytes) {
      return {
        kind: "skipped",
        reason: `is ${st.size} bytes, more than the ${maxBytes} an instruction file may have`,
      };
    }
    // Read at most one byte past the limit: the file may grow after the stat.
    // The buffer starts at the size the stat gave (plus the byte that shows
    // growth) and grows only for a file that did.
    let buf = new Uint8Array(st.size + 1);
    let length = 0;
    for (;;) {
      if (length === buf.length) {
        if (buf.length > maxBytes) break;
        const bigger = new Uint8Array(Math.min(buf.length * 2, maxBytes + 1));
        bigger.set(buf);
        buf = bigger;
      }
      const bytesRead = readSync(fd, buf, length, buf.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > maxBytes) {
      return { kind: "skipped", reason: `grew past ${maxBytes} bytes while being read` };
    }
    const bytes = buf.subarray(0, length);
    if (looksBinary(bytes)) return { kind: "skipped", reason: "looks like a binary file" };
    return { kind: "text", text: new TextDecoder().decode(bytes) };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { kind: "skipped", reason: `cannot be read (${code ?? (err as Error).message})` };
  } finally {
    try {
      closeSync(fd);
    } catch {
      // closed already
    }
  }
}
