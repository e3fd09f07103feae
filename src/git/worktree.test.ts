// Unit tests of worktree isolation on real git repositories in temporary
// folders: what is checked first, branch names that never clobber, parallel
// creation, change detection and the end of a task.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import {
  createWorktree,
  finishWorktree,
  listWorktrees,
  pruneWorktrees,
  repoBase,
  worktreeChanges,
} from "./worktree.ts";
import { ran, trappedRepo } from "../../tests/support/git-traps.ts";

const roots: string[] = [];
after(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
    cwd,
    encoding: "utf8",
  });
}

function repo(): { repo: string; data: string } {
  const root = mkdtempSync(join(tmpdir(), "xcsh-wt-"));
  roots.push(root);
  const r = join(root, "repo");
  mkdirSync(join(r, "sub"), { recursive: true });
  writeFileSync(join(r, "sub", "a.txt"), "a\n");
  git(r, "init", "-q", "-b", "main");
  git(r, "add", ".");
  git(r, "commit", "-q", "-m", "one");
  return { repo: r, data: join(root, "data", "worktrees") };
}

describe("repoBase", () => {
  test("a subfolder of a repository: its top, HEAD and the relative folder", async () => {
    const { repo: r } = repo();
    const b = await repoBase(join(r, "sub"));
    assert.ok(b.ok);
    if (b.ok) {
      assert.equal(b.value.subdir, "sub");
      assert.equal(b.value.head, git(r, "rev-parse", "HEAD").trim());
    }
  });

  test("not a repository, or one without a commit: a message saying so", async () => {
    const plain = mkdtempSync(join(tmpdir(), "xcsh-plain-"));
    roots.push(plain);
    const a = await repoBase(plain);
    assert.ok(!a.ok && /needs a git repository, and .* is not inside one/.test(a.message));
    git(plain, "init", "-q");
    const b = await repoBase(plain);
    assert.ok(!b.ok && /needs a commit to start from/.test(b.message));
  });
});

describe("createWorktree", () => {
  test("a taken branch name gets a new name; the existing branch is untouched", async () => {
    const { repo: r, data } = repo();
    git(r, "branch", "xcsh/S1");
    git(r, "checkout", "-q", "-b", "other");
    writeFileSync(join(r, "b.txt"), "b\n");
    git(r, "add", ".");
    git(r, "commit", "-q", "-m", "two");
    git(r, "checkout", "-q", "main");
    const before = git(r, "rev-parse", "xcsh/S1").trim();
    const b = await repoBase(r);
    assert.ok(b.ok);
    if (!b.ok) return;
    const wt = await createWorktree(b.value, data, "S1");
    assert.equal(wt.branch, "xcsh/S1-2");
    assert.equal(wt.path, join(data, "S1-2"));
    assert.equal(git(r, "rev-parse", "xcsh/S1").trim(), before);
    assert.ok(existsSync(join(wt.path, "sub", "a.txt")));
  });

  test("parallel creations each get their own worktree", async () => {
    const { repo: r, data } = repo();
    const b = await repoBase(join(r, "sub"));
    assert.ok(b.ok);
    if (!b.ok) return;
    const made = await Promise.all(
      ["A", "B", "C", "D", "E"].map((id) => createWorktree(b.value, data, id)),
    );
    assert.equal(new Set(made.map((w) => w.path)).size, 5);
    for (const w of made) assert.equal(w.cwd, join(w.path, "sub"));
    assert.equal(git(r, "worktree", "list").trim().split("\n").length, 6);
  });
});

describe("finishing an isolated task", () => {
  test("no change: worktree and branch removed; changes: kept, recorded and listed", async () => {
    const { repo: r, data } = repo();
    const b = await repoBase(r);
    assert.ok(b.ok);
    if (!b.ok) return;
    const clean = await createWorktree(b.value, data, "clean");
    assert.equal(await finishWorktree(clean, data, "clean"), undefined);
    assert.equal(existsSync(clean.path), false);
    assert.equal(git(r, "branch", "--list", "xcsh/clean"), "");

    const dirty = await createWorktree(b.value, data, "dirty");
    writeFileSync(join(dirty.path, "new.txt"), "n\n");
    writeFileSync(join(dirty.path, "sub", "a.txt"), "changed\n");
    const committed = await createWorktree(b.value, data, "committed");
    writeFileSync(join(committed.path, "c.txt"), "c\n");
    git(committed.path, "add", ".");
    git(committed.path, "commit", "-q", "-m", "work");
    assert.deepEqual(await worktreeChanges(committed), ["c.txt"]);

    const kept = await finishWorktree(dirty, data, "dirty");
    assert.deepEqual(kept, {
      path: dirty.path,
      branch: "xcsh/dirty",
      changed: ["new.txt", "sub/a.txt"],
    });
    await finishWorktree(committed, data, "committed");
    assert.deepEqual(listWorktrees(data).map((w) => w.id), ["committed", "dirty"]);

    // Reverted by hand: prune removes it; the committed one stays.
    rmSync(join(dirty.path, "new.txt"));
    git(dirty.path, "checkout", "--", ".");
    const removed = await pruneWorktrees(data);
    assert.deepEqual(removed.map((w) => w.id), ["dirty"]);
    assert.deepEqual(listWorktrees(data).map((w) => w.id), ["committed"]);
  });
});

describe("a repository that plants programs", () => {
  test("git worktree add runs no post-checkout hook and no smudge filter", async () => {
    const root = mkdtempSync(join(tmpdir(), "xcsh-wt-trap-"));
    roots.push(root);
    const { repo: r, marks } = trappedRepo(root);
    git(r, "checkout", "--", "a.txt");
    for (const f of ran(marks)) rmSync(join(marks, f));
    const b = await repoBase(r, { PATH: process.env.PATH, HOME: root });
    assert.ok(b.ok, b.ok ? "" : b.message);
    if (!b.ok) return;
    const wt = await createWorktree(b.value, join(root, "data"), "T1");
    assert.ok(existsSync(join(wt.path, "a.txt")));
    assert.deepEqual(await worktreeChanges(wt), []);
    assert.equal(await finishWorktree(wt, join(root, "data"), "T1"), undefined);
    assert.deepEqual(ran(marks), []);
    // The traps are live: plain git runs them.
    git(r, "worktree", "add", "-q", join(root, "plain"));
    assert.ok(ran(marks).includes("ran-post-checkout"), ran(marks).join(" "));
    assert.ok(ran(marks).includes("ran-smudge"), ran(marks).join(" "));
  });

  test("a worktree whose .git was repointed gets no git call and is kept", async () => {
    const { repo: r, data } = repo();
    const other = trappedRepo(join(data, "..", "elsewhere"));
    const b = await repoBase(r);
    assert.ok(b.ok);
    if (!b.ok) return;
    const wt = await createWorktree(b.value, data, "moved");
    writeFileSync(join(wt.path, ".git"), `gitdir: ${join(other.repo, ".git")}\n`);
    await assert.rejects(worktreeChanges(wt), /git does not run in .*outside the project/);
    const kept = await finishWorktree(wt, data, "moved");
    assert.ok(
      kept && /^\(unknown: git does not run in /.test(kept.changed[0]),
      JSON.stringify(kept),
    );
    assert.ok(existsSync(wt.path), "the worktree is kept");
    assert.deepEqual(ran(other.marks), []);
  });
});
