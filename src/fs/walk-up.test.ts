import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  chmodSync,
  chownSync,
  lchownSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import type { Diagnostic } from "../types.ts";
import {
  acceptedIn,
  findUp,
  foundProblem,
  ignoredWarning,
  type Inspect,
  isFolderInfo,
  type PathInfo,
  walkUpDirs,
  walkUpFrom,
} from "./walk-up.ts";

describe("walkUpDirs", () => {
  test("outside HOME: cwd and each ancestor up to /, nearest first", () => {
    assert.deepEqual(walkUpDirs("/srv/a/b", "/home/ada"), ["/srv/a/b", "/srv/a", "/srv", "/"]);
  });
  test("inside HOME the walk stops below HOME: ~/.git, ~/.claude and /home are never visited", () => {
    assert.deepEqual(walkUpDirs("/home/ada/Downloads/tool", "/home/ada"), [
      "/home/ada/Downloads/tool",
      "/home/ada/Downloads",
    ]);
  });
  test("cwd = HOME visits nothing; a sibling sharing HOME's prefix is outside it", () => {
    assert.deepEqual(walkUpDirs("/home/ada", "/home/ada/"), []);
    assert.deepEqual(walkUpDirs("/home/ada2/x", "/home/ada"), [
      "/home/ada2/x",
      "/home/ada2",
      "/home",
      "/",
    ]);
  });
  test("a home written through a symlink stops the walk at its real path too", () => {
    const homes = ["/home/ada", "/data/home/ada"];
    assert.deepEqual(walkUpFrom("/data/home/ada/src/app", homes), [
      "/data/home/ada/src/app",
      "/data/home/ada/src",
    ]);
    assert.deepEqual(walkUpFrom("/home/ada/x", homes), ["/home/ada/x"]);
  });
  test("no HOME: up to /", () => {
    assert.deepEqual(walkUpDirs("/a/./b/../c", ""), ["/a/c", "/a", "/"]);
  });
});

/** An inspect over a table: path → owner, mode, kind. */
function table(
  entries: Record<string, Partial<PathInfo> & { uid: number; mode: number }>,
): Inspect {
  return (p) => {
    const e = entries[p];
    return e ? { isDirectory: true, isFile: false, ...e } : undefined;
  };
}

describe("foundProblem", () => {
  const me = 1000;
  test("the user's own and root's chain passes; /tmp (root, sticky 1777) passes", () => {
    const look = table({
      "/tmp": { uid: 0, mode: 0o41777 },
      "/tmp/p": { uid: me, mode: 0o40755 },
      "/tmp/p/.claude": { uid: 0, mode: 0o40755 },
      "/tmp/p/.claude/agents": { uid: me, mode: 0o40700 },
    });
    assert.equal(foundProblem("/tmp/p", "/tmp/p/.claude/agents", look, me), undefined);
    assert.equal(foundProblem("/tmp", "/tmp/p/.claude/agents", look, me), undefined);
  });
  test("another user's folder anywhere from the find up to the walked folder", () => {
    const look = table({
      "/tmp": { uid: 0, mode: 0o41777 },
      "/tmp/.claude": { uid: 4242, mode: 0o40755 },
      "/tmp/.claude/agents": { uid: me, mode: 0o40755 },
    });
    assert.deepEqual(foundProblem("/tmp", "/tmp/.claude/agents", look, me), {
      path: "/tmp/.claude",
      problem: "owned by another user (uid 4242)",
    });
  });
  test("the nearest failure is named first", () => {
    const look = table({
      "/s": { uid: 4242, mode: 0o40755 },
      "/s/.git": { uid: 4343, mode: 0o40755 },
    });
    assert.equal(foundProblem("/s", "/s/.git", look, me)?.path, "/s/.git");
  });
  test("writable by its group or by everyone without the sticky bit", () => {
    const group = table({
      "/w": { uid: me, mode: 0o40775 },
      "/w/.git": { uid: me, mode: 0o40755 },
    });
    assert.equal(foundProblem("/w", "/w/.git", group, me)?.problem, "writable by its group");
    const world = table({
      "/w": { uid: me, mode: 0o40755 },
      "/w/.git": { uid: me, mode: 0o40777 },
    });
    assert.equal(foundProblem("/w", "/w/.git", world, me)?.problem, "writable by every user");
  });
  test("a symlink another user owns fails even when its target is the user's", () => {
    const look = table({
      "/tmp/s": { uid: me, mode: 0o40755 },
      "/tmp/s/.git": { uid: me, mode: 0o40755, linkUid: 4242 },
    });
    assert.deepEqual(foundProblem("/tmp/s", "/tmp/s/.git", look, me), {
      path: "/tmp/s/.git",
      problem: "owned by another user (uid 4242)",
      symlink: true,
    });
  });
  test("root's folders count as the user's own, for any user", () => {
    const look = table({
      "/opt": { uid: 0, mode: 0o40755 },
      "/opt/.xcsh": { uid: 0, mode: 0o40755 },
    });
    assert.equal(foundProblem("/opt", "/opt/.xcsh", look, me), undefined);
  });
});

describe("ignoredWarning", () => {
  test("names the find, and the folder holding it when that is what failed", () => {
    const w = ignoredWarning("/tmp/.claude/agents", {
      path: "/tmp/.claude",
      problem: "owned by another user (uid 4242)",
    });
    assert.equal(w.file, "/tmp/.claude/agents");
    assert.match(
      w.message,
      /^in \/tmp\/\.claude, which is owned by another user \(uid 4242\); ignored/,
    );
    const same = ignoredWarning("/s/.git", { path: "/s/.git", problem: "writable by every user" });
    assert.match(same.message, /^writable by every user; ignored: .*chmod go-w \/s\/\.git/);
  });
});

describe("on disk, as any user", () => {
  const root = mkdtempSync(join(tmpdir(), "xcsh-walk-up-home-"));
  after(() => rmSync(root, { recursive: true, force: true }));

  test("HOME given through a symlink: the walk still stops below the real home", () => {
    const real = join(root, "data", "ada");
    mkdirSync(join(real, "src", "app"), { recursive: true });
    mkdirSync(join(real, ".git"));
    symlinkSync(join(root, "data"), join(root, "homes"));
    const home = join(root, "homes", "ada");
    assert.deepEqual(walkUpDirs(join(real, "src", "app"), home), [
      join(real, "src", "app"),
      join(real, "src"),
    ]);
    assert.equal(findUp(join(real, "src", "app"), home, ".git", isFolderInfo, []), undefined);
  });
});

describe("on disk", {
  skip: process.getuid?.() === 0 ? false : "needs root: the test gives folders to another user",
}, () => {
  const root = mkdtempSync(join(tmpdir(), "xcsh-walk-up-"));
  after(() => rmSync(root, { recursive: true, force: true }));

  test("another user's .claude/agents in a shared parent is skipped; the walk goes on", () => {
    const shared = join(root, "shared");
    const project = join(shared, "me", "project");
    mkdirSync(join(shared, ".claude", "agents"), { recursive: true });
    mkdirSync(join(root, ".claude", "agents"), { recursive: true });
    mkdirSync(project, { recursive: true });
    chmodSync(shared, 0o1777);
    chownSync(join(shared, ".claude"), 4242, 4242);
    const warnings: Diagnostic[] = [];
    const found = findUp(
      project,
      "/nonexistent-home",
      join(".claude", "agents"),
      isFolderInfo,
      warnings,
    );
    assert.deepEqual(found, { dir: root, path: join(root, ".claude", "agents") });
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0].file, join(shared, ".claude", "agents"));
    assert.match(warnings[0].message, /owned by another user \(uid 4242\)/);
  });

  test("a symlink planted by another user is refused; root's own is accepted", () => {
    const dir = join(root, "links");
    mkdirSync(join(dir, "target"), { recursive: true });
    symlinkSync(join(dir, "target"), join(dir, ".git"));
    const warnings: Diagnostic[] = [];
    assert.equal(acceptedIn(dir, ".git", isFolderInfo, warnings), true);
    lchownSync(join(dir, ".git"), 4242, 4242);
    assert.equal(acceptedIn(dir, ".git", isFolderInfo, warnings), false);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0].message, /^a symlink owned by another user \(uid 4242\)/);
  });
});
