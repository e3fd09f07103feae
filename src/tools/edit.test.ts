import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { sandbox } from "../../tests/support/tool-context.ts";
import { applyEdit, countOccurrences, editTool } from "./edit.ts";
import { writeTool } from "./write.ts";

describe("edit", () => {
  const sb = sandbox({ "a.txt": "alpha\nbeta\nalpha\n" });
  after(() => sb.remove());
  const read = () => readFileSync(join(sb.dir, "a.txt"), "utf8");

  test("an ambiguous match is refused unless all is set", async () => {
    const r = await editTool.run({ path: "a.txt", old_string: "alpha", new_string: "A" }, sb.ctx);
    assert.equal(r.ok, false);
    assert.match(r.output, /occurs 2 times/);
    assert.equal(read(), "alpha\nbeta\nalpha\n");
    const all = await editTool.run({
      path: "a.txt",
      old_string: "alpha",
      new_string: "A",
      all: true,
    }, sb.ctx);
    assert.equal(all.output, "Replaced 2 occurrences in a.txt.");
    assert.equal(read(), "A\nbeta\nA\n");
  });

  test("a unique match is replaced exactly", async () => {
    const r = await editTool.run({
      path: "a.txt",
      old_string: "beta\n",
      new_string: "gamma $1 $&\n",
    }, sb.ctx);
    assert.ok(r.ok);
    assert.equal(read(), "A\ngamma $1 $&\nA\n");
  });

  test("no match, an empty old_string and a missing file fail", async () => {
    assert.match(
      (await editTool.run({ path: "a.txt", old_string: "zeta", new_string: "z" }, sb.ctx)).output,
      /not found/,
    );
    assert.match(
      (await editTool.run({ path: "a.txt", old_string: "", new_string: "z" }, sb.ctx)).output,
      /empty/,
    );
    assert.match(
      (await editTool.run({ path: "b.txt", old_string: "a", new_string: "z" }, sb.ctx)).output,
      /no such file/,
    );
  });

  test("pure helpers", () => {
    assert.equal(countOccurrences("aaaa", "aa"), 2);
    assert.deepEqual(applyEdit("x", { old_string: "x", new_string: "x" }).ok, false);
  });
});

describe("write", () => {
  const sb = sandbox({ "d/keep": "" });
  after(() => sb.remove());

  test("creates parents, then overwrites", async () => {
    const r = await writeTool.run({ path: "n/m/new.txt", content: "hi\n" }, sb.ctx);
    assert.equal(r.output, "Created n/m/new.txt (3 bytes).");
    const again = await writeTool.run({ path: "n/m/new.txt", content: "bye" }, sb.ctx);
    assert.equal(again.output, "Overwrote n/m/new.txt (3 bytes).");
    assert.equal(readFileSync(join(sb.dir, "n/m/new.txt"), "utf8"), "bye");
  });

  test("refuses to overwrite a directory", async () => {
    assert.match(
      (await writeTool.run({ path: "d", content: "" }, sb.ctx)).output,
      /is a directory/,
    );
  });
});
