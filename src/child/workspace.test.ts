// The folders behind a task's roots: the outermost writable ones, the
// memory folder among the roots, and the skill folders that stay read-only.

import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { workspaceFolders } from "./workspace.ts";

const root = realpathSync(mkdtempSync(join(tmpdir(), "xcsh-workspace-")));
after(() => rmSync(root, { recursive: true, force: true }));

describe("workspaceFolders", () => {
  const p = join(root, "p");
  const home = join(root, "home");
  const memory = join(p, ".claude", "agent-memory-local", "rev");
  mkdirSync(memory, { recursive: true });
  mkdirSync(join(p, "sub", ".agents", "skills", "s"), { recursive: true });
  mkdirSync(join(p, ".claude", "skills", "t"), { recursive: true });
  mkdirSync(join(p, "deeper", ".xcsh", "skills"), { recursive: true });
  mkdirSync(join(home, ".claude", "skills"), { recursive: true });
  mkdirSync(join(root, "elsewhere"), { recursive: true });
  symlinkSync(join(root, "elsewhere"), join(p, "sub", ".codex"));
  mkdirSync(join(root, "elsewhere", "skills"), { recursive: true });

  test("a memory folder inside the project is a root, not bound again", () => {
    const w = workspaceFolders([p, memory], { cwd: join(p, "sub"), home, env: {} });
    assert.deepEqual(w.roots, [p, memory]);
    assert.deepEqual(w.folders.writable.map((f) => f.path), [p]);
    assert.deepEqual(w.warnings, []);
  });

  test("skill folders from the working directory up to the project root, read-only", () => {
    const w = workspaceFolders([p], { cwd: join(p, "sub"), home, env: {} });
    assert.deepEqual(w.folders.readOnly.map((f) => f.path).sort(), [
      join(p, ".claude", "skills"),
      join(p, "sub", ".agents", "skills"),
    ]);
  });

  test("the user's skill folders only when an additional folder holds them", () => {
    const w = workspaceFolders([p, home], { cwd: p, home, env: {} });
    assert.ok(w.folders.readOnly.some((f) => f.path === join(home, ".claude", "skills")));
    const alone = workspaceFolders([p], { cwd: p, home, env: {} });
    assert.ok(!alone.folders.readOnly.some((f) => f.path.startsWith(home)));
    const named = workspaceFolders([p, join(home, ".claude", "skills")], { cwd: p, home, env: {} });
    assert.ok(!named.folders.readOnly.some((f) => f.path.startsWith(home)), "named: writable");
  });

  test("a root that became a symlink is dropped with a warning", () => {
    const link = join(root, "link");
    symlinkSync(p, link);
    const w = workspaceFolders([p, link], { cwd: p, home, env: {} });
    assert.deepEqual(w.roots, [p]);
    assert.match(w.warnings[0], /`.*\/link` is a symlink/);
  });
});
