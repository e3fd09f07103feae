/**
 * Which bearer token `xcsh a2a` asks of every request: `XCSH_A2A_TOKEN`
 * from the environment when it is set, else a fresh random one (which the
 * server prints on stderr, never on stdout). A set token must be one word
 * of at least {@link MIN_TOKEN_LENGTH} characters: a short or spaced one is
 * refused with one line rather than guarded weakly.
 *
 * @example
 * ```ts
 * serverToken({}); // { ok: true, token: "…", generated: true }
 * serverToken({ XCSH_A2A_TOKEN: "short" }); // { ok: false, message: "XCSH_A2A_TOKEN …" }
 * ```
 *
 * @module
 */
import { randomBytes } from "node:crypto";

/** The shortest token taken from the environment. */
export const MIN_TOKEN_LENGTH = 16;

export type TokenChoice =
  | { ok: true; token: string; generated: boolean }
  | { ok: false; message: string };

/** The token for this server, from `env` or generated. */
export function serverToken(
  env: Record<string, string | undefined>,
  random: () => string = () => randomBytes(24).toString("base64url"),
): TokenChoice {
  const set = env.XCSH_A2A_TOKEN;
  if (set === undefined || set === "") return { ok: true, token: random(), generated: true };
  if (!/^[\x21-\x7e]+$/.test(set)) {
    return {
      ok: false,
      message:
        "XCSH_A2A_TOKEN must be printable ASCII without spaces (it is sent as a bearer token)",
    };
  }
  if (set.length < MIN_TOKEN_LENGTH) {
    return {
      ok: false,
      message:
        `XCSH_A2A_TOKEN is ${set.length} characters long: use at least ${MIN_TOKEN_LENGTH} (or unset it for a generated one)`,
    };
  }
  return { ok: true, token: set, generated: false };
}
