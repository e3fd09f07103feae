import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ancestors, chooseProjectRoot, projectRoot } from "./project-root.ts";

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
  test("a plain folder is its own root", () => {
    mkdirSync(join(root, "plain", "x"), { recursive: true });
    assert.equal(
      projectRoot(join(root, "plain", "x"), join(root, "home")),
      join(root, "plain", "x"),
    );
  });
});
