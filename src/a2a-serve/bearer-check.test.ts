import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { bearerMatches } from "./bearer-check.ts";
import { MIN_TOKEN_LENGTH, serverToken } from "./server-token.ts";

describe("bearerMatches", () => {
  const token = "0123456789abcdef-token";
  test("takes the token after Bearer, the scheme in any case", () => {
    assert.equal(bearerMatches(`Bearer ${token}`, token), true);
    assert.equal(bearerMatches(`bearer ${token}`, token), true);
    assert.equal(bearerMatches(`BEARER \t${token} `, token), true);
  });

  test("refuses no header, another scheme, a wrong, shorter, longer or empty token", () => {
    for (
      const header of [
        undefined,
        "",
        token,
        `Basic ${token}`,
        `Bearer ${token}x`,
        `Bearer ${token.slice(1)}`,
        "Bearer ",
        "Bearer",
        `Bearer ${token} extra`,
      ]
    ) assert.equal(bearerMatches(header, token), false, String(header));
  });
});

describe("serverToken", () => {
  test("generates one when XCSH_A2A_TOKEN is unset or empty", () => {
    assert.deepEqual(serverToken({}, () => "random"), {
      ok: true,
      token: "random",
      generated: true,
    });
    assert.equal((serverToken({ XCSH_A2A_TOKEN: "" }) as { generated: boolean }).generated, true);
    const a = serverToken({});
    const b = serverToken({});
    assert.ok(a.ok && b.ok && a.token !== b.token && a.token.length >= MIN_TOKEN_LENGTH);
  });

  test("takes a set one of 16 printable characters or more", () => {
    const t = "x".repeat(MIN_TOKEN_LENGTH);
    assert.deepEqual(serverToken({ XCSH_A2A_TOKEN: t }), { ok: true, token: t, generated: false });
  });

  test("refuses a short or spaced one with one line", () => {
    const short = serverToken({ XCSH_A2A_TOKEN: "abc" });
    assert.equal(short.ok, false);
    assert.match((short as { message: string }).message, /^XCSH_A2A_TOKEN is 3 characters long/);
    const spaced = serverToken({ XCSH_A2A_TOKEN: "a token with spaces in it" });
    assert.match((spaced as { message: string }).message, /without spaces/);
    const newline = serverToken({ XCSH_A2A_TOKEN: "abcdefghijklmnop\nq" });
    assert.equal(newline.ok, false);
  });
});
