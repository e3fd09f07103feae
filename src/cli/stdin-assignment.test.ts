// Unit tests for joining the words of `xcsh run` with what stdin held.
import { test } from "node:test";
import assert from "node:assert/strict";
import { notText, withStdin } from "./stdin-assignment.ts";

test("stdin follows the words in a fenced block; '-' is stdin alone", () => {
  assert.equal(withStdin(["review", "this"], "a\n"), "review this\n\n```stdin\na\n```");
  assert.equal(withStdin(["x"], "no newline"), "x\n\n```stdin\nno newline\n```");
  assert.equal(withStdin(["-"], "only this"), "only this");
  assert.equal(withStdin(["just", "words"], ""), "just words");
  assert.equal(withStdin(["just"], "  \n"), "just");
  assert.equal(withStdin([], "piped"), "piped");
});

test("the fence is longer than any backtick run inside", () => {
  const text = "````\ncode\n````\n";
  assert.equal(withStdin(["x"], text), "x\n\n`````stdin\n````\ncode\n````\n`````");
});

test("binary and non-UTF-8 stdin are refused", () => {
  assert.match(notText(new Uint8Array([104, 0, 105]))!, /NUL byte at offset 1/);
  assert.match(notText(new Uint8Array([0xff, 0xfe, 0x41]))!, /not UTF-8/);
  assert.equal(notText(new TextEncoder().encode("héllo")), undefined);
});
