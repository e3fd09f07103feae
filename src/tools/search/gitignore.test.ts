import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { sandbox } from "../../../tests/support/tool-context.ts";
import { findTool } from "./find.ts";
import { isIgnored, parseGitignore } from "./gitignore.ts";
import { grepTool } from "./grep.ts";

describe("gitignore with an invalid pattern", () => {
  const sb = sandbox({
    ".gitignore": "[z-a]\n*.log\n",
    "a.txt": "needle\n",
    "z.txt": "needle\n",
    "debug.log": "needle\n",
    "src/b.txt": "needle\n",
    "src/c.log": "needle\n",
  });
  mkdirSync(join(sb.dir, ".git"));
  after(() => sb.remove());

  test("the bad lines are skipped and the other rules kept", () => {
    const rules = parseGitignore("[z-a]\n*.log\n!keep.log\n", "");
    assert.equal(rules.length, 2);
    assert.equal(isIgnored("x/a.log", false, rules), true);
    assert.equal(isIgnored("keep.log", false, rules), false);
    assert.equal(isIgnored("z", false, rules), false);
  });

  test("find still works and the normal rule still applies", async () => {
    const r = await findTool.run({ pattern: "*" }, sb.ctx);
    assert.ok(r.ok);
    assert.deepEqual(r.output.split("\n"), [".gitignore", "a.txt", "src/", "src/b.txt", "z.txt"]);
  });

  test("grep still works and the normal rule still applies", async () => {
    const r = await grepTool.run({ pattern: "needle" }, sb.ctx);
    assert.ok(r.ok);
    assert.deepEqual(r.output.split("\n"), [
      "a.txt:1:needle",
      "src/b.txt:1:needle",
      "z.txt:1:needle",
    ]);
  });
});
