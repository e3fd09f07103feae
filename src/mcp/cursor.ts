/**
 * The `agents` tool's page cursors: opaque to clients and verifiable by the
 * server that issued them. A cursor carries the query and the offset of the
 * next page, signed with HMAC-SHA-256 under a key drawn at random when the
 * server process starts; a cursor edited by hand, cut, or issued by another
 * server process (another key) is refused with a one-line reason.
 *
 * @example
 * ```ts
 * const cursors = new CursorSigner();
 * const c = cursors.issue({ query: "review", offset: 100 });
 * cursors.read(c); // { ok: true, page: { query: "review", offset: 100 } }
 * new CursorSigner().read(c).ok; // false: another server's cursor
 * ```
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** Where a next page starts. */
export interface PagePosition {
  query: string;
  offset: number;
}

/** The longest cursor read at all (a real one is far shorter). */
const MAX_CURSOR = 4096;

const REFUSED =
  "'cursor' is not one this server issued (it was changed, or comes from another server process); call agents again without a cursor";

export class CursorSigner {
  readonly #key: Buffer;

  constructor(key: Buffer = randomBytes(32)) {
    this.#key = key;
  }

  #mac(payload: string): Buffer {
    return createHmac("sha256", this.#key).update(payload).digest();
  }

  /** The cursor for `page`. */
  issue(page: PagePosition): string {
    const payload = Buffer.from(JSON.stringify({ v: 1, q: page.query, o: page.offset }))
      .toString("base64url");
    return `${payload}.${this.#mac(payload).toString("base64url")}`;
  }

  /** The page a cursor points at, or why it is refused. */
  read(cursor: string): { ok: true; page: PagePosition } | { ok: false; message: string } {
    const refused = { ok: false as const, message: REFUSED };
    if (cursor.length > MAX_CURSOR) return refused;
    const dot = cursor.indexOf(".");
    if (dot <= 0) return refused;
    const payload = cursor.slice(0, dot);
    const given = Buffer.from(cursor.slice(dot + 1), "base64url");
    const expected = this.#mac(payload);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return refused;
    let v: unknown;
    try {
      v = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    } catch {
      return refused;
    }
    const o = v as Record<string, unknown>;
    if (
      typeof o !== "object" || o === null || o.v !== 1 || typeof o.q !== "string" ||
      !Number.isSafeInteger(o.o) || (o.o as number) < 0
    ) {
      return refused;
    }
    return { ok: true, page: { query: o.q, offset: o.o as number } };
  }
}
