/**
 * How xcsh's own text reaches stdout and stderr: written synchronously,
 * straight to the file descriptor.
 *
 * Node's `process.stdout` builds a stream stack on first use, which in a
 * compiled binary costs more than the rest of a short command (about 15 ms
 * against microseconds here). A direct write also keeps interleaved stdout
 * and stderr lines in order and is complete before the process exits. Two
 * descriptor states need care: one shared with a parent that made it
 * non-blocking answers EAGAIN, and the write waits a millisecond and goes on;
 * one whose reader went away (EPIPE, or EBADF when it was closed) ends this
 * process's output there, silently, as `head` expects. Partial writes
 * continue where they stopped.
 *
 * @example
 * ```ts
 * import { writeErr, writeOut } from "./stdio.ts";
 * writeOut("{}\n");
 * writeErr("xcsh: warning: …\n");
 * ```
 *
 * @module
 */
import { readlinkSync, writeSync } from "node:fs";
import { cleanText } from "./clean-text.ts";
import process from "node:process";

/** Writes `length` bytes of `bytes` from `offset`; returns how many went. */
export type WriteBytes = (
  fd: number,
  bytes: Uint8Array,
  offset: number,
  length: number,
) => number;

const systemWrite: WriteBytes = (fd, bytes, offset, length) => writeSync(fd, bytes, offset, length);

const encoder = new TextEncoder();
/** Descriptors whose reader is gone: nothing more is written to them. */
const gone = new Set<number>();
let sleeper: Int32Array | undefined;

function pause(ms: number): void {
  sleeper ??= new Int32Array(new SharedArrayBuffer(4));
  Atomics.wait(sleeper, 0, 0, ms);
}

function errorCode(err: unknown): string | undefined {
  return (err as { code?: string } | null)?.code;
}

/**
 * Writes all of `text` to `fd`. Returns false when the descriptor's reader is
 * gone (then and afterwards nothing is written); other errors are thrown.
 */
export function writeText(fd: number, text: string, write: WriteBytes = systemWrite): boolean {
  if (gone.has(fd)) return false;
  if (text === "") return true;
  const bytes = encoder.encode(text);
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += write(fd, bytes, offset, bytes.length - offset);
    } catch (err) {
      const code = errorCode(err);
      if (code === "EAGAIN" || code === "EWOULDBLOCK" || code === "EINTR") {
        pause(1);
        continue;
      }
      if (code === "EPIPE" || code === "EBADF") {
        gone.add(fd);
        return false;
      }
      throw err;
    }
  }
  return true;
}

/**
 * Writes `text` to stdout, without control characters, escape sequences or
 * bidi overrides (text from files, models and tools must not drive the
 * terminal); see `clean-text.ts`.
 */
export function writeOut(text: string): void {
  writeText(1, cleanText(text));
}

/** Writes `text` to stderr, cleaned like {@link writeOut}. */
export function writeErr(text: string): void {
  writeText(2, cleanText(text));
}

/** Writes `text` to stdout as it is: protocol lines and JSON documents. */
export function writeOutRaw(text: string): void {
  writeText(1, text);
}

/** Writes `text` to stderr as it is: only for escape sequences xcsh makes itself. */
export function writeErrRaw(text: string): void {
  writeText(2, text);
}

/** Device paths that are terminals: pseudo-terminals, consoles, serial lines. */
const TERMINAL_DEVICE = /^\/dev\/(?:pts\/\d+|tty[^/]*|console)$/;

/** True when `devicePath` (what `/proc/self/fd/N` points at) is a terminal. */
export function isTerminalDevice(devicePath: string): boolean {
  return TERMINAL_DEVICE.test(devicePath);
}

/**
 * True when descriptor `fd` (0, 1 or 2) is a terminal. On Linux this reads
 * where the descriptor points, because `node:tty` and the `process` streams
 * both load the stream stack this module avoids; elsewhere it asks the stream.
 */
export function isTerminal(fd: 0 | 1 | 2): boolean {
  if (process.platform === "linux") {
    try {
      return isTerminalDevice(readlinkSync(`/proc/self/fd/${fd}`));
    } catch {
      // No /proc: ask the stream.
    }
  }
  const stream = fd === 0 ? process.stdin : fd === 1 ? process.stdout : process.stderr;
  return stream.isTTY === true;
}

/** For tests: forget which descriptors were found gone. */
export function resetGoneDescriptors(): void {
  gone.clear();
}
