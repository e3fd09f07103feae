import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { ancestors, chooseProjectRoot, findProjectRoot, projectRoot } from "./project-root.ts";

describe("chooseProjectRoot", () => {
  const has = (entries: string[]) => (dir: string, name: string) =>
    entries.includes(`${dir}/${name}`.replace("//", "/"));

  test("the nearest .git wins over a nearer marker folder", () => {
    const h = has(["/w/repo/.git", "/w/repo/pkg/.claude"]);
    assert.equal(chooseProjectRoot("/w/repo/pkg/src", "/home/u", h), "/w/repo");
  });
  test("without git, the nearest folder holding .xcsh, .claude, .codex or .gemini", () => {
    assert.equal(chooseProjectRoot("/w/a/b", "/home/u", has(["/w/a/.codex", "/w/.xcsh"])), "/w/a");
    assert.equal(chooseProjectRoot("/w/a/b", "/home/u", has(["/w/.gemini"])), "/w");
  });
  test("the home folder's own .xcsh and / never make a project: then the working directory", () => {
    const h = has(["/home/u/.xcsh", "/.claude", "/.git"]);
    assert.equal(chooseProjectRoot("/home/u/notes", "/home/u", h), "/home/u/notes");
  });
  test("~/.git (dotfiles in git) never makes HOME the root of a project below it", () => {
    const h = has(["/home/u/.git", "/.git"]);
    assert.equal(
      chooseProjectRoot("/home/u/Downloads/tool", "/home/u", h),
      "/home/u/Downloads/tool",
    );
    assert.equal(chooseProjectRoot("/home/u", "/home/u", h), "/home/u");
  });
  test("ancestors go from the folder up to /", () => {
    assert.deepEqual(ancestors("/a/b"), ["/a/b", "/a", "/"]);
  });
});

describe("projectRoot on disk", () => {
  const root = mkdtempSync(join(tmpdir(), "xcsh-root-"));
  after(() => rmSync(root, { recursive: true, force: true }));

  test("a worktree's .git file marks its root", () => {
    mkdirSync(join(root, "wt", "src"), { recursive: true });
    writeFileSync(join(root, "wt", ".git"), "gitdir: /elsewhere\n");
    assert.equal(projectRoot(join(root, "wt", "src"), join(root, "home")), join(root, "wt"));
  });
  test("another user's .git in a shared parent is ignored with a warning", {
    skip: process.getuid?.() === 0 ? false : "needs root: the test gives a folder to another user",
  }, () => {
    const shared = join(root, "shared");
    const project = join(shared, "mine");
    mkdirSync(join(shared, ".git"), { recursive: true });
    mkdirSync(join(project, ".xcsh"), { recursive: true });
    chmodSync(shared, 0o1777);
    chownSync(join(shared, ".git"), 4242, 4242);
    const found = findProjectRoot(join(project), join(root, "home"));
    assert.equal(found.root, project);
    assert.equal(found.warnings.length, 1);
    assert.equal(found.warnings[0].file, join(shared, ".git"));
    assert.match(found.warnings[0].message, /owned by another user \(uid 4242\)/);
    assert.equal(projectRoot(project, join(root, "home")), project);
  });
  test("a plain folder is its own root", () => {
    mkdirSync(join(root, "plain", "x"), { recursive: true });
    assert.equal(
      projectRoot(join(root, "plain", "x"), join(root, "home")),
      join(root, "plain", "x"),
    );
  });
});
