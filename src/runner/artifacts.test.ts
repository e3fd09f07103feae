import { test } from "node:test";
import assert from "node:assert/strict";
import { artifactStem } from "./artifacts.ts";

test("safe ids are their own stem; changed ones get a hash, so distinct ids stay distinct", () => {
  assert.equal(artifactStem("0-explore"), "0-explore");
  assert.match(artifactStem("a/b"), /^a_b-[0-9a-f]{8}$/);
  assert.equal(artifactStem("a_b"), "a_b");
  assert.notEqual(artifactStem("a/b"), artifactStem("a\\b"));
  assert.match(artifactStem(".."), /^\.\.-[0-9a-f]{8}$/, "never a bare dot name");
  assert.match(artifactStem(""), /^task-[0-9a-f]{8}$/);
});
