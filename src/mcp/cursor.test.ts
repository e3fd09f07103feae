import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { CursorSigner } from "./cursor.ts";

describe("CursorSigner", () => {
  const signer = new CursorSigner();
  test("a cursor reads back as the page it was issued for", () => {
    const c = signer.issue({ query: "review ✓", offset: 100 });
    assert.deepEqual(signer.read(c), { ok: true, page: { query: "review ✓", offset: 100 } });
    assert.match(c, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  });

  test("another server process (another key) is refused", () => {
    const c = new CursorSigner().issue({ query: "", offset: 100 });
    const r = signer.read(c);
    assert.equal(r.ok, false);
    assert.match(!r.ok ? r.message : "", /^'cursor' is not one this server issued/);
  });

  test("a tampered offset, signature or shape is refused", () => {
    const c = signer.issue({ query: "", offset: 100 });
    const [payload, mac] = c.split(".");
    const forged = Buffer.from(JSON.stringify({ v: 1, q: "", o: 0 })).toString("base64url");
    for (
      const bad of [
        `${forged}.${mac}`,
        `${payload}.${mac.slice(0, -2)}`,
        `${payload}x.${mac}`,
        payload,
        "",
        ".",
        "x".repeat(10_000),
      ]
    ) {
      assert.equal(signer.read(bad).ok, false, bad.slice(0, 40));
    }
  });

  test("a signed payload that is no page is refused", () => {
    const key = Buffer.alloc(32, 1);
    const s = new CursorSigner(key);
    const good = s.issue({ query: "q", offset: 5 });
    assert.equal(s.read(good).ok, true);
    // Same key, a payload of the wrong shape: still refused.
    const odd = new CursorSigner(key).issue({ query: "q", offset: -1 });
    assert.equal(s.read(odd).ok, false);
  });
});
