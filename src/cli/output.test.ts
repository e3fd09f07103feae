import { test } from "node:test";
import assert from "node:assert/strict";
import { fitCell, formatTable, MAX_COLUMN_WIDTH } from "./output.ts";

test("fitCell cuts text at its end and paths at their start", () => {
  assert.equal(fitCell("short", 10), "short");
  assert.equal(fitCell("abcdefgh", 5), "abcd…");
  assert.equal(fitCell("/a/b/c/agent.md", 10), "…/agent.md");
  assert.equal(fitCell("a description / with spaces", 8), "a descr…");
  assert.equal([...fitCell("é".repeat(100), 10)].length, 10);
});

test("formatTable caps every column but the last", () => {
  const long = "x".repeat(10_000);
  const table = formatTable(["NAME", "NOTE"], [[long, "kept " + long], ["b", "short"]]);
  const [head, first, second] = table.trimEnd().split("\n");
  assert.equal(head, "NAME" + " ".repeat(MAX_COLUMN_WIDTH - 4 + 2) + "NOTE");
  assert.equal(first, "x".repeat(MAX_COLUMN_WIDTH - 1) + "…  kept " + long);
  assert.equal(second, "b" + " ".repeat(MAX_COLUMN_WIDTH - 1 + 2) + "short");
});

test("formatTable pads by characters, not UTF-16 units", () => {
  // U+1D465 is one character in two UTF-16 units.
  const table = formatTable(["A", "B"], [["\u{1D465}", "1"], ["ab", "2"]]);
  assert.deepEqual(table.trimEnd().split("\n"), ["A   B", "\u{1D465}   1", "ab  2"]);
});
