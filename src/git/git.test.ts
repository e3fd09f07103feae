// The hardened git runner on real repositories: programs planted in a
// repository's config (core.fsmonitor, a filter driver, an included
// sshCommand) and hooks never run, while plain git runs them (the planted
// traps are live); the environment keeps no key and none of the caller's
// GIT_* variables; `git` is never taken from inside the project.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { ran, trappedRepo } from "../../tests/support/git-traps.ts";
import { cleanPath, gitEnvironment, openRepository, runGit, settingsEnvironment } from "./git.ts";

const dir = realpathSync(mkdtempSync(join(tmpdir(), "xcsh-git-")));
after(() => rmSync(dir, { recursive: true, force: true }));
const PATH = process.env.PATH ?? "/usr/bin:/bin";

describe("runGit on a repository that plants programs", () => {
  test("plain git runs the planted programs; the hardened runner runs none", async () => {
    const { repo, marks } = trappedRepo(join(dir, "status"));
    execFileSync("git", ["status", "--porcelain"], { cwd: repo, env: { PATH, HOME: dir } });
    assert.deepEqual(
      ran(marks),
      ["ran-clean", "ran-fsmonitor", "ran-post-index-change"],
      "the traps are live",
    );
    for (const f of ran(marks)) rmSync(join(marks, f));
    const env = { PATH, HOME: dir, ANTHROPIC_API_KEY: "sk-ant-secret" };
    const opened = await openRepository(repo, { env });
    assert.ok(opened.ok, opened.ok ? "" : opened.reason);
    if (!opened.ok) return;
    const status = await runGit(opened.repo, ["status", "--porcelain=v1", "--branch"]);
    assert.ok(status.ok, status.stderr);
    assert.match(status.stdout, /^## main\n M a\.txt\n$/);
    const diff = await runGit(opened.repo, ["diff", "--no-ext-diff", "--no-textconv", "HEAD"]);
    assert.ok(diff.ok, diff.stderr);
    const branch = await runGit(opened.repo, ["branch", "other"]);
    assert.ok(branch.ok, branch.stderr);
    assert.deepEqual(ran(marks), []);
    assert.ok(
      opened.repo.settings.some(([k, v]) => k === "core.sshcommand" && v === ""),
      "a program from an included file is blanked",
    );
  });

  test("a config naming a program in every key git documents: the calls still work, none runs", async () => {
    const { repo, marks } = trappedRepo(join(dir, "every"));
    const mark = (name: string) => `"env > ${marks}/ran-${name}; cat"`;
    const keys = [
      ["core", "pager"],
      ["core", "editor"],
      ["core", "askPass"],
      ["core", "gitProxy"],
      ["core", "alternateRefsCommand"],
      ["sequence", "editor"],
      ["pager", "status"],
      ["credential", "helper"],
      ["gpg", "program"],
      ["diff", "external"],
      ["interactive", "diffFilter"],
      ["web", "browser"],
    ];
    const lines = keys.map(([s, k]) => `[${s}]\n\t${k} = ${mark(k)}\n`).join("") +
      `[filter "evil"]\n\tprocess = ${mark("process")}\n\trequired = true\n` +
      `[merge "evil"]\n\tdriver = ${mark("driver")}\n` +
      `[remote "origin"]\n\turl = ${repo}\n\tuploadpack = ${mark("uploadpack")}\n` +
      `[submodule "x"]\n\tupdate = !${mark("update").slice(1, -1)}\n`;
    execFileSync("sh", ["-c", `cat >> .git/config <<'EOF'\n${lines}EOF`], { cwd: repo });
    const opened = await openRepository(repo, { env: { PATH, HOME: dir } });
    assert.ok(opened.ok, opened.ok ? "" : opened.reason);
    if (!opened.ok) return;
    const wt = join(dir, "every-wt");
    for (
      const args of [
        ["status", "--porcelain=v1", "--branch", "--ignore-submodules=all"],
        ["diff", "--name-only", "--no-ext-diff", "--no-textconv", "HEAD"],
        ["worktree", "add", "--quiet", "-b", "w", wt, "HEAD"],
        ["worktree", "remove", "--force", wt],
        ["branch", "-D", "w"],
      ]
    ) {
      const r = await runGit(opened.repo, args);
      assert.ok(r.ok, `${args.join(" ")}: ${r.stderr}`);
    }
    assert.deepEqual(ran(marks), []);
  });

  test("another repository named by a .git file is never run on", async () => {
    const { marks } = trappedRepo(join(dir, "other"));
    const archive = join(dir, "archive");
    mkdirSync(archive);
    writeFileSync(join(archive, ".git"), "gitdir: ../other/repo/.git\n");
    const opened = await openRepository(archive, { env: { PATH, HOME: dir } });
    assert.ok(!opened.ok && /outside the project/.test(opened.reason));
    assert.deepEqual(ran(marks), []);
  });
});

describe("the environment of git calls", () => {
  test("a minimal allow-list: no keys, none of the caller's GIT_* variables", () => {
    const env = gitEnvironment({
      PATH: `./bin:${join(dir, "p", "node_modules", ".bin")}:/usr/bin`,
      HOME: "/home/me",
      LANG: "de_DE.UTF-8",
      LC_TIME: "C",
      TZ: "UTC",
      ANTHROPIC_API_KEY: "k",
      OPENAI_API_KEY: "k",
      GITHUB_TOKEN: "t",
      GIT_DIR: "/elsewhere/.git",
      GIT_WORK_TREE: "/elsewhere",
      GIT_CONFIG_PARAMETERS: "'core.fsmonitor=x'",
      GIT_SSH_COMMAND: "evil",
      SSH_AUTH_SOCK: "/tmp/agent",
    }, join(dir, "p"));
    assert.deepEqual(env, {
      PATH: "/usr/bin",
      HOME: "/home/me",
      LANG: "de_DE.UTF-8",
      LC_TIME: "C",
      TZ: "UTC",
      LC_ALL: "C",
      GIT_TERMINAL_PROMPT: "0",
      GIT_OPTIONAL_LOCKS: "0",
      GIT_PAGER: "cat",
    });
  });
  test("settings travel as GIT_CONFIG_COUNT, keys and values kept apart", () => {
    assert.deepEqual(settingsEnvironment([["filter.a=b.clean", ""], ["core.fsmonitor", "false"]]), {
      GIT_CONFIG_COUNT: "2",
      GIT_CONFIG_KEY_0: "filter.a=b.clean",
      GIT_CONFIG_VALUE_0: "",
      GIT_CONFIG_KEY_1: "core.fsmonitor",
      GIT_CONFIG_VALUE_1: "false",
    });
    assert.equal(cleanPath("/p/bin:/usr/bin::rel", "/p"), "/usr/bin");
    const links: Record<string, string> = { "/opt/tools": "/p/node_modules/.bin" };
    assert.equal(cleanPath("/opt/tools:/bin", "/p", (d) => links[d] ?? d), "/bin");
  });
  test("a `git` inside the project is not the one run", async () => {
    const p = join(dir, "fakegit");
    mkdirSync(join(p, "bin"), { recursive: true });
    execFileSync("git", ["init", "-q", p]);
    writeFileSync(join(p, "bin", "git"), `#!/bin/sh\ntouch "${p}/fake-ran"\n`, { mode: 0o755 });
    const opened = await openRepository(p, {
      env: { PATH: `${join(p, "bin")}:${PATH}`, HOME: dir },
    });
    assert.ok(opened.ok);
    if (!opened.ok) return;
    assert.notEqual(opened.repo.program, join(p, "bin", "git"));
    assert.ok((await runGit(opened.repo, ["status"])).ok);
    assert.equal(existsSync(join(p, "fake-ran")), false);
  });
});

describe("how runGit ends a call", () => {
  /** A repository whose `git` is the shell script `body`. */
  const fakeGit = (name: string, body: string) => {
    const root = join(dir, name);
    mkdirSync(root, { recursive: true });
    const program = join(root, "fake-git");
    writeFileSync(program, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
    return {
      workTree: root,
      gitDir: join(root, ".git"),
      commonDir: join(root, ".git"),
      settings: [],
      overrides: [],
      env: { PATH, HOME: dir },
      program,
    };
  };

  test("output and a clean exit; stdin is closed at once", async () => {
    const r = await runGit(fakeGit("echo", 'cat; echo "out $1"; echo err >&2'), ["status"]);
    assert.deepEqual(r, { ok: true, stdout: "out --no-pager\n", stderr: "err\n" });
  });

  test("a failure without stderr says which command failed", async () => {
    const r = await runGit(fakeGit("fails", "exit 3"), ["status"]);
    assert.equal(r.ok, false);
    assert.match(r.stderr, /^Command failed: .*fake-git --no-pager status$/);
  });

  test("a call over its time is stopped, and says so", async () => {
    const r = await runGit(fakeGit("hangs", "exec sleep 30"), ["status"], { timeoutMs: 200 });
    assert.equal(r.ok, false);
    // Killed, not waited for: a sleep that ended by itself would have no signal.
    assert.match(r.stderr, /\(timed out after 200 ms; killed by SIGTERM\)$/);
  });

  test("a git that is not there is missing, not failing", async () => {
    const repo = fakeGit("gone", "exit 0");
    rmSync(repo.program);
    const r = await runGit(repo, ["status"]);
    assert.equal(r.ok, false);
    assert.equal(r.missing, true);
  });
});
