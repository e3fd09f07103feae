/**
 * How a child reads its envelope from stdin, and notices its parent is gone.
 *
 * A parent xcsh writes the envelope as one line and keeps the pipe open
 * (`XCSH_PARENT_PIPE=1`), so the pipe's end means the parent died: the line
 * is the envelope, each later line a control message (`protocol/control.ts`)
 * handed to `onControl`, and the later end calls `onParentGone`. Anyone else may pipe
 * the envelope and close; then all of stdin is the envelope. Reads go straight
 * to the descriptor (Node's `process.stdin` stream stack costs a child
 * several milliseconds to build); a non-blocking descriptor is polled.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * const text = await readEnvelope({ watchParent: true, onParentGone: () => controller.abort() });
 * ```
 *
 * @module
 */
import { read } from "node:fs";
import { envelopeTooLarge, MAX_ENVELOPE_BYTES } from "../protocol/limits.ts";
import { type ControlMessage, lineSplitter, parseControlLine } from "../protocol/control.ts";

const CHUNK = 64 * 1024;

/** One read from `fd`: the bytes, or `null` at the end. Polls on EAGAIN. */
export function readChunk(fd: number): Promise<Uint8Array | null> {
  return new Promise((resolve, reject) => {
    const buf = new Uint8Array(CHUNK);
    const attempt = () =>
      read(fd, buf, 0, CHUNK, null, (err, n) => {
        if (err) {
          if (err.code === "EAGAIN" || err.code === "EWOULDBLOCK" || err.code === "EINTR") {
            setTimeout(attempt, 1);
          } else reject(err);
          return;
        }
        resolve(n === 0 ? null : buf.subarray(0, n));
      });
    attempt();
  });
}

export interface ReadEnvelopeOptions {
  /** Stop at the first line and watch the rest of the pipe for the parent's end. */
  watchParent: boolean;
  /** Called once when the watched pipe ends or fails after the envelope. */
  onParentGone: () => void;
  /** The descriptor to read (stdin). */
  fd?: number;
  /** Called with each control message that follows the envelope on a watched pipe. */
  onControl?: (message: ControlMessage) => void;
  /** Reads one chunk; for tests. */
  readChunk?: (fd: number) => Promise<Uint8Array | null>;
  /** Input beyond this many bytes is refused ({@link EnvelopeTooLarge}). */
  maxBytes?: number;
}

/** Thrown when the envelope is larger than allowed; its message says so. */
export class EnvelopeTooLarge extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EnvelopeTooLarge";
  }
}

/**
 * The envelope text: the first line when watching the parent, else all of
 * the input. Rejects only when reading fails before the envelope is complete.
 */
export async function readEnvelope(opts: ReadEnvelopeOptions): Promise<string> {
  const fd = opts.fd ?? 0;
  const next = opts.readChunk ?? readChunk;
  const decoder = new TextDecoder();
  const max = opts.maxBytes ?? MAX_ENVELOPE_BYTES;
  let text = "";
  let bytes = 0;
  for (;;) {
    const chunk = await next(fd);
    if (chunk === null) return text + decoder.decode();
    bytes += chunk.length;
    if (bytes > max) throw new EnvelopeTooLarge(`invalid envelope: ${envelopeTooLarge(bytes)}`);
    text += decoder.decode(chunk, { stream: true });
    const nl = opts.watchParent ? text.indexOf("\n") : -1;
    if (nl >= 0) {
      const onControl = opts.onControl;
      const feed = lineSplitter((line) => {
        const m = parseControlLine(line);
        if (m) onControl?.(m);
      });
      // What came with the envelope's chunk is already the channel's.
      feed(text.slice(nl + 1));
      watch(fd, next, (chunk) => feed(decoder.decode(chunk, { stream: true })), opts.onParentGone);
      return text.slice(0, nl);
    }
  }
}

/** Hands whatever follows the envelope to `onChunk` until the pipe ends. */
function watch(
  fd: number,
  next: (fd: number) => Promise<Uint8Array | null>,
  onChunk: (chunk: Uint8Array) => void,
  onGone: () => void,
): void {
  const loop = (): Promise<void> =>
    next(fd).then((chunk) => {
      if (chunk === null) return onGone();
      onChunk(chunk);
      return loop();
    }, () => onGone());
  void loop();
}
