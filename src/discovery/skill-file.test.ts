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
      metadata: { version: 1, author: "a" },
      allowedTools: ["Read", "Bash(python:*)"],
    });
    assert.deepEqual(r.warnings, []);
  });
  test("no description: skipped", () => {
    const r = parseSkillFields({ name: "pdf" }, ctx);
    assert.ok(!r.ok);
    assert.match(r.error.message, /needs a 'description'/);
  });
  // A missing or invalid name loads under the folder's name, as Claude Code does.
  const fallback: [string, Record<string, unknown>, RegExp][] = [
    ["no name", { description: "d" }, /no 'name'; loaded under its folder's name "pdf"/],
    ["upper case", { name: "PDF", description: "d" }, /lower-case.*not "PDF"; loaded under/],
    ["spaces", { name: "My Skill", description: "d" }, /not "My Skill"; loaded under/],
    ["double hyphen", { name: "a--b", description: "d" }, /single hyphens/],
    ["leading hyphen", { name: "-a", description: "d" }, /single hyphens/],
    ["over 64", { name: "a".repeat(65), description: "d" }, /at most 64/],
  ];
  for (const [label, fm, warning] of fallback) {
    test(`${label}: the folder's name, with a warning`, () => {
      const r = parseSkillFields(fm, ctx);
      assert.ok(r.ok);
      assert.equal(r.value.name, "pdf");
      assert.equal(r.warnings.length, 1);
      assert.match(r.warnings[0].message, warning);
    });
  }
  test("a folder name that cannot name a skill: skipped", () => {
    const r = parseSkillFields({ description: "d" }, { file: "/s/a b/SKILL.md", folder: "a b" });
    assert.ok(!r.ok);
    assert.match(r.error.message, /"a b" cannot name a skill/);
  });
  test("metadata is kept as data, nested values too", () => {
    const r = parseSkillFields(
      { name: "pdf", description: "d", metadata: { a: { b: 1 }, tags: ["x", "y"] } },
      ctx,
    );
    assert.ok(r.ok);
    assert.deepEqual(r.value.metadata, { a: { b: 1 }, tags: ["x", "y"] });
  });
  test("disable-model-invocation: true is kept; anything but a boolean is a warning", () => {
    const on = parseSkillFields(
      { name: "pdf", description: "d", "disable-model-invocation": true },
      ctx,
    );
    assert.ok(on.ok);
    assert.equal(on.value.disableModelInvocation, true);
    assert.equal(on.value.unknownKeys, undefined);
    const odd = parseSkillFields({
      name: "pdf",
      description: "d",
      "disable-model-invocation": "yes",
    }, ctx);
    assert.ok(odd.ok);
    assert.equal(odd.value.disableModelInvocation, undefined);
    assert.match(odd.warnings[0].message, /must be true or false/);
  });
  test("keys outside the specification and Claude Code's are named; known ones are not", () => {
    const r = parseSkillFields({
      name: "pdf",
      description: "d",
      version: "1.0",
      "argument-hint": "[file]",
      "user-invocable": false,
      model: "sonnet",
      triggers: ["pdf"],
      Author: "x",
    }, ctx);
    assert.ok(r.ok);
    assert.deepEqual(r.value.unknownKeys, ["triggers", "Author"]);
  });
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
