import { test } from "node:test";
import assert from "node:assert/strict";
import { resolvePointer } from "./json-pointer.ts";
import { sameJson } from "./same-json.ts";

test("resolvePointer follows objects and arrays, with ~0 and ~1", () => {
  const doc = { a: [{ b: 1 }], "x/y": { "~": true }, n: null };
  assert.deepEqual(resolvePointer(doc, ""), { found: true, value: doc });
  assert.deepEqual(resolvePointer(doc, "/a/0/b"), { found: true, value: 1 });
  assert.deepEqual(resolvePointer(doc, "/x~1y/~0"), { found: true, value: true });
  assert.deepEqual(resolvePointer(doc, "/n"), { found: true, value: null });
  assert.deepEqual(resolvePointer(doc, "/a/1"), { found: false });
  assert.deepEqual(resolvePointer(doc, "/a/01"), { found: false });
  assert.deepEqual(resolvePointer(doc, "/missing"), { found: false });
  assert.deepEqual(resolvePointer(doc, "/a/0/b/c"), { found: false });
  assert.deepEqual(resolvePointer(doc, "/toString"), { found: false }, "own keys only");
});

test("sameJson compares by value, object keys in any order", () => {
  assert.ok(sameJson({ a: [1, { b: 2 }], c: null }, { c: null, a: [1, { b: 2 }] }));
  assert.ok(!sameJson({ a: 1 }, { a: 1, b: 2 }));
  assert.ok(!sameJson([1], { 0: 1 }));
  assert.ok(!sameJson("1", 1));
});
