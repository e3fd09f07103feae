// xcsh's own git calls, through the built binary, real git and the local
// model server, with ANTHROPIC_API_KEY in xcsh's environment: a repository
// whose `.git/config` sets core.fsmonitor and a filter driver, with hooks,
// runs none of them on the first `--plan` run; a `.git` file naming another
// repository puts none of its status into the prompt; a sandboxed command
// that plants core.fsmonitor gets it run neither by a `task` call of the
// same run nor by the next run; isolated worktrees run no post-checkout
// hook, and one whose `.git` a command repointed gets no git call.
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { runXcsh } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import { ran, trap, trappedRepo } from "../support/git-traps.ts";
import { agentMd, systemPrompt } from "../support/world.ts";

const KEY = "sk-ant-e2e-must-not-leak";
const PATH = process.env.PATH ?? "/usr/bin:/bin";
const harness = modelHarness();
const { server } = harness;
const world = (agents: Record<string, string> = {}) => harness.world({ agents });

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
    cwd,
    encoding: "utf8",
    env: { PATH, HOME: cwd },
  });
}

/** What ran, with whether the key was in its environment. */
function leaks(marks: string): string[] {
  return ran(marks).map((f) =>
    `${f}${readFileSync(join(marks, f), "utf8").includes(KEY) ? " (with ANTHROPIC_API_KEY)" : ""}`
  );
}

const env = { ANTHROPIC_API_KEY: KEY };

describe("a repository nobody trusted", () => {
  test("its core.fsmonitor, filter and hooks run on no run, --plan included", async () => {
    const w = world();
    const { marks } = trappedRepo(w.root, w.cwd);
    server.script([{ text: "done" }]);
    server.requests.length = 0;
    const r = await runXcsh(["run", "quick_task", "--plan", "look"], {
      cwd: w.cwd,
      home: w.home,
      env,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(leaks(marks), []);
    const system = systemPrompt(server.requests[0]);
    assert.match(system, /main/, "the branch is still in the prompt");
    assert.match(system, / M a\.txt/, "the status is still in the prompt");
  });

  for (const how of ["a .git file naming it", "an index linked to its index"]) {
    test(`another repository, through ${how}: none of its status reaches the prompt`, async () => {
      const w = world();
      const other = join(w.root, "other-repo");
      mkdirSync(other);
      writeFileSync(join(other, "payroll-2027.csv"), "name,salary\n");
      git(other, "init", "-q", "-b", "main");
      git(other, "add", ".");
      git(other, "commit", "-q", "-m", "one");
      if (how.startsWith("a .git file")) {
        writeFileSync(join(w.cwd, ".git"), "gitdir: ../other-repo/.git\n");
      } else {
        git(w.cwd, "init", "-q", "-b", "main");
        symlinkSync(join(other, ".git", "index"), join(w.cwd, ".git", "index"));
      }
      server.script([{ text: "done" }]);
      server.requests.length = 0;
      const r = await runXcsh(["run", "quick_task", "--plan", "look"], {
        cwd: w.cwd,
        home: w.home,
        env,
      });
      assert.equal(r.code, 0, r.stderr);
      assert.match(
        r.stderr,
        /git facts left out of the prompt: \S+\.git(\/index)? (names a git folder outside the project|is a symbolic link out of the repository)/,
      );
      assert.equal(r.stderr.match(/git facts left out/g)?.length, 1, "one warning");
      assert.equal(server.requests.length, 1);
      const sent = JSON.stringify(server.requests.map((q) => q.body));
      assert.doesNotMatch(sent, /payroll-2027/);
    });
  }
});

describe("a sandboxed command that plants core.fsmonitor", () => {
  test("neither a task call of the same run nor the next run starts it", async () => {
    const w = world({
      lead: agentMd("lead", "tools: bash, task\nspawns: quick_task\nmodel: local/mock-small\n"),
    });
    git(w.cwd, "init", "-q", "-b", "main");
    git(w.cwd, "add", ".");
    git(w.cwd, "commit", "-q", "-m", "one");
    const marks = join(w.root, "marks");
    mkdirSync(marks);
    const plant = [
      `printf '#!/bin/sh\\nenv > ${marks}/ran-fsmonitor\\n' > .git/fsm.sh`,
      "chmod +x .git/fsm.sh",
      `printf '[core]\\n\\tfsmonitor = %s/.git/fsm.sh\\n' "$PWD" >> .git/config`,
      "echo planted",
    ].join(" && ");
    server.script([
      { toolCalls: [{ name: "bash", args: { command: plant } }] },
      {
        toolCalls: [{
          name: "task",
          args: { agent: "quick_task", tasks: [{ id: "t", assignment: "check" }] },
        }],
      },
      { text: "checked" },
      { text: "done" },
    ]);
    server.requests.length = 0;
    const first = await runXcsh(["run", "lead", "go"], { cwd: w.cwd, home: w.home, env });
    assert.equal(first.code, 0, first.stderr);
    assert.equal(server.requests.length, 4, "the task call ran");
    const planted = readFileSync(join(w.cwd, ".git", "config"), "utf8").includes("fsmonitor");
    assert.deepEqual(leaks(marks), [], `planted: ${planted}`);
    server.script([{ text: "done" }]);
    const next = await runXcsh(["run", "quick_task", "--plan", "look"], {
      cwd: w.cwd,
      home: w.home,
      env,
    });
    assert.equal(next.code, 0, next.stderr);
    assert.deepEqual(leaks(marks), [], `planted: ${planted}`);
  });
});

describe("an agent with only the write tool", () => {
  test("writing core.fsmonitor into .git/config gets it run by no task call", async () => {
    const w = world({
      scribe: agentMd(
        "scribe",
        "tools: write, task\nspawns: quick_task\nmodel: local/mock-small\n",
      ),
    });
    git(w.cwd, "init", "-q", "-b", "main");
    const marks = join(w.root, "marks");
    mkdirSync(marks);
    const config = readFileSync(join(w.cwd, ".git", "config"), "utf8") +
      `[core]\n\tfsmonitor = env > ${marks}/ran-fsmonitor\n`;
    server.script([
      { toolCalls: [{ name: "write", args: { path: ".git/config", content: config } }] },
      {
        toolCalls: [{
          name: "task",
          args: { agent: "quick_task", tasks: [{ id: "t", assignment: "check" }] },
        }],
      },
      { text: "checked" },
      { text: "done" },
    ]);
    server.requests.length = 0;
    const r = await runXcsh(["run", "scribe", "go"], { cwd: w.cwd, home: w.home, env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(server.requests.length, 4, "the task call ran");
    const planted = readFileSync(join(w.cwd, ".git", "config"), "utf8").includes("fsmonitor");
    server.script([{ text: "done" }]);
    const next = await runXcsh(["run", "quick_task", "--plan", "look"], {
      cwd: w.cwd,
      home: w.home,
      env,
    });
    assert.equal(next.code, 0, next.stderr);
    assert.deepEqual(leaks(marks), [], `planted: ${planted}`);
  });
});

describe("isolated worktrees", () => {
  test("no post-checkout hook or filter runs; a repointed .git gets no git call", async () => {
    const w = world({
      writer: agentMd(
        "writer",
        "tools: bash\nisolation: worktree\nmodel: local/mock-small\n",
      ),
    });
    const { marks } = trappedRepo(w.root, w.cwd);
    const elsewhere = trappedRepo(join(w.root, "else"));
    // A second trap in the other repository: the hook status would run there.
    trap(elsewhere.marks, "unused");
    server.script([
      {
        toolCalls: [{
          name: "bash",
          args: { command: `printf 'gitdir: ${elsewhere.repo}/.git\\n' > .git && echo moved` },
        }],
      },
      { text: "done" },
    ]);
    server.requests.length = 0;
    const r = await runXcsh(["run", "writer", "--json", "go"], { cwd: w.cwd, home: w.home, env });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(leaks(marks), [], "the base repository's traps");
    assert.deepEqual(leaks(elsewhere.marks), [], "the other repository's traps");
    const result = JSON.parse(r.stdout).results[0];
    assert.ok(result.worktree, "the worktree is kept");
    assert.match(result.worktree.changed[0], /^\(unknown: git does not run in /);
    assert.ok(existsSync(result.worktree.path));
  });
});
