import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { editDistance, nameDistance, namesTail, nearestNames, shownName } from "./nearest-names.ts";

describe("editDistance", () => {
  const rows: [string, string, number][] = [
    ["", "", 0],
    ["abc", "", 3],
    ["kitten", "sitting", 3],
    ["reviewer", "reviwer", 1],
    ["plan", "plan", 0],
  ];
  for (const [a, b, d] of rows) {
    test(`${a || "''"} → ${b || "''"} is ${d}`, () => {
      assert.equal(editDistance(a, b), d);
      assert.equal(editDistance(b, a), d);
    });
  }
  test("stops early above the maximum", () => {
    assert.equal(editDistance("aaaaaaaa", "bbbbbbbb", 2), 3);
    assert.equal(editDistance("a", "abcdef", 2), 3);
  });
});

describe("nearestNames", () => {
  const names = ["explore", "plan", "reviewer", "code-reviewer", "task", "quick_task", "Task"];
  test("case only first, then containing names, then typos", () => {
    assert.deepEqual(nearestNames("TASK", names), ["task", "Task", "quick_task"]);
    assert.deepEqual(nearestNames("reviwer", names), ["reviewer"]);
    assert.deepEqual(nearestNames("review", names), ["reviewer", "code-reviewer"]);
  });
  test("a name that contains a known one suggests it", () => {
    assert.deepEqual(nearestNames("my-explore-agent", names), ["explore"]);
  });
  test("nothing plausible: no suggestion", () => {
    assert.deepEqual(nearestNames("zzzzzz", names), []);
    assert.equal(nameDistance("x", "plan"), undefined);
  });
  test("at most count names, ties in list order", () => {
    const many = Array.from({ length: 50 }, (_, i) => `agent-${i}`);
    assert.deepEqual(nearestNames("agent", many, 3), ["agent-0", "agent-1", "agent-2"]);
  });
});

describe("namesTail", () => {
  const names = (n: number) => Array.from({ length: n }, (_, i) => `cmd-${i}`);
  test("few names: all of them", () => {
    assert.equal(namesTail("x", names(3), "commands", "hint"), "Available: cmd-0, cmd-1, cmd-2");
    assert.equal(namesTail("x", [], "commands", "hint"), "Available: none");
  });
  test("many: the nearest and the count, or none similar", () => {
    assert.equal(
      namesTail("cmd-77", names(100), "commands", "`xcsh commands` lists them all"),
      "Nearest: cmd-77, cmd-7, cmd-17, cmd-27, cmd-37 (of 100 commands; `xcsh commands` lists them all)",
    );
    assert.equal(
      namesTail("zzzzzz", names(100), "commands", "hint"),
      "No similar name among 100 commands; hint",
    );
  });
  test("long names are cut", () => {
    assert.equal(shownName("a".repeat(200)), "a".repeat(79) + "…");
    assert.equal(shownName("short"), "short");
  });
});
