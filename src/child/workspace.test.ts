// The folders behind a task's roots: the outermost writable ones, the
// memory folder among the roots, and the skill folders that stay read-only.

import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { prepareWorkspace, workspaceFolders } from "./workspace.ts";
import { bwrapLocations, findBwrap } from "../sandbox/probe.ts";
import { plan } from "../../tests/support/plan.ts";

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

describe("the sandbox's private /tmp", {
  skip: findBwrap(bwrapLocations({})) === undefined && "needs bubblewrap (bwrap)",
}, () => {
  test("is made when a command first asks for it, once, 0700, and removed by cleanup", () => {
    const cwd = join(root, "tmp-task");
    const tmp = join(root, "tmp-parent");
    mkdirSync(cwd, { recursive: true });
    mkdirSync(tmp, { recursive: true });
    const made = () => readdirSync(tmp).filter((n) => n.startsWith("xcsh-sandbox-"));
    const before = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    try {
      const envelope = plan({ cwd, model: "local/m" });
      const w = prepareWorkspace({
        envelope: {
          ...envelope,
          sandbox: { mode: "workspace-write", network: false, required: true },
        },
        config: envelope.config,
        home: join(root, "home"),
        env: {},
        toolNames: ["bash"],
        parentChecked: true,
      });
      assert.ok(w.ok, w.ok ? "" : w.error);
      const sandbox = w.value.sandbox;
      assert.ok(sandbox);
      assert.deepEqual(made(), [], "no folder before a command asks");
      const first = sandbox.tmp;
      assert.equal(sandbox.tmp, first, "the same folder every time");
      assert.deepEqual(made(), [first.slice(tmp.length + 1)]);
      assert.equal(statSync(first).mode & 0o777, 0o700);
      w.value.cleanup();
      assert.equal(existsSync(first), false);
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
    }
  });

  test("a task whose commands never run makes none and removes nothing", () => {
    const cwd = join(root, "tmp-task-2");
    const tmp = join(root, "tmp-parent-2");
    mkdirSync(cwd, { recursive: true });
    mkdirSync(tmp, { recursive: true });
    const before = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    try {
      const envelope = plan({ cwd, model: "local/m" });
      const w = prepareWorkspace({
        envelope: { ...envelope, sandbox: { mode: "read-only", network: false, required: true } },
        config: envelope.config,
        home: join(root, "home"),
        env: {},
        toolNames: ["bash"],
        parentChecked: true,
      });
      assert.ok(w.ok && w.value.sandbox);
      w.value.cleanup();
      assert.deepEqual(readdirSync(tmp), []);
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
    }
  });
});
