// Unit tests for finding a configured program.
import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { programPath } from "./program-path.ts";

test("bare names are looked up on absolute PATH entries; paths are taken as they are", () => {
  const dir = mkdtempSync(join(tmpdir(), "xcsh-program-"));
  try {
    const prog = join(dir, "launch-me");
    writeFileSync(prog, "#!/bin/sh\n");
    chmodSync(prog, 0o755);
    writeFileSync(join(dir, "not-exec"), "");
    assert.equal(programPath("launch-me", `/nonexistent:${dir}`), prog);
    assert.equal(programPath("not-exec", dir), undefined);
    assert.equal(programPath("launch-me", "relative:"), undefined);
    assert.equal(programPath(prog, ""), prog);
    assert.equal(programPath(join(dir, "missing"), dir), undefined);
    assert.equal(programPath("launch-me", undefined), undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
