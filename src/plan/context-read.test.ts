// Reading one instruction file without trusting it.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import process from "node:process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readContextFile } from "./context-read.ts";
import { nobodyUnavailable, runAsNobody } from "../../tests/support/as-nobody.ts";

const dir = mkdtempSync(join(tmpdir(), "xcsh-ctx-read-"));
after(() => rmSync(dir, { recursive: true, force: true }));

describe("readContextFile", () => {
  test("a text file", async () => {
    writeFileSync(join(dir, "ok.md"), "Use tabs.\n");
    assert.deepEqual(await readContextFile(join(dir, "ok.md")), {
      kind: "text",
      text: "Use tabs.\n",
    });
  });
  test("a file at the size limit is read whole", async () => {
    writeFileSync(join(dir, "edge.md"), "y".repeat(1000));
    assert.deepEqual(await readContextFile(join(dir, "edge.md"), 1000), {
      kind: "text",
      text: "y".repeat(1000),
    });
  });
  test("more bytes than the stat said: read on, up to the limit (procfs files say 0)", {
    skip: process.platform === "linux" ? false : "needs /proc",
  }, async () => {
    const r = await readContextFile("/proc/self/status");
    assert.equal(r.kind, "text");
    assert.match((r as { text: string }).text, /^Name:/);
    assert.deepEqual(await readContextFile("/proc/self/status", 16), {
      kind: "skipped",
      reason: "grew past 16 bytes while being read",
    });
  });
  test("a missing file is absent, not a warning", async () => {
    assert.deepEqual(await readContextFile(join(dir, "nope.md")), { kind: "missing" });
    assert.deepEqual(await readContextFile(join(dir, "ok.md", "x")), { kind: "missing" });
  });
  test("a file over the size limit is skipped before reading", async () => {
    writeFileSync(join(dir, "big.md"), "x".repeat(2000));
    const r = await readContextFile(join(dir, "big.md"), 1000);
    assert.equal(r.kind, "skipped");
    assert.match(r.kind === "skipped" ? r.reason : "", /is 2000 bytes, more than the 1000/);
  });
  test("a binary file is skipped", async () => {
    writeFileSync(join(dir, "bin.md"), new Uint8Array([0x41, 0, 0x42]));
    assert.deepEqual(await readContextFile(join(dir, "bin.md")), {
      kind: "skipped",
      reason: "looks like a binary file",
    });
  });
  test("a folder is skipped", async () => {
    mkdirSync(join(dir, "AGENTS.md"));
    assert.deepEqual(await readContextFile(join(dir, "AGENTS.md")), {
      kind: "skipped",
      reason: "is a folder, not a file",
    });
  });
  test("a FIFO is skipped without blocking", async () => {
    const fifo = join(dir, "fifo.md");
    execFileSync("mkfifo", [fifo]);
    const r = await readContextFile(fifo);
    assert.equal(r.kind, "skipped");
    assert.match(r.kind === "skipped" ? r.reason : "", /not a regular file/);
  });
  test("a symlink loop cannot be read, with the reason", async () => {
    symlinkSync(join(dir, "loop.md"), join(dir, "loop.md"));
    const r = await readContextFile(join(dir, "loop.md"));
    assert.equal(r.kind, "skipped");
    assert.match(r.kind === "skipped" ? r.reason : "", /cannot be read \(ELOOP\)/);
  });
  test("a file without read permission cannot be read, with the reason", {
    skip: process.getuid?.() === 0 ? nobodyUnavailable() ?? false : false,
  }, async () => {
    const file = join(dir, "secret.md");
    writeFileSync(file, "x");
    chmodSync(file, 0o000);
    const expected = { kind: "skipped", reason: "cannot be read (EACCES)" };
    if (process.getuid?.() !== 0) {
      assert.deepEqual(await readContextFile(file), expected);
      return;
    }
    // Root reads through permission bits: the same read, as nobody.
    chmodSync(dir, 0o755);
    const url = import.meta.resolve("./context-read.ts");
    const out = runAsNobody(
      `const { readContextFile } = await import(${JSON.stringify(url)});\n` +
        `console.log(JSON.stringify(await readContextFile(${JSON.stringify(file)})));`,
    );
    assert.deepEqual(JSON.parse(out), expected);
  });
});
