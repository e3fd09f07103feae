// The environment block's facts.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import {
  environmentFacts,
  GIT_STATUS_MAX_LINES,
  parseGitStatus,
  startGitFacts,
} from "./environment-facts.ts";
import { localIsoDate } from "./local-date.ts";

const dir = mkdtempSync(join(tmpdir(), "xcsh-env-facts-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const PATH = process.env.PATH ?? "/usr/bin:/bin";

describe("parseGitStatus", () => {
  test("branch and changes", () => {
    assert.deepEqual(parseGitStatus("## main...origin/main [ahead 1]\n M a.ts\n?? b.ts\n"), {
      branch: "main",
      status: " M a.ts\n?? b.ts",
    });
  });
  test("a clean tree, a fresh repository, a detached HEAD", () => {
    assert.deepEqual(parseGitStatus("## dev\n"), { branch: "dev", status: "(clean)" });
    assert.equal(parseGitStatus("## No commits yet on trunk\n").branch, "trunk");
    assert.equal(parseGitStatus("## HEAD (no branch)\n").branch, "(detached HEAD)");
  });
  test("the change list is capped, saying how many more", () => {
    const lines = Array.from({ length: 50 }, (_, i) => `?? f${i}`).join("\n");
    const { status } = parseGitStatus(`## main\n${lines}\n`);
    assert.equal(status.split("\n").length, GIT_STATUS_MAX_LINES + 1);
    assert.match(status, /… and 30 more changed paths$/);
  });
});

describe("environmentFacts", () => {
  test("the date is local YYYY-MM-DD", () => {
    assert.equal(localIsoDate(new Date(2026, 11, 1, 23, 59), process.env.TZ), "2026-12-01");
  });
  test("outside a repository: no git facts", async () => {
    const f = await environmentFacts(dir, {
      PATH,
      SHELL: "/bin/zsh",
      GIT_CEILING_DIRECTORIES: dir,
    });
    assert.equal(f.shell, "zsh");
    assert.equal(f.cwd, dir);
    assert.equal(f.gitBranch, undefined);
    assert.match(f.date, /^\d{4}-\d{2}-\d{2}$/);
  });
  test("no git on PATH: no git facts, no error", async () => {
    const f = await environmentFacts(dir, { PATH: join(dir, "nothing-here") });
    assert.equal(f.gitBranch, undefined);
    assert.equal(f.shell, "sh");
  });
  test("no .git at the project root: git is not started", async () => {
    const plain = join(dir, "plain");
    mkdirSync(join(plain, ".xcsh"), { recursive: true });
    // A `git` that would leave a mark: the first on PATH.
    const bin = join(dir, "bin");
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, "git"), `#!/bin/sh\ntouch ${join(dir, "git-ran")}\n`, { mode: 0o755 });
    const f = await environmentFacts(plain, { PATH: `${bin}:${PATH}`, HOME: dir });
    assert.equal(f.gitBranch, undefined);
    assert.equal(existsSync(join(dir, "git-ran")), false);
  });
  test("inside a repository: the branch and the changes", async () => {
    const repo = join(dir, "repo");
    execFileSync("git", ["init", "-q", "-b", "feature", repo]);
    writeFileSync(join(repo, "new.txt"), "x");
    const f = await environmentFacts(repo, { PATH });
    assert.equal(f.gitBranch, "feature");
    assert.equal(f.gitStatus, "?? new.txt");
  });
  test("the programs the repository's config names come back blanked, for commands' git", async () => {
    const repo = join(dir, "trapped");
    execFileSync("git", ["init", "-q", "-b", "main", repo]);
    execFileSync("git", ["-C", repo, "config", "filter.evil.clean", "touch pwned"]);
    execFileSync("git", ["-C", repo, "config", "core.pager", "touch pwned"]);
    const overrides: [string, string][] = [];
    await environmentFacts(repo, { PATH }, new Date(), "", [], overrides);
    assert.deepEqual(
      new Map(overrides),
      new Map([
        ["filter.evil.clean", ""],
        ["filter.evil.smudge", ""],
        ["filter.evil.process", ""],
        ["filter.evil.required", "false"],
        ["core.pager", ""],
      ]),
    );
    const clean: [string, string][] = [];
    await environmentFacts(join(dir, "repo"), { PATH }, new Date(), "", [], clean);
    assert.deepEqual(clean, []);
  });
  test("git started early: its answer is used and git is not run again", async () => {
    const repo = join(dir, "early");
    execFileSync("git", ["init", "-q", "-b", "early-branch", repo]);
    const started = startGitFacts(repo, { PATH });
    // A git on PATH that would leave a mark if it ran a second time.
    const bin = join(dir, "bin-early");
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, "git"), `#!/bin/sh\ntouch ${join(dir, "early-ran")}\n`, {
      mode: 0o755,
    });
    const notes: string[] = [];
    const f = await environmentFacts(
      repo,
      { PATH: `${bin}:${PATH}` },
      new Date(),
      "",
      notes,
      [],
      started,
    );
    assert.equal(f.gitBranch, "early-branch");
    assert.equal(f.gitStatus, "(clean)");
    assert.equal(existsSync(join(dir, "early-ran")), false);
    assert.deepEqual(notes, []);
  });
  test("git started early never rejects: a failure is no git facts", async () => {
    // A folder that is not there: no repository, no error.
    assert.deepEqual(await startGitFacts(join(dir, "missing", "deeper"), { PATH }), {});
  });
});
