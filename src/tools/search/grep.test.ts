import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { sandbox } from "../../../tests/support/tool-context.ts";
import { GREP_MAX_FILE_BYTES, grepText, grepTool } from "./grep.ts";

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

  test("a file named explicitly over the 2 MiB limit is an error naming the limit", async () => {
    sb.put({ "huge/big.txt": "Foo\n" + "x".repeat(GREP_MAX_FILE_BYTES) });
    const r = await grepTool.run({ pattern: "Foo", path: "huge/big.txt" }, sb.ctx);
    assert.deepEqual(r, {
      ok: false,
      output: `Error: huge/big.txt is ${GREP_MAX_FILE_BYTES + 4} bytes, over grep's 2 MiB ` +
        "per-file limit: not searched",
      summary: `huge/big.txt is ${GREP_MAX_FILE_BYTES + 4} bytes, over grep's 2 MiB per-file ` +
        "limit: not searched",
    });
  });

  test("a directory search says how many files were too large to search", async () => {
    sb.put({
      "huge/small.txt": "Foo here\n",
      "huge/big2.txt": "x".repeat(GREP_MAX_FILE_BYTES + 1),
    });
    const r = await grepTool.run({ pattern: "Foo", path: "huge" }, sb.ctx);
    assert.ok(r.ok);
    assert.equal(r.output, "huge/small.txt:1:Foo here\n(2 files over 2 MiB not searched)");
    const none = await grepTool.run({ pattern: "zzz", path: "huge" }, sb.ctx);
    assert.equal(none.output, "No matches.\n(2 files over 2 MiB not searched)");
    const one = await grepTool.run({ pattern: "zzz", path: "huge", glob: "big.txt" }, sb.ctx);
    assert.equal(one.output, "No matches.\n(1 file over 2 MiB not searched)");
  });

  test("grepText", () => {
    assert.deepEqual(grepText("a\nfoo\nb\nfoo", /fo+/g), [[2, "foo"], [4, "foo"]]);
  });
});
