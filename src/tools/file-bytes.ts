/**
 * How a search reads one file: opened once (never blocking on a FIFO), its
 * size taken from the open file, and its bytes read into a buffer the caller
 * reuses from file to file, so a search of thousands of files allocates
 * almost nothing. Reports a file over the size limit without reading it.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

export type FileBytes =
  | { kind: "bytes"; bytes: Buffer }
  | { kind: "too-large"; size: number }
  /** not a regular file, or unreadable */
  | { kind: "skip" };

const OPEN_FLAGS = constants.O_NONBLOCK === undefined
  ? "r"
  : constants.O_RDONLY | constants.O_NONBLOCK;

/** A reader whose results share one buffer: use each before the next read. */
export function fileReader(maxBytes: number): (abs: string) => FileBytes {
  let pool = Buffer.allocUnsafe(64 * 1024);
  return (abs) => {
    let fd: number;
    try {
      fd = openSync(abs, OPEN_FLAGS);
    } catch {
      return { kind: "skip" };
    }
    try {
      const st = fstatSync(fd);
      if (!st.isFile()) return { kind: "skip" };
      if (st.size > maxBytes) return { kind: "too-large", size: st.size };
      if (pool.length < st.size) pool = Buffer.allocUnsafe(Math.min(maxBytes, st.size * 2));
      let n = 0;
      while (n < st.size) {
        const got = readSync(fd, pool, n, st.size - n, n);
        if (got === 0) break;
        n += got;
      }
      return { kind: "bytes", bytes: pool.subarray(0, n) };
    } catch {
      return { kind: "skip" };
    } finally {
      closeSync(fd);
    }
  };
}
