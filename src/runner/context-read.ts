/**
 * Reading one instruction file without trusting it: the file is opened
 * without blocking (a FIFO never hangs the run), checked on the open
 * descriptor (a folder, a FIFO or a device, and anything over
 * {@link CONTEXT_FILE_MAX_BYTES} are refused before a byte is read), and
 * refused when it looks binary. A missing file is simply absent; every other
 * problem is one warning naming the file.
 *
 * @example
 * ```ts
 * await readContextFile("/p/AGENTS.md");
 * // { kind: "text", text: "Use tabs.\n" } | { kind: "missing" } | { kind: "skipped", reason: "…" }
 * ```
 *
 * @module
 */
import { constants } from "node:fs";
import { open } from "node:fs/promises";

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
export async function readContextFile(
  path: string,
  maxBytes = CONTEXT_FILE_MAX_BYTES,
): Promise<ContextRead> {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { kind: "missing" };
    return { kind: "skipped", reason: `cannot be read (${code ?? (err as Error).message})` };
  }
  try {
    const st = await handle.stat();
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
    const buf = new Uint8Array(maxBytes + 1);
    let length = 0;
    while (length < buf.length) {
      const { bytesRead } = await handle.read(buf, length, buf.length - length, null);
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
    await handle.close().catch(() => {});
  }
}
