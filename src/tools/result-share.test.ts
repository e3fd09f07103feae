import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  cutToShare,
  DEFAULT_WINDOW_TOKENS,
  inlineLimit,
  MAX_INLINE_CHARS,
  MIN_INLINE_CHARS,
  needsSpill,
} from "./result-share.ts";

describe("inlineLimit (a tool result's share of the window)", () => {
  test("12 % of the window at 4 characters a token", () => {
    assert.equal(inlineLimit(200_000), 96_000);
    assert.equal(inlineLimit(32_000), 15_360);
  });
  test("an unknown or nonsense window counts as the default", () => {
    const d = inlineLimit(DEFAULT_WINDOW_TOKENS);
    assert.equal(inlineLimit(undefined), d);
    assert.equal(inlineLimit(0), d);
    assert.equal(inlineLimit(-5), d);
  });
  test("bounded above by the read cap and below by a floor", () => {
    assert.equal(inlineLimit(2_000_000), MAX_INLINE_CHARS);
    assert.equal(inlineLimit(1_000), MIN_INLINE_CHARS);
  });
});

describe("needsSpill", () => {
  test("over the limit, or cut by its tool", () => {
    assert.equal(needsSpill("abc", 3), false);
    assert.equal(needsSpill("abcd", 3), true);
    assert.equal(needsSpill("ab", 3, "ab"), false);
    assert.equal(needsSpill("a…b", 3, "aXXXXb"), true);
  });
});

describe("cutToShare", () => {
  test("a result that fits and was not cut is itself", () => {
    assert.deepEqual(cutToShare("hello", 5, "/x/f.txt"), { text: "hello", cut: false });
  });
  test("a long result keeps head and tail within the limit and names the file", () => {
    const text = "H".repeat(600) + "M".repeat(1000) + "T".repeat(300);
    const r = cutToShare(text, 900, "/art/001-bash.txt");
    assert.equal(r.cut, true);
    const [head, notice, tail] = r.text.split("\n");
    assert.equal(head, "H".repeat(600));
    assert.equal(tail, "T".repeat(300));
    assert.match(notice, /1000 of 1900 characters cut/);
    assert.match(notice, /\/art\/001-bash\.txt/);
    assert.match(notice, /`read`/);
  });
  test("a result its tool cut before says how long the whole is and where", () => {
    const r = cutToShare("short", 100, "/a/f.txt", 5_000_000);
    assert.equal(r.cut, true);
    assert.match(r.text, /^short\n\[5000000 characters in all: the whole result is in \/a\/f\.txt/);
  });
  test("a result that could not be kept says why, never a path", () => {
    const r = cutToShare("x".repeat(50), 10, { error: "disk full" });
    assert.match(r.text, /could not be kept \(disk full\)/);
    assert.ok(r.text.length < 50 + 100);
  });
});
