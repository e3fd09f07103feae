/**
 * Does a request carry the server's bearer token? The `Authorization`
 * header must be `Bearer <token>` (the scheme in any case, RFC 7235), and
 * the token is compared in constant time: both sides are hashed first, so
 * neither the comparison nor an early length check says how much of a
 * guess was right. Pure.
 *
 * @example
 * ```ts
 * bearerMatches("Bearer s3cret-token", "s3cret-token"); // true
 * bearerMatches(undefined, "s3cret-token"); // false
 * ```
 *
 * @module
 */
import { createHash, timingSafeEqual } from "node:crypto";

function digest(text: string): Uint8Array {
  return createHash("sha256").update(text, "utf8").digest();
}

/** True when `header` (an `Authorization` value) is `Bearer <token>`. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? "");
  // An absent header still costs a comparison: the answer's timing says nothing.
  const offered = m ? m[1] : "";
  const same = timingSafeEqual(digest(offered), digest(token));
  return m !== null && same;
}
