import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { sandbox } from "../../../tests/support/tool-context.ts";
import { findTool } from "./find.ts";
import { lsTool } from "../ls.ts";

describe("find", () => {
  const sb = sandbox({
    ".gitignore": "node_modules/\n",
    "README.md": "",
    "src/a.ts": "",
    "src/lib/b.ts": "",
    "src/lib/b.test.ts": "",
    "node_modules/x/index.ts": "",
  });
  after(() => sb.remove());

  test("a pattern without a slash matches names at any depth", async () => {
    const r = await findTool.run({ pattern: "*.ts" }, sb.ctx);
    assert.deepEqual(r.output.split("\n"), ["src/a.ts", "src/lib/b.test.ts", "src/lib/b.ts"]);
  });

  test("a pattern with a slash matches the path; directories end with /", async () => {
    assert.equal(
      (await findTool.run({ pattern: "src/**/*.test.ts" }, sb.ctx)).output,
      "src/lib/b.test.ts",
    );
    assert.equal((await findTool.run({ pattern: "lib" }, sb.ctx)).output, "src/lib/");
    assert.equal(
      (await findTool.run({ pattern: "*.ts", path: "src/lib" }, sb.ctx)).output,
      "src/lib/b.test.ts\nsrc/lib/b.ts",
    );
  });

  test("caps results; reports missing folders", async () => {
    assert.match(
      (await findTool.run({ pattern: "*", max_results: 2 }, sb.ctx)).output,
      /more paths not shown/,
    );
    assert.equal((await findTool.run({ pattern: "*.rs" }, sb.ctx)).output, "No matches.");
    assert.equal((await findTool.run({ pattern: "*", path: "nope" }, sb.ctx)).ok, false);
  });
});

describe("ls", () => {
  const sb = sandbox({ ".env": "", "b.txt": "", "a/x": "" });
  after(() => sb.remove());

  test("lists entries sorted, directories marked", async () => {
    const r = await lsTool.run({}, sb.ctx);
    assert.equal(r.output, ".env\na/\nb.txt");
    assert.equal((await lsTool.run({ path: "a" }, sb.ctx)).output, "x");
  });

  test("a file or a missing path is an error", async () => {
    assert.match((await lsTool.run({ path: "b.txt" }, sb.ctx)).output, /is a file/);
    assert.match((await lsTool.run({ path: "zz" }, sb.ctx)).output, /no such directory/);
  });
});
