import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { sandbox } from "../../tests/support/tool-context.ts";
import { applyEdit, countOccurrences, countPositions, editTool } from "./edit.ts";
import { readTool } from "./read.ts";
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
    assert.equal(countPositions("aaaa", "aa"), 3);
    assert.deepEqual(applyEdit("x", { old_string: "x", new_string: "x" }).ok, false);
  });

  // [text, old_string, new_string, all, expected text or error pattern, count]
  const cases: [string, string, string, boolean, string | RegExp, number?][] = [
    ["}\n}\n}\n", "}\n}", "]", false, /occurs 2 times \(some of them overlapping\)/],
    ["aaa", "aa", "b", false, /occurs 2 times \(some of them overlapping\)/],
    ["abcabc", "abc", "x", false, /occurs 2 times\. Add/],
    ["abab", "aba", "x", false, "xb", 1],
    ["}\n}\n}\n", "}\n}", "]", true, "]\n}\n", 1],
    ["aaaa", "aa", "b", true, "bb", 2],
    ["aaaaa", "aa", "b", true, "bba", 2],
    // CRLF text, old_string with plain \n (as read shows it)
    ["x\r\ny\r\n", "x\ny", "z\nw", false, "z\r\nw\r\n", 1],
    ["}\r\n}\r\n}\r\n", "}\n}", "]", false, /occurs 2 times \(some of them overlapping\)/],
    ["a\r\nb\r\n", "\nb", "\nc", false, "a\r\nc\r\n", 1],
    ["a\r\nb\r\n", "b", "b\nc", false, "a\r\nb\r\nc\r\n", 1],
    ["a\r\nb\nc\r\n", "a\nb\nc", "x", false, "x\r\n", 1],
    ["a\r\nb\r\na\nb\n", "a\nb", "c", false, /occurs 2 times\. Add/],
    // old_string with \r: exact matching only
    ["a\r\nb\r\n", "a\r\nb", "c", false, "c\r\n", 1],
    ["a\r\nb\n", "b\r\n", "c", false, /not found/],
  ];
  for (const [text, old_string, new_string, all, want, count] of cases) {
    test(`applyEdit ${JSON.stringify(text)} ${JSON.stringify(old_string)}${all ? " all" : ""}`, () => {
      const r = applyEdit(text, { old_string, new_string, all });
      if (typeof want === "string") {
        assert.deepEqual(r, { ok: true, text: want, count });
      } else {
        assert.equal(r.ok, false);
        assert.match((r as { error: string }).error, want);
      }
    });
  }

  test("an ambiguous overlapping match is refused and the file left alone", async () => {
    sb.put({ "braces.txt": "}\n}\n}\n" });
    const r = await editTool.run(
      { path: "braces.txt", old_string: "}\n}", new_string: "]" },
      sb.ctx,
    );
    assert.equal(r.ok, false);
    assert.match(r.output, /occurs 2 times/);
    assert.equal(readFileSync(join(sb.dir, "braces.txt"), "utf8"), "}\n}\n}\n");
  });

  test("a multi-line edit copied from read works in a CRLF file, which keeps CRLF", async () => {
    sb.put({ "crlf.txt": "one\r\ntwo\r\nthree\r\nfour\r\n" });
    const shown = await readTool.run({ path: "crlf.txt", start_line: 2, end_line: 3 }, sb.ctx);
    const old_string = shown.output.split("\n").map((l) => l.split("\t")[1]).join("\n");
    assert.equal(old_string, "two\nthree");
    const r = await editTool.run({ path: "crlf.txt", old_string, new_string: "2\n2b\n3" }, sb.ctx);
    assert.equal(r.output, "Replaced 1 occurrence in crlf.txt.");
    const after = readFileSync(join(sb.dir, "crlf.txt"), "utf8");
    assert.equal(after, "one\r\n2\r\n2b\r\n3\r\nfour\r\n");
    assert.doesNotMatch(after, /[^\r]\n/, "every line break is CRLF");
  });

  test("refuses a FIFO and a device: not a regular file", {
    skip: process.platform === "win32" ? "no FIFOs" : false,
  }, async () => {
    const fifo = join(sb.dir, "fifo");
    assert.equal(spawnSync("mkfifo", [fifo]).status, 0, "mkfifo");
    const r = await editTool.run({ path: "fifo", old_string: "a", new_string: "b" }, sb.ctx);
    assert.deepEqual(r, {
      ok: false,
      output: "Error: fifo is not a regular file",
      summary: "fifo is not a regular file",
    });
    if (existsSync("/dev/zero")) {
      // /dev allowed as an additional folder: the device is refused for what it is.
      const ctx = { ...sb.ctx, roots: [sb.dir, "/dev"] };
      const z = await editTool.run({ path: "/dev/zero", old_string: "a", new_string: "b" }, ctx);
      assert.equal(z.output, "Error: /dev/zero is not a regular file");
    }
    const d = await editTool.run({ path: ".", old_string: "a", new_string: "b" }, sb.ctx);
    assert.equal(d.output, "Error: . is not a regular file");
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
