/**
 * How a session file is read without holding it: from a byte offset, in
 * chunks of {@link CHUNK_BYTES}, one line at a time, so that memory follows
 * the longest line and never the file (a session can grow to gigabytes, or
 * be a sparse file of nothing). A line longer than {@link MAX_RECORD_BYTES}
 * is an error naming the file, the line and the cap. The unfinished end of
 * the file (no newline yet) is handed back as `tail` for the caller to
 * judge. What a line means is `store.ts`'s business.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { closeSync, openSync, readSync } from "node:fs";

/** The longest line (one record) a session file may hold. */
export const MAX_RECORD_BYTES = 64 * 1024 * 1024;

/** How much is read at a time. */
export const CHUNK_BYTES = 1024 * 1024;

/** Where reading goes on: the byte offset after the last whole line, and its count. */
export interface LinePosition {
  offset: number;
  line: number;
}

export type LineScan =
  | {
    ok: true;
    /** True when `onLine` asked to stop. */
    stopped: boolean;
    /** The text after the last newline, when there is any. */
    tail?: string;
  }
  | { ok: false; missing: boolean; message: string };

function tooLong(file: string, index: number, max: number): LineScan {
  return {
    ok: false,
    missing: false,
    message: `${file} line ${index + 1} is longer than ${
      max / 1024 / 1024
    } MiB, the most one record may be`,
  };
}

/**
 * Calls `onLine(text, index, bytes)` for each whole line of `file` from
 * `pos` on, advancing `pos` past it; `onLine` answers false to stop.
 */
export function scanLines(
  file: string,
  pos: LinePosition,
  onLine: (text: string, index: number, bytes: number) => boolean,
  max = MAX_RECORD_BYTES,
): LineScan {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { ok: false, missing: code === "ENOENT", message: `cannot read ${file} (${code})` };
  }
  try {
    const chunk = Buffer.alloc(CHUNK_BYTES);
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let at = pos.offset;
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, at);
      if (n === 0) break;
      at += n;
      let start = 0;
      for (;;) {
        const nl = chunk.indexOf(10, start);
        if (nl < 0 || nl >= n) break;
        const lineBytes = pendingBytes + (nl - start);
        if (lineBytes > max) return tooLong(file, pos.line, max);
        const text = pending.length === 0
          ? chunk.toString("utf8", start, nl)
          : Buffer.concat([...pending, chunk.subarray(start, nl)]).toString("utf8");
        pending = [];
        pendingBytes = 0;
        start = nl + 1;
        const index = pos.line;
        pos.offset += lineBytes + 1;
        pos.line++;
        if (!onLine(text, index, lineBytes + 1)) return { ok: true, stopped: true };
      }
      if (start < n) {
        pendingBytes += n - start;
        if (pendingBytes > max) return tooLong(file, pos.line, max);
        pending.push(Buffer.from(chunk.subarray(start, n)));
      }
    }
    return {
      ok: true,
      stopped: false,
      ...(pendingBytes > 0 ? { tail: Buffer.concat(pending).toString("utf8") } : {}),
    };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { ok: false, missing: false, message: `cannot read ${file} (${code ?? err})` };
  } finally {
    closeSync(fd);
  }
}
