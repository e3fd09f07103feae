// `write` refuses what is not a regular file without waiting on it (the
// rest of its behaviour is tested with edit's, in edit.test.ts).
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import process from "node:process";
import { sandbox } from "../../tests/support/tool-context.ts";
import { writeTool } from "./write.ts";

const sb = sandbox({});
after(() => sb.remove());

test("write: a FIFO is refused at once, not waited on", {
  skip: process.platform === "win32" ? "no FIFOs" : false,
}, async () => {
  const fifo = join(sb.dir, "pipe");
  assert.equal(spawnSync("mkfifo", [fifo]).status, 0, "mkfifo");
  // Before, this call never returned: opening the FIFO waited for a reader.
  const r = await writeTool.run({ path: "pipe", content: "x" }, sb.ctx);
  assert.equal(r.ok, false);
  assert.match(r.output, /pipe is not a regular file/);
});

test("write: a device is refused", {
  skip: process.platform === "win32" ? "no /dev" : false,
}, async () => {
  const ctx = { ...sb.ctx, roots: [sb.dir, "/dev"] };
  const r = await writeTool.run({ path: "/dev/null", content: "x" }, ctx);
  assert.match(r.output, /\/dev\/null is not a regular file/);
});
