// Unit tests for file signatures: equality field by field, when a signature
// is settled enough to trust, and the stored form.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  type FileSignature,
  isSettled,
  packSignature,
  sameSignature,
  SETTLE_MS,
  signatureOf,
  unpackSignature,
} from "./file-signature.ts";

const base: FileSignature = { dev: 1, ino: 2, size: 3, mtimeMs: 1000.5, ctimeMs: 2000.25 };

describe("file signatures", () => {
  test("the same state is the same signature; any field changed is not", () => {
    assert.ok(sameSignature(base, { ...base }));
    for (const k of Object.keys(base) as (keyof FileSignature)[]) {
      assert.ok(!sameSignature(base, { ...base, [k]: base[k] + 1 }), k);
    }
  });

  test("signatureOf keeps exactly the five fields", () => {
    assert.deepEqual(signatureOf({ ...base, uid: 0, mode: 0o644 } as typeof base), base);
  });

  test("settled once both times are SETTLE_MS old", () => {
    const newest = Math.max(base.mtimeMs, base.ctimeMs);
    assert.ok(isSettled(base, newest + SETTLE_MS));
    assert.ok(!isSettled(base, newest + SETTLE_MS - 1));
    assert.ok(!isSettled({ ...base, ctimeMs: 10_000 }, 10_000 + SETTLE_MS - 1), "ctime counts");
    assert.ok(!isSettled({ ...base, mtimeMs: 10_000 }, 10_000 + SETTLE_MS - 1), "mtime counts");
  });

  test("stored as five numbers and read back; anything else is no signature", () => {
    assert.deepEqual(unpackSignature(packSignature(base)), base);
    const bads = [undefined, null, "x", [1, 2, 3, 4], [1, 2, 3, 4, "5"], ["1", 2, 3, 4, 5], [
      1,
      null,
      3,
      4,
      5,
    ], [1, 2, 3, 4, 5, 6]];
    for (const bad of bads) {
      assert.equal(unpackSignature(bad), undefined, JSON.stringify(bad));
    }
  });
});
