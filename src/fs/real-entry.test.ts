import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { realDir, realFile } from "./real-entry.ts";

test("realDir and realFile: each answers only for its own kind, through links", () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "xcsh-real-")));
  try {
    mkdirSync(join(root, "d"));
    writeFileSync(join(root, "f"), "x");
    symlinkSync(join(root, "d"), join(root, "to-d"));
    symlinkSync(join(root, "f"), join(root, "to-f"));
    symlinkSync(join(root, "missing"), join(root, "dangling"));
    assert.equal(realDir(join(root, "to-d")), join(root, "d"));
    assert.equal(realFile(join(root, "to-f")), join(root, "f"));
    assert.equal(realDir(join(root, "f")), undefined);
    assert.equal(realFile(join(root, "d")), undefined);
    assert.equal(realFile(join(root, "dangling")), undefined);
    assert.equal(realDir(join(root, "missing")), undefined);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
