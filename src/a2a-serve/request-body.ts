/**
 * Reads a request's body, at most {@link MAX_BODY_BYTES}: a `Content-Length`
 * past the limit is refused before anything is read, a body that grows past
 * it is refused as soon as it does (reading stops there), so a huge body
 * costs the server no more than the limit. The body is UTF-8 text.
 *
 * @module
 */
import type { IncomingMessage } from "node:http";

/** The largest request body taken (an assignment, not a file upload). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

export type Body = { ok: true; text: string } | { ok: false; message: string };

function tooBig(limit: number): Body {
  return { ok: false, message: `the request body is over ${limit} bytes` };
}

/** The body of `req`, or why it was refused. */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Body> {
  const declared = Number(req.headers["content-length"] ?? NaN);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.resolve(tooBig(limit));
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (b: Body) => {
      if (done) return;
      done = true;
      resolve(b);
    };
    req.on("data", (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        req.pause();
        finish(tooBig(limit));
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => finish({ ok: true, text: Buffer.concat(chunks).toString("utf8") }));
    req.on(
      "error",
      (e) => finish({ ok: false, message: `the request body could not be read: ${e.message}` }),
    );
    req.on("aborted", () => finish({ ok: false, message: "the client went away" }));
  });
}
