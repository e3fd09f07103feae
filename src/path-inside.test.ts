import { test } from "node:test";
import assert from "node:assert/strict";
import { isInside } from "./path-inside.ts";

// The full cases live beside the file tools' use of it (tools/inside.test.ts).
test("inside is the folder itself or below it, never a prefix sibling or a parent", () => {
  assert.equal(isInside("/p", ["/p"]), true);
  assert.equal(isInside("/p/a/b", ["/p"]), true);
  assert.equal(isInside("/p-sibling", ["/p"]), false);
  assert.equal(isInside("/", ["/p"]), false);
});
