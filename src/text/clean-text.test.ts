import { test } from "node:test";
import assert from "node:assert/strict";
import { cleanText, invisibleIn, showInvisible } from "./clean-text.ts";

const ESC = "\u001b";

test("escape sequences, C0/C1 controls and bidi overrides go; newline and tab stay", () => {
  assert.equal(cleanText(`a${ESC}]52;c;ZXZpbA==\u0007b`), "ab", "OSC ended by BEL");
  assert.equal(cleanText(`a${ESC}]8;;http://x${ESC}\\link${ESC}]8;;${ESC}\\b`), "alinkb");
  assert.equal(cleanText(`${ESC}[1;31mred${ESC}[0m`), "red");
  assert.equal(cleanText(`x\u009b2Jy`), "xy", "8-bit CSI");
  assert.equal(cleanText("a\u202Eb\u2066c"), "abc");
  assert.equal(cleanText("a\rb\u0000c\u007f"), "abc");
  assert.equal(cleanText("line\n\tindented é 日本"), "line\n\tindented é 日本");
  assert.equal(cleanText(`trailing ${ESC}]0;title`), "trailing ", "unterminated OSC");
});

test("invisible characters in names are found and shown", () => {
  assert.equal(invisibleIn("explore"), undefined);
  assert.equal(invisibleIn("ex\u200Dplore"), "U+200D");
  assert.equal(invisibleIn("\uFEFFexplore"), "U+FEFF");
  assert.equal(invisibleIn("a\u202Eb"), "U+202E");
  assert.equal(showInvisible("a\u200Bb\u202Ec"), "a<U+200B>b<U+202E>c");
});
