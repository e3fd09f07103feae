// The skill catalogue's budget: all described when they fit, then names
// only, then nothing, every listing within its budget.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  DEFAULT_CONTEXT_WINDOW,
  describedLine,
  namedLine,
  SKILL_ENTRY_CAP,
  skillBudget,
  skillListing,
} from "./skill-listing.ts";

const skills = (n: number, description = "d".repeat(300)) =>
  Array.from({ length: n }, (_, i) => ({ name: `skill-${i}`, description }));

/** The characters the listing's lines take. */
function size(l: ReturnType<typeof skillListing>): number {
  return [...l.described.map(describedLine), ...l.named.map(namedLine)]
    .reduce((n, line) => n + line.length + 1, 0);
}

describe("skillBudget", () => {
  test("1 % of the window at 4 characters a token: 8 000 at 200 k", () => {
    assert.equal(skillBudget(200_000), 8_000);
    assert.equal(skillBudget(1_000_000), 40_000);
  });
  test("an unknown window is the conservative default", () => {
    assert.equal(skillBudget(undefined), skillBudget(DEFAULT_CONTEXT_WINDOW));
    assert.equal(skillBudget(undefined), 5_120);
  });
  test("a tiny window still lists something; an override in characters wins", () => {
    assert.equal(skillBudget(8_000), 1_000);
    assert.equal(skillBudget(200_000, "20000"), 20_000);
    assert.equal(skillBudget(200_000, "lots"), 8_000);
    assert.equal(skillBudget(200_000, "0"), 8_000);
  });
});

describe("skillListing", () => {
  test("everything fits: every skill described, in order", () => {
    const l = skillListing(skills(3), 8_000);
    assert.deepEqual(l.described.map((s) => s.name), ["skill-0", "skill-1", "skill-2"]);
    assert.deepEqual([l.named, l.omitted], [[], 0]);
  });
  test("past the budget: names only, then nothing, never over the budget", () => {
    const l = skillListing(skills(391), 8_000);
    assert.ok(l.described.length > 0 && l.named.length > 0 && l.omitted > 0, JSON.stringify(l));
    assert.equal(l.described.length + l.named.length + l.omitted, 391);
    assert.ok(size(l) <= 8_000, `${size(l)}`);
    // Precedence order is kept: described first, then named, then left out.
    assert.equal(l.described.at(-1)!.name, `skill-${l.described.length - 1}`);
    assert.equal(l.named[0], `skill-${l.described.length}`);
  });
  test("each entry is cut at 1 536 characters, on one line", () => {
    const l = skillListing([{ name: "big", description: "word\n ".repeat(1_000) }], 100_000);
    const line = describedLine(l.described[0]);
    assert.equal(line.length, SKILL_ENTRY_CAP + 2);
    assert.ok(!line.includes("\n"));
    assert.ok(line.endsWith("…"));
  });
  test("a budget smaller than all names: the rest left out", () => {
    const l = skillListing(skills(1_000, "x"), 1_000);
    assert.ok(size(l) <= 1_000);
    assert.ok(l.omitted > 0);
  });
});
