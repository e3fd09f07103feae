import { test } from "node:test";
import assert from "node:assert/strict";
import { isInside } from "./path-inside.ts";

test("a folder holds itself and what is below it, not a sibling sharing its prefix", () => {
  assert.equal(isInside("/p", ["/p"]), true);
  assert.equal(isInside("/p/a/b", ["/p"]), true);
  assert.equal(isInside("/prefix", ["/p"]), false);
  assert.equal(isInside("/", ["/p"]), false);
  assert.equal(isInside("/p/../q", ["/p"]), false);
  assert.equal(isInside("/anything", ["/"]), true);
  assert.equal(isInside("/q/x", ["/p", "/q"]), true);
  assert.equal(isInside("/q/x", []), false);
});
