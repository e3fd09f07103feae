// The skill tool: a skill's body and files; unknown names are tool errors.

import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sandbox } from "../../tests/support/tool-context.ts";
import { listSkillFiles, searchSkills, skillTool } from "./skill.ts";

const root = mkdtempSync(join(tmpdir(), "xcsh-skill-"));
after(() => rmSync(root, { recursive: true, force: true }));
const dir = join(root, "pdf");
mkdirSync(join(dir, "scripts", ".cache"), { recursive: true });
writeFileSync(join(dir, "SKILL.md"), "---\nname: pdf\ndescription: d\n---\nFill forms.\n");
writeFileSync(join(dir, "reference.md"), "r\n");
writeFileSync(join(dir, "scripts", "fill.py"), "p\n");
writeFileSync(join(dir, "scripts", ".cache", "x"), "hidden\n");

describe("skill tool", () => {
  test("listSkillFiles: breadth first, sorted, hidden folders left out, bounded", () => {
    assert.deepEqual(listSkillFiles(dir), ["SKILL.md", "reference.md", "scripts/fill.py"]);
    assert.deepEqual(listSkillFiles(dir, 1), ["SKILL.md"]);
  });
  const sb = sandbox({});
  after(() => sb.remove());
  test("loads a body and lists its files; an unknown name lists the skills", async () => {
    const ctx = {
      ...sb.ctx,
      skills: [{ name: "pdf", description: "d", filePath: join(dir, "SKILL.md") }],
    };
    const r = await skillTool.run({ name: "pdf" }, ctx);
    assert.ok(r.ok);
    assert.match(r.output, /Fill forms\./);
    assert.ok(r.output.includes(join(dir, "scripts", "fill.py")));
    const bad = await skillTool.run({ name: "nope" }, ctx);
    assert.equal(bad.ok, false);
    assert.match(bad.output, /no skill 'nope'. Skills: pdf/);
  });
  test("query: finds skills by the words of their name and description, best first", async () => {
    const many = Array.from({ length: 40 }, (_, i) => ({
      name: `filler-${i}`,
      description: "Nothing to see",
      filePath: join(dir, "SKILL.md"),
    }));
    const ctx = {
      ...sb.ctx,
      skills: [
        ...many,
        {
          name: "sheets",
          description: "Edit spreadsheets and PDF tables",
          filePath: join(dir, "SKILL.md"),
        },
        { name: "pdf-forms", description: "Fill forms", filePath: join(dir, "SKILL.md") },
      ],
    };
    const r = await skillTool.run({ query: "PDF forms" }, ctx);
    assert.ok(r.ok);
    assert.match(r.output, /^2 skills fit 'PDF forms'/);
    assert.ok(r.output.indexOf("- pdf-forms") < r.output.indexOf("- sheets"), r.output);
    assert.doesNotMatch(r.output, /filler/);
    const none = await skillTool.run({ query: "kubernetes" }, ctx);
    assert.match(none.output, /no skill fits 'kubernetes' \(42 skills searched\)/);
    const unknown = await skillTool.run({ name: "pdf-form" }, ctx);
    assert.equal(unknown.ok, false);
    assert.match(unknown.output, /Did you mean: pdf-forms/);
    const neither = await skillTool.run({}, ctx);
    assert.equal(neither.ok, false);
  });
  test("searchSkills: every word counts, case aside; no words, no match", () => {
    const list = [{ name: "a", description: "Alpha beta" }, { name: "b", description: "beta" }];
    assert.deepEqual(searchSkills(list, "BETA alpha").map((s) => s.name), ["a", "b"]);
    assert.deepEqual(searchSkills(list, " -- "), []);
  });
});
