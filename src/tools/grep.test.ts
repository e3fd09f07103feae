import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { sandbox } from "../../tests/support/tool-context.ts";
import { grepText, grepTool } from "./grep.ts";

describe("grep", () => {
  const sb = sandbox({
    ".gitignore": "dist/\n*.log\n",
    "src/a.ts": "export const Foo = 1;\nconst bar = Foo + 1;\n",
    "src/b.py": "foo = 2\n",
    "dist/a.js": "Foo",
    "debug.log": "Foo",
    "sub/.gitignore": "gen/\n",
    "sub/gen/x.ts": "Foo",
    "sub/y.ts": "Foo",
  });
  mkdirSync(join(sb.dir, ".git"));
  after(() => sb.remove());

  test("finds matches as path:line:text, skipping ignored files", async () => {
    const r = await grepTool.run({ pattern: "Foo" }, sb.ctx);
    assert.ok(r.ok);
    assert.deepEqual(r.output.split("\n"), [
      "src/a.ts:1:export const Foo = 1;",
      "src/a.ts:2:const bar = Foo + 1;",
      "sub/y.ts:1:Foo",
    ]);
  });

  test("glob filters files; ignore_case widens the match", async () => {
    const r = await grepTool.run({ pattern: "foo", glob: "*.py", ignore_case: true }, sb.ctx);
    assert.equal(r.output, "src/b.py:1:foo = 2");
  });

  test("searches one file or a sub-folder, honouring the root .gitignore there", async () => {
    assert.equal(
      (await grepTool.run({ pattern: "bar", path: "src/a.ts" }, sb.ctx)).output,
      "src/a.ts:2:const bar = Foo + 1;",
    );
    sb.put({ "src/x.log": "bar" });
    assert.equal(
      (await grepTool.run({ pattern: "bar", path: "src" }, sb.ctx)).output,
      "src/a.ts:2:const bar = Foo + 1;",
    );
  });

  test("caps the results and says so", async () => {
    const r = await grepTool.run({ pattern: "Foo", max_results: 1 }, sb.ctx);
    assert.match(r.output, /^src\/a\.ts:1:.*\n\[more matches not shown/);
    assert.match(r.summary, /^1\+ matches in \d+ files$/);
  });

  test("no match and a bad pattern", async () => {
    assert.equal((await grepTool.run({ pattern: "zzz" }, sb.ctx)).output, "No matches.");
    const bad = await grepTool.run({ pattern: "(" }, sb.ctx);
    assert.equal(bad.ok, false);
    assert.match(bad.output, /invalid regular expression/);
  });

  test("grepText", () => {
    assert.deepEqual(grepText("a\nfoo\nb\nfoo", /fo+/g), [[2, "foo"], [4, "foo"]]);
  });
});
