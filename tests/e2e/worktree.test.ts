// End-to-end tests of worktree isolation on real git repositories, through
// the built binary: parallel isolated writers leave the caller's checkout
// clean and produce one kept worktree each (named in the results); a task
// that changes nothing leaves no worktree or branch; `xcsh worktrees` lists,
// removes and prunes; not a repository: exit 2 before any child starts.
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runXcsh } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import type { RecordedRequest, Turn } from "../support/model-server.ts";
import {
  agentMd,
  assignmentOf,
  isAfterTool,
  localConfig,
  makeWorld,
  type World,
} from "../support/world.ts";

/** Writes `<assignment>.txt` when the assignment starts with "write", then answers. */
/** The latest user message of a request: the assignment, or a resume's follow-up. */
function lastUser(req: RecordedRequest): string {
  // deno-lint-ignore no-explicit-any
  const m = (req.body.messages ?? []).filter((x: any) => x.role === "user").at(-1);
  return typeof m?.content === "string" ? m.content : JSON.stringify(m?.content ?? "");
}

function writer(req: RecordedRequest): Turn {
  if (isAfterTool(req)) return { text: "written" };
  const a = lastUser(req);
  if (a === "delegate") {
    return {
      toolCalls: [{
        name: "task",
        args: {
          agent: "plainwriter",
          isolation: "worktree",
          tasks: [{ id: "w", assignment: "write deep" }],
        },
      }],
    };
  }
  const m = /^write (\S+)/.exec(a);
  if (!m) return { text: "nothing to do" };
  return {
    toolCalls: [{ name: "write", args: { path: `${m[1]}.txt`, content: `from ${m[1]}\n` } }],
  };
}

const harness = modelHarness({ respond: (req) => writer(req) });
const { server } = harness;

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
    cwd,
    encoding: "utf8",
  });
}

/** A world whose project is a git repository with one commit and an isolated writer. */
function repoWorld(): World {
  const w = harness.world({
    agents: {
      writer: agentMd(
        "writer",
        "tools: read, write\nisolation: worktree\nmodel: local/mock-small\n",
      ),
      plainwriter: agentMd("plainwriter", "tools: read, write\nmodel: local/mock-small\n"),
      lead: agentMd("lead", "tools: task\nspawns: plainwriter\nmodel: local/mock-small\n"),
    },
  });
  git(w.cwd, "init", "-q", "-b", "main");
  git(w.cwd, "add", ".");
  git(w.cwd, "commit", "-q", "-m", "start");
  return w;
}

describe("worktree isolation", () => {
  test("parallel isolated writers: the checkout stays clean, one worktree each", async () => {
    const w = repoWorld();
    server.requests.length = 0;
    const r = await runXcsh(
      [
        "run",
        "writer",
        "--json",
        "--task",
        "a=write alpha",
        "--task",
        "b=write beta",
        "--task",
        "c=write gamma",
      ],
      { cwd: w.cwd, home: w.home },
    );
    assert.equal(r.code, 0, r.stderr);
    const results = JSON.parse(r.stdout).results;
    assert.equal(git(w.cwd, "status", "--porcelain"), "", "the caller's checkout is untouched");
    const paths = new Set<string>();
    for (const [i, name] of ["alpha", "beta", "gamma"].entries()) {
      const wt = results[i].worktree;
      assert.ok(wt, `task ${results[i].id} names its worktree`);
      assert.deepEqual(wt.changed, [`${name}.txt`]);
      assert.equal(wt.branch, `xcsh/${results[i].session}`);
      assert.equal(readFileSync(join(wt.path, `${name}.txt`), "utf8"), `from ${name}\n`);
      assert.ok(wt.path.startsWith(join(w.home, ".local", "share", "xcsh", "worktrees")));
      paths.add(wt.path);
    }
    assert.equal(paths.size, 3);
    const branches = git(w.cwd, "branch", "--list", "xcsh/*").trim().split("\n");
    assert.equal(branches.length, 3);

    const listed = await runXcsh(["worktrees", "--json"], { cwd: w.cwd, home: w.home });
    const kept = JSON.parse(listed.stdout).worktrees;
    assert.equal(kept.length, 3);

    const text = await runXcsh(["run", "writer", "write delta"], { cwd: w.cwd, home: w.home });
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stderr, /changes kept in worktree \S+ \(branch xcsh\/\S+\): delta\.txt/);

    // deno-lint-ignore no-explicit-any
    const byFile = (f: string) => kept.find((k: any) => k.changed[0] === f);
    const [alpha, beta, gamma] = [byFile("alpha.txt"), byFile("beta.txt"), byFile("gamma.txt")];
    const rm = await runXcsh(["worktrees", "rm", alpha.id], { cwd: w.cwd, home: w.home });
    assert.equal(rm.code, 0, rm.stderr);
    assert.ok(!existsSync(alpha.path));
    assert.equal(git(w.cwd, "branch", "--list", alpha.branch), "");

    // One reverted by hand, one deleted by hand: prune removes both records.
    rmSync(join(beta.path, "beta.txt"));
    rmSync(gamma.path, { recursive: true, force: true });
    const prune = await runXcsh(["worktrees", "prune"], { cwd: w.cwd, home: w.home });
    assert.equal(prune.code, 0, prune.stderr);
    assert.match(prune.stdout, /2 worktree\(s\) removed/);
    const after = JSON.parse(
      (await runXcsh(["worktrees", "--json"], { cwd: w.cwd, home: w.home })).stdout,
    );
    assert.equal(after.worktrees.length, 1, "only the delta worktree is left");

    const unknown = await runXcsh(["worktrees", "rm", "nope"], { cwd: w.cwd, home: w.home });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no kept worktree 'nope'/);
  });

  test("isolated runs of several processes at once: one worktree per task", async () => {
    const w = repoWorld();
    const opts = { cwd: w.cwd, home: w.home };
    const runs = await Promise.all(
      [1, 2, 3].map((p) =>
        runXcsh(
          ["run", "writer", "--json", "--task", `a=write p${p}a`, "--task", `b=write p${p}b`],
          opts,
        )
      ),
    );
    for (const r of runs) assert.equal(r.code, 0, r.stderr);
    const changed = runs.flatMap((r) =>
      // deno-lint-ignore no-explicit-any
      JSON.parse(r.stdout).results.map((x: any) => x.worktree.changed.join())
    ).sort();
    assert.deepEqual(changed, ["p1a.txt", "p1b.txt", "p2a.txt", "p2b.txt", "p3a.txt", "p3b.txt"]);
    assert.equal(git(w.cwd, "status", "--porcelain"), "");
    assert.equal(git(w.cwd, "worktree", "list").trim().split("\n").length, 7);
  });

  test("a task that changes nothing leaves no worktree and no branch", async () => {
    const w = repoWorld();
    const r = await runXcsh([
      "run",
      "plainwriter",
      "--isolation",
      "worktree",
      "--json",
      "just look",
    ], {
      cwd: w.cwd,
      home: w.home,
    });
    assert.equal(r.code, 0, r.stderr);
    const result = JSON.parse(r.stdout).results[0];
    assert.equal(result.worktree, undefined);
    assert.equal(git(w.cwd, "branch", "--list", "xcsh/*"), "");
    assert.equal(git(w.cwd, "worktree", "list").trim().split("\n").length, 1);
  });

  test("--isolation none overrides the agent; a bad value names the flag", async () => {
    const w = repoWorld();
    const r = await runXcsh(["run", "writer", "--isolation", "none", "write here"], {
      cwd: w.cwd,
      home: w.home,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(readFileSync(join(w.cwd, "here.txt"), "utf8"), "from here\n");
    const bad = await runXcsh(["run", "writer", "--isolation", "box", "x"], {
      cwd: w.cwd,
      home: w.home,
    });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--isolation: expected worktree or none, got "box"/);
  });

  test("a child's task tool takes isolation: the grandchild works in its own worktree", async () => {
    const w = repoWorld();
    server.requests.length = 0;
    const r = await runXcsh(["run", "lead", "delegate"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(git(w.cwd, "status", "--porcelain"), "", "the caller's checkout is untouched");
    const answered = server.requests.find((q) => isAfterTool(q) && assignmentOf(q) === "delegate");
    assert.ok(answered, "the lead got its task result");
    const toolText = JSON.stringify(answered.body.messages.at(-1));
    assert.match(toolText, /worktree[^]*xcsh\/[^]*deep\.txt/);
    const kept = JSON.parse(
      (await runXcsh(["worktrees", "--json"], { cwd: w.cwd, home: w.home })).stdout,
    );
    assert.equal(kept.worktrees.length, 1);
    assert.deepEqual(kept.worktrees[0].changed, ["deep.txt"]);
  });

  test("a resumed isolated session continues in its worktree, or in a fresh one once removed", async () => {
    const w = repoWorld();
    const opts = { cwd: w.cwd, home: w.home };
    const first =
      JSON.parse((await runXcsh(["run", "writer", "--json", "write alpha"], opts)).stdout)
        .results[0];
    const session = first.session;
    assert.deepEqual(first.worktree.changed, ["alpha.txt"]);

    const resume = async (what: string) => {
      const r = await runXcsh(["run", "--resume", session, "--json", what], opts);
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(r.stdout).results[0];
    };
    const second = await resume("write beta");
    assert.equal(second.worktree.path, first.worktree.path, "the same worktree");
    assert.deepEqual(second.worktree.changed, ["alpha.txt", "beta.txt"]);

    const kept = JSON.parse((await runXcsh(["worktrees", "--json"], opts)).stdout).worktrees;
    assert.equal((await runXcsh(["worktrees", "rm", kept[0].id], opts)).code, 0);
    const third = await resume("write gamma");
    assert.deepEqual(third.worktree.changed, ["gamma.txt"], "a fresh worktree from HEAD");
    const fourth = await resume("write delta");
    assert.equal(fourth.worktree.path, third.worktree.path, "the follow-up's worktree is kept on");
    assert.deepEqual(fourth.worktree.changed, ["delta.txt", "gamma.txt"]);
    assert.equal(git(w.cwd, "status", "--porcelain"), "");
    const logs = await runXcsh(["logs", session], opts);
    assert.match(
      logs.stdout,
      /## follow-up [^\n]*\nin worktree \S+ \(branch xcsh\/\S+\)\n {2}write gamma/,
    );
  });

  test("a kept worktree replaced by a link elsewhere: the resume is refused, nothing runs", async () => {
    const w = repoWorld();
    const opts = { cwd: w.cwd, home: w.home };
    const first =
      JSON.parse((await runXcsh(["run", "writer", "--json", "write alpha"], opts)).stdout)
        .results[0];
    const elsewhere = mkdtempSync(join(tmpdir(), "xcsh-not-a-worktree-"));
    try {
      // Something with write access to the data folder swaps the worktree for a
      // link to a lookalike elsewhere (its agents too, so the resume gets that far).
      renameSync(first.worktree.path, `${first.worktree.path}.moved`);
      cpSync(`${first.worktree.path}.moved`, elsewhere, { recursive: true });
      symlinkSync(elsewhere, first.worktree.path);
      const before = readdirSync(elsewhere).sort();
      server.requests.length = 0;
      const r = await runXcsh(["run", "--resume", first.session, "write beta"], opts);
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, new RegExp(`cannot resume session ${first.session}: `));
      assert.equal(server.requests.length, 0, "no child ran");
      assert.deepEqual(
        readdirSync(elsewhere).sort(),
        before,
        "nothing was written through the link",
      );
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  test("not a git repository: exit 2 before any child starts", async () => {
    const w = makeWorld(localConfig(server.url), {
      writer: agentMd("writer", "tools: write\nisolation: worktree\n"),
    });
    harness.keep(w);
    server.requests.length = 0;
    const r = await runXcsh(["run", "writer", "write x"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /isolation worktree needs a git repository, and \S+ is not inside one/);
    assert.equal(server.requests.length, 0);
    const repo = repoWorld();
    writeFileSync(join(repo.root, "a-file"), "");
    const noData = await runXcsh(["run", "writer", "write x"], {
      cwd: repo.cwd,
      home: repo.home,
      env: { XCSH_DATA_DIR: join(repo.root, "a-file", "data") },
    });
    assert.equal(noData.code, 2);
    assert.match(
      noData.stderr,
      /isolation worktree: cannot create \S+a-file\/data\/worktrees \(ENOTDIR\)/,
    );
    assert.equal(server.requests.length, 0);
    const noGit = await runXcsh(["run", "writer", "write x"], {
      cwd: w.cwd,
      home: w.home,
      env: { PATH: "/nonexistent" },
    });
    assert.equal(noGit.code, 2);
    assert.match(noGit.stderr, /needs git, and no 'git' was found on PATH/);
  });
});
