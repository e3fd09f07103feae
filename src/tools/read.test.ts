import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { sandbox } from "../../tests/support/tool-context.ts";
import { numberLines, READ_MAX_LINES, readTool } from "./read.ts";

describe("read", () => {
  const lines = Array.from({ length: 3000 }, (_, i) => `line ${i + 1}`);
  const sb = sandbox({
    "a.txt": "one\ntwo\nthree\n",
    "big.txt": lines.join("\n") + "\n",
    "empty": "",
    "d/x": "",
  });
  writeFileSync(join(sb.dir, "bin"), Buffer.from([1, 0, 2]));
  after(() => sb.remove());

  test("numbers every line", async () => {
    const r = await readTool.run({ path: "a.txt" }, sb.ctx);
    assert.deepEqual(r, {
      ok: true,
      output: "1\tone\n2\ttwo\n3\tthree",
      summary: "a.txt:1-3 of 3 lines",
    });
  });

  test("reads a line range", async () => {
    const r = await readTool.run({ path: "a.txt", start_line: 2, end_line: 2 }, sb.ctx);
    assert.equal(r.output, "2\ttwo");
  });

  test("caps long reads and says how to continue", async () => {
    const r = await readTool.run({ path: "big.txt" }, sb.ctx);
    assert.ok(r.ok);
    assert.equal(r.output.split("\n").length, READ_MAX_LINES + 1);
    assert.match(r.output, /continue with start_line 2001/);
    const tail = await readTool.run({ path: "big.txt", start_line: 2999 }, sb.ctx);
    assert.equal(tail.output, "2999\tline 2999\n3000\tline 3000");
  });

  test("absolute paths work too", async () => {
    const r = await readTool.run({ path: join(sb.dir, "a.txt"), start_line: 3 }, sb.ctx);
    assert.equal(r.output, "3\tthree");
  });

  test("refuses what it cannot read, saying why", async () => {
    assert.match((await readTool.run({ path: "nope" }, sb.ctx)).output, /no such file/);
    assert.match((await readTool.run({ path: "d" }, sb.ctx)).output, /is a directory: use ls/);
    assert.match((await readTool.run({ path: "bin" }, sb.ctx)).output, /binary/);
    assert.match(
      (await readTool.run({ path: "a.txt", start_line: 9 }, sb.ctx)).output,
      /past the end/,
    );
    assert.equal((await readTool.run({ path: "empty" }, sb.ctx)).output, "(empty file)");
  });

  test("refuses a FIFO and a device promptly: not a regular file", {
    skip: process.platform === "win32" ? "no FIFOs" : false,
  }, async () => {
    const fifo = join(sb.dir, "fifo");
    assert.equal(spawnSync("mkfifo", [fifo]).status, 0, "mkfifo");
    assert.deepEqual(await readTool.run({ path: "fifo" }, sb.ctx), {
      ok: false,
      output: "Error: fifo is not a regular file",
      summary: "fifo is not a regular file",
    });
    if (existsSync("/dev/zero")) {
      // /dev allowed as an additional folder: the device is refused for what it is.
      const ctx = { ...sb.ctx, roots: [sb.dir, "/dev"] };
      assert.equal(
        (await readTool.run({ path: "/dev/zero" }, ctx)).output,
        "Error: /dev/zero is not a regular file",
      );
    }
  });

  test("numberLines cuts very long lines", () => {
    const r = numberLines(["x".repeat(5000)], 1, 1);
    assert.match(r.text, /line cut at 2000 chars/);
  });
});
