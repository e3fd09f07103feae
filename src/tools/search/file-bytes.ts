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

/**
 * A reader whose results share one buffer: use each before the next read.
 * `knownFile` says the listing found a regular file there (it is still
 * checked on the descriptor when the file does not fit the buffer).
 */
export function fileReader(maxBytes: number): (abs: string, knownFile?: boolean) => FileBytes {
  let pool = Buffer.allocUnsafe(64 * 1024);
  return (abs, knownFile = false) => {
    let fd: number;
    try {
      fd = openSync(abs, OPEN_FLAGS);
    } catch {
      return { kind: "skip" };
    }
    try {
      if (knownFile) {
        // Most files fit the buffer: read, and a second read that finds the
        // end proves the file was whole, without an `fstat` (whose result
        // object costs more than the call). A longer file is measured below.
        const got = readSync(fd, pool, 0, pool.length, 0);
        if (got < pool.length && got <= maxBytes && readSync(fd, pool, got, 1, got) === 0) {
          return { kind: "bytes", bytes: pool.subarray(0, got) };
        }
      }
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
