// SKILL.md frontmatter per the Agent Skills specification.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseSkillFields } from "./skill-file.ts";

const ctx = { file: "/s/pdf/SKILL.md", folder: "pdf" };

describe("parseSkillFields", () => {
  test("name and description; optional fields kept", () => {
    const r = parseSkillFields({
      name: "pdf",
      description: " Reads PDFs ",
      license: "MIT",
      compatibility: "needs python3",
      metadata: { version: 1, author: "a" },
      "allowed-tools": "Read Bash(python:*)",
    }, ctx);
    assert.ok(r.ok);
    assert.deepEqual(r.value, {
      name: "pdf",
      description: "Reads PDFs",
      license: "MIT",
      compatibility: "needs python3",
      metadata: { version: "1", author: "a" },
      allowedTools: ["Read", "Bash(python:*)"],
    });
    assert.deepEqual(r.warnings, []);
  });
  const bad: [string, Record<string, unknown>, RegExp][] = [
    ["no name", { description: "d" }, /needs a 'name'/],
    ["upper case", { name: "PDF", description: "d" }, /lower-case/],
    ["double hyphen", { name: "a--b", description: "d" }, /single hyphens/],
    ["leading hyphen", { name: "-a", description: "d" }, /single hyphens/],
    ["over 64", { name: "a".repeat(65), description: "d" }, /at most 64/],
    ["no description", { name: "pdf" }, /needs a 'description'/],
  ];
  for (const [name, fm, error] of bad) {
    test(name, () => {
      const r = parseSkillFields(fm, ctx);
      assert.ok(!r.ok);
      assert.match(r.error.message, error);
    });
  }
  test("a name other than the folder's is a warning", () => {
    const r = parseSkillFields({ name: "other", description: "d" }, ctx);
    assert.ok(r.ok);
    assert.match(r.warnings[0].message, /folder is "pdf"/);
  });
  test("long description and compatibility are cut, with a warning", () => {
    const r = parseSkillFields(
      { name: "pdf", description: "d".repeat(2000), compatibility: "c".repeat(600) },
      ctx,
    );
    assert.ok(r.ok);
    assert.equal(r.value.description.length, 1024);
    assert.equal(r.value.compatibility?.length, 500);
    assert.equal(r.warnings.length, 2);
  });
});
