// The skill tool: a skill's body and files; unknown names are tool errors.

import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sandbox } from "../../tests/support/tool-context.ts";
import { listSkillFiles, skillTool } from "./skill.ts";

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
});
