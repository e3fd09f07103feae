// End to end: acceptance checks the parent runs after a child submits,
// through the built binary against the scripted model server. A child that
// claims success without doing the work is sent back once with the failing
// check's name and output, then rejected (exit 1); one that fixes it on the
// second round is ok with both rounds in its session; a change outside the
// scope is rejected naming the file; a result pointer is checked; a
// project's check commands run only once the project is trusted (until
// then: skipped, `verified: false`); a child cannot make a check pass by
// editing the agent file that holds it; bad checks are refused before any
// model call, and a check that hangs, floods or is missing is named.
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import process from "node:process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runXcsh } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import { agentMd, type World } from "../support/world.ts";
import { outsideFolder } from "../support/outside-folder.ts";
import { ran, trappedRepo } from "../support/git-traps.ts";
import { bwrapLocations, sandboxSupport } from "../../src/sandbox/probe.ts";

const linux = process.platform === "linux" ? false : "needs Linux";
const support = sandboxSupport(bwrapLocations(process.env), true);
const needsBwrap = linux || (support.ok ? false : `bwrap unavailable: ${support.reason}`);

const harness = modelHarness({ respond: () => ({ text: "unexpected" }) });
const { server, respond } = harness;

const bash = (command: string) => ({ name: "bash", args: { command } });
const submit = (data: unknown) => ({ name: "submit_result", args: { result: { data } } });

function world(): World {
  const w = harness.world();
  w.addAgent("builder", agentMd("builder", "tools: Read, Bash\n"));
  return w;
}

/** The model answers these turns in order (one per request). */
function turns(...script: Parameters<typeof server.script>[0]): void {
  server.script(script);
  server.requests.length = 0;
  respond(() => ({ text: "unexpected" }));
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
    cwd,
    encoding: "utf8",
  });
}

// deno-lint-ignore no-explicit-any
function only(stdout: string): any {
  const doc = JSON.parse(stdout);
  assert.equal(doc.results.length, 1);
  return doc.results[0];
}

/** Every message of the session `id` (both rounds' included). */
function sessionText(w: World, id: string): string {
  const dir = join(w.home, ".local", "share", "xcsh", "sessions");
  const file = readdirSync(dir, { recursive: true }).map(String).find((f) => f.includes(id));
  assert.ok(file, `session ${id} is kept`);
  return readFileSync(join(dir, file), "utf8");
}

describe("a failing check sends the child back", () => {
  test("a child that claims success without the file is sent back once, then rejected", async () => {
    const w = world();
    turns({ text: "done, built it" }, { text: "really done" });
    const r = await runXcsh(
      ["run", "builder", "build it", "--json", "--accept", "cmd: test -f built.txt"],
      { cwd: w.cwd, home: w.home },
    );
    assert.equal(r.code, 1, r.stderr);
    const res = only(r.stdout);
    assert.equal(res.status, "rejected");
    assert.match(res.error, /acceptance check 'cmd: test -f built\.txt' failed after 2 rounds/);
    assert.equal(res.text, "really done", "the result is kept");
    assert.equal(res.verified, false);
    assert.deepEqual(res.checks.map((c: { name: string; ok: boolean }) => [c.name, c.ok]), [
      ["cmd: test -f built.txt", false],
    ]);
    assert.match(res.checks[0].output, /exit code 1/);
    assert.equal(server.requests.length, 2, "one round more, no third");
    const second = JSON.stringify(server.requests[1].body.messages);
    assert.match(second, /Your result was not accepted: 1 acceptance check failed/);
    assert.match(second, /## cmd: test -f built.txt/);
    assert.match(second, /done, built it/, "the second round continues the conversation");
    assert.match(second, /last round/);
  });

  test("a child that fixes it on the second round is ok, both rounds in its session", async () => {
    const w = world();
    turns(
      { text: "done" },
      { toolCalls: [bash("echo made > built.txt")] },
      { text: "now it is built" },
    );
    const r = await runXcsh(
      ["run", "builder", "build it", "--json", "--accept", "cmd: test -f built.txt"],
      { cwd: w.cwd, home: w.home },
    );
    assert.equal(r.code, 0, r.stderr);
    const res = only(r.stdout);
    assert.equal(res.status, "ok");
    assert.equal(res.verified, true);
    assert.equal(res.acceptRounds, 1);
    assert.equal(res.checks[0].ok, true);
    assert.equal(res.turns, 3, "the turns of both rounds");
    const kept = sessionText(w, res.session);
    assert.match(kept, /build it/);
    assert.match(kept, /Your result was not accepted/);
    assert.match(kept, /now it is built/);
  });

  test("text output names the failed check on stderr; stream-json carries the checks", async () => {
    const w = world();
    turns({ text: "done" });
    const r = await runXcsh(
      ["run", "builder", "go", "--accept", "file: built.txt", "--accept-retries", "0"],
      { cwd: w.cwd, home: w.home },
    );
    assert.equal(r.code, 1);
    assert.equal(r.stdout, "done\n", "the rejected result is printed");
    assert.match(
      r.stderr,
      /task 0-builder was rejected: acceptance check 'file: built.txt' failed/,
    );
    assert.match(r.stderr, /check 'file: built.txt' failed: built.txt: does not exist/);
    turns({ text: "done" });
    const s = await runXcsh(
      [
        "run",
        "builder",
        "go",
        "--output-format",
        "stream-json",
        "--accept",
        "file: README.md ~ demo",
      ],
      { cwd: w.cwd, home: w.home },
    );
    assert.equal(s.code, 0, s.stderr);
    const lines = s.stdout.trim().split("\n").map((l) => JSON.parse(l));
    const result = lines.find((l) => l.type === "result" && l.result);
    assert.ok(result, s.stdout);
    assert.deepEqual(result.result.checks.map((c: { ok: boolean }) => c.ok), [true]);
    assert.equal(result.result.verified, true);
  });
});

describe("isolation", () => {
  test("checks run in the task's worktree, and scope sees the worktree's changes", async () => {
    const w = world();
    mkdirSync(join(w.cwd, "src"));
    writeFileSync(join(w.cwd, "src", "a.ts"), "a\n");
    git(w.cwd, "init", "-q", "-b", "main");
    git(w.cwd, "add", ".");
    git(w.cwd, "commit", "-q", "-m", "start");
    turns({ toolCalls: [bash("echo b >> src/a.ts; touch built.txt")] }, { text: "done" });
    const r = await runXcsh(
      [
        "run",
        "builder",
        "go",
        "--json",
        "--isolation",
        "worktree",
        "--accept",
        "cmd: test -f built.txt",
        "--accept",
        "changed: src/** built.txt",
      ],
      { cwd: w.cwd, home: w.home },
    );
    assert.equal(r.code, 0, r.stderr);
    const res = only(r.stdout);
    assert.deepEqual(res.checks.map((c: { ok: boolean }) => c.ok), [true, true]);
    assert.match(res.checks[1].output, /changed: built\.txt, src\/a\.ts/);
    assert.ok(!existsSync(join(w.cwd, "built.txt")), "the caller's checkout is untouched");
  });
});

describe("scope and result", () => {
  test("a change outside the scope is rejected naming the file", async () => {
    const w = world();
    mkdirSync(join(w.cwd, "src"));
    writeFileSync(join(w.cwd, "src", "a.ts"), "a\n");
    writeFileSync(join(w.cwd, "dirty-before.txt"), "the user's own change\n");
    git(w.cwd, "init", "-q", "-b", "main");
    git(w.cwd, "add", "src", "README.md", ".xcsh");
    git(w.cwd, "commit", "-q", "-m", "start");
    turns({ toolCalls: [bash("echo b >> src/a.ts; echo x > outside.txt")] }, { text: "done" });
    const r = await runXcsh(
      [
        "run",
        "builder",
        "edit src",
        "--json",
        "--accept",
        "changed: src/**",
        "--accept-retries",
        "0",
      ],
      { cwd: w.cwd, home: w.home },
    );
    assert.equal(r.code, 1, r.stderr);
    const res = only(r.stdout);
    assert.equal(res.status, "rejected");
    assert.match(res.checks[0].output, /changed outside src\/\*\*: outside\.txt$/);
    assert.doesNotMatch(
      res.checks[0].output,
      /dirty-before/,
      "changes from before the task do not count",
    );

    turns({ toolCalls: [bash("echo c >> src/a.ts")] }, { text: "done" });
    const ok = await runXcsh(
      ["run", "builder", "edit src", "--json", "--accept", "changed: src/**"],
      { cwd: w.cwd, home: w.home },
    );
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(only(ok.stdout).checks[0].output, /changed: src\/a\.ts/);

    turns({ text: "nothing to do" });
    const none = await runXcsh(
      [
        "run",
        "builder",
        "edit src",
        "--json",
        "--accept",
        "changed: src/**",
        "--accept-retries",
        "0",
      ],
      { cwd: w.cwd, home: w.home },
    );
    assert.equal(none.code, 1);
    assert.equal(only(none.stdout).checks[0].output, "no file changed");
  });

  test("attack: the scope snapshot runs none of the programs a repository's git config names", async () => {
    const w = world();
    const marks = harness.scratch(outsideFolder("xcsh-accept-marks-"));
    trappedRepo(w.root, w.cwd, marks);
    turns({ toolCalls: [bash("echo c > a.txt; echo d > b.txt")] }, { text: "done" });
    const r = await runXcsh(
      ["run", "builder", "go", "--json", "--accept", "scope: *.txt"],
      { cwd: w.cwd, home: w.home },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(only(r.stdout).checks[0].output, /changed: a\.txt, b\.txt/);
    assert.deepEqual(ran(marks), [], "no filter, fsmonitor, hook or ssh command ran");
  });

  test("a JSON Pointer into the structured result must equal or match", async () => {
    const w = world();
    const schema = JSON.stringify({
      type: "object",
      properties: { ok: { type: "boolean" }, summary: { type: "string" } },
      required: ["ok", "summary"],
    });
    turns({ toolCalls: [submit({ ok: false, summary: "gave up" })] });
    const r = await runXcsh(
      [
        "run",
        "builder",
        "go",
        "--json",
        "--schema",
        schema,
        "--accept",
        "result: /ok == true",
        "--accept",
        "result: /summary ~ ^fixed",
        "--accept",
        "result: /nothing/here",
        "--accept-retries",
        "0",
      ],
      { cwd: w.cwd, home: w.home },
    );
    assert.equal(r.code, 1, r.stderr);
    const res = only(r.stdout);
    assert.equal(res.status, "rejected");
    assert.deepEqual(res.data, { ok: false, summary: "gave up" });
    assert.deepEqual(res.checks.map((c: { output: string }) => c.output), [
      "the result's /ok is false, not true",
      `the result's /summary is "gave up", which does not match /^fixed/`,
      "the result's /nothing/here does not exist",
    ]);
  });
});

describe("trust", () => {
  test("an untrusted project's check commands are skipped (verified: false), run once trusted", async () => {
    const w = world();
    const flag = join(w.cwd, "check-ran");
    w.addAgent(
      "checked",
      agentMd("checked", `tools: Read\naccept:\n  - cmd: touch ${flag}\n    name: marker\n`),
    );
    turns({ text: "done" });
    const r = await runXcsh(["run", "checked", "go", "--json"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!existsSync(flag), "an untrusted project's check command did not run");
    const res = only(r.stdout);
    assert.equal(res.status, "ok");
    assert.equal(res.verified, false);
    assert.equal(res.checks[0].name, "marker");
    assert.equal(res.checks[0].skipped, true);
    assert.equal(res.checks[0].ok, false, "a skipped check never counts as passed");
    assert.match(r.stderr, /'marker'\) are not run: the project is not trusted/);

    const t = await runXcsh(["trust", w.cwd], { cwd: w.cwd, home: w.home });
    assert.equal(t.code, 0, t.stderr);
    assert.match(t.stdout + t.stderr, /accept/);
    turns({ text: "done" });
    const again = await runXcsh(["run", "checked", "go", "--json"], { cwd: w.cwd, home: w.home });
    assert.equal(again.code, 0, again.stderr);
    assert.ok(existsSync(flag), "the trusted project's check ran");
    assert.equal(only(again.stdout).verified, true);
  });

  test("attack: a child that rewrites the agent file holding its check cannot make it pass", async () => {
    const w = world();
    const file = join(w.cwd, ".xcsh", "agents", "guarded.md");
    w.addAgent("guarded", agentMd("guarded", "tools: Read, Bash\naccept:\n  - file: built.txt\n"));
    const weakened = agentMd("guarded", "tools: Read, Bash\n").replace(/\n/g, "\\n");
    turns(
      { toolCalls: [bash(`printf '${weakened}' > ${file}`)] },
      { text: "done" },
      { toolCalls: [bash(`printf '${weakened}' > ${file}`)] },
      { text: "done again" },
    );
    const r = await runXcsh(["run", "guarded", "go", "--json"], { cwd: w.cwd, home: w.home });
    assert.equal(readFileSync(file, "utf8").includes("accept"), false, "the child did edit it");
    assert.equal(r.code, 1, r.stderr);
    assert.equal(only(r.stdout).status, "rejected");
    const seen = JSON.stringify(server.requests.map((q) => q.body));
    assert.doesNotMatch(seen, /accept:/, "the checks are never in the child's prompt");
  });
});

describe("file checks", () => {
  test("attack: a file check reads nothing outside the task's folders, symlinks included", async () => {
    const w = world();
    const outside = harness.scratch(outsideFolder("xcsh-accept-secret-"));
    const secret = join(outside, "secret.txt");
    writeFileSync(secret, "hunter2\n");
    turns({ toolCalls: [bash(`ln -s ${secret} built.txt`)] }, { text: "done" });
    const r = await runXcsh(
      [
        "run",
        "builder",
        "go",
        "--json",
        "--accept",
        "file: built.txt ~ hunter2",
        "--accept",
        `file: ${secret} ~ hunter2`,
        "--accept-retries",
        "0",
      ],
      { cwd: w.cwd, home: w.home },
    );
    assert.equal(r.code, 1, r.stderr);
    const res = only(r.stdout);
    assert.deepEqual(res.checks.map((c: { output: string }) => c.output), [
      "built.txt: lies outside the task's folders",
      `${secret}: lies outside the task's folders`,
    ]);
  });
});

describe("check scripts", () => {
  test("attack: a child that rewrites the script its check runs cannot make it pass", async () => {
    const w = world();
    writeFileSync(join(w.cwd, "check.sh"), "test -f built.txt\n");
    turns(
      { toolCalls: [bash("echo 'exit 0' > check.sh")] },
      { text: "done" },
    );
    const r = await runXcsh(
      ["run", "builder", "go", "--json", "--accept", "cmd: sh check.sh", "--accept-retries", "0"],
      { cwd: w.cwd, home: w.home },
    );
    assert.equal(
      readFileSync(join(w.cwd, "check.sh"), "utf8"),
      "exit 0\n",
      "the child did edit it",
    );
    assert.equal(r.code, 1, r.stderr);
    const res = only(r.stdout);
    assert.equal(res.status, "rejected");
    assert.match(res.checks[0].output, /not run: the task changed what it runs \(.*check\.sh\)/);
  });

  test("an unchanged script runs, and its verdict counts", async () => {
    const w = world();
    writeFileSync(join(w.cwd, "check.sh"), "test -f built.txt\n");
    turns({ toolCalls: [bash("touch built.txt")] }, { text: "done" });
    const r = await runXcsh(
      ["run", "builder", "go", "--json", "--accept", "cmd: sh check.sh"],
      { cwd: w.cwd, home: w.home },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(only(r.stdout).checks[0].ok, true);
  });
});

describe("the sandbox", { skip: needsBwrap }, () => {
  test("a check command runs in the agent's sandbox, even for an agent without bash", async () => {
    const w = world();
    w.addAgent("reader", agentMd("reader", "tools: Read\n"));
    const outside = harness.scratch(outsideFolder("xcsh-accept-outside-"));
    turns({ text: "done" });
    const r = await runXcsh(
      [
        "run",
        "reader",
        "go",
        "--json",
        "--accept",
        `cmd: touch ${join(outside, "escaped")}`,
        "--accept",
        "cmd: touch inside.txt",
        "--accept-retries",
        "0",
      ],
      { cwd: w.cwd, home: w.home },
    );
    assert.equal(r.code, 1, r.stderr);
    const res = only(r.stdout);
    assert.deepEqual(res.checks.map((c: { ok: boolean }) => c.ok), [false, true]);
    assert.ok(
      !existsSync(join(outside, "escaped")),
      "the check could not write outside the project",
    );
    assert.ok(existsSync(join(w.cwd, "inside.txt")), "the check could write in the project");
  });
});

describe("terminal", () => {
  test("a failed check's last output line reaches stderr without terminal controls", async () => {
    const w = world();
    turns({ text: "done" });
    const r = await runXcsh(
      [
        "run",
        "builder",
        "go",
        "--accept",
        "cmd: printf 'x\\033]0;pwned\\007\\033[2Jend'; exit 1",
        "--accept-retries",
        "0",
      ],
      { cwd: w.cwd, home: w.home },
    );
    assert.equal(r.code, 1, r.stderr);
    const line = r.stderr.split("\n").find((l) => l.includes("failed: "));
    assert.ok(line?.endsWith("failed: xend [exit code 1]"), r.stderr);
    // deno-lint-ignore no-control-regex
    assert.doesNotMatch(r.stderr, /\u001b|\u0007/);
  });
});

describe("bad checks", () => {
  test("an invalid glob, regex or pointer is one line before any model call (exit 2)", async () => {
    const w = world();
    for (
      const [flag, why] of [
        ["scope: [z-a]", /^xcsh: --accept: check 'scope: \[z-a\]': invalid glob '\[z-a\]'/],
        ["result: ok", /--accept\[0\]: 'result': 'ok' is no JSON Pointer/],
        ["file: a ~ (", /--accept\[0\]: 'matches': Invalid regular expression/],
        ["run: make", /--accept\[0\]: 'run: make' is no check: write KIND: VALUE/],
      ] as const
    ) {
      turns();
      const r = await runXcsh(["run", "builder", "go", "--accept", flag], {
        cwd: w.cwd,
        home: w.home,
      });
      assert.equal(r.code, 2, r.stderr);
      // Where bubblewrap is missing, a warning about the sandbox may come first.
      const lines = r.stderr.trim().split("\n").filter((l) => !l.startsWith("xcsh: warning:"));
      assert.match(lines[0], why);
      assert.equal(server.requests.length, 0, "no child started");
    }
  });

  test("--dry-run names the checks and the rounds, and starts nothing", async () => {
    const w = world();
    turns();
    const r = await runXcsh(
      ["run", "builder", "go", "--dry-run", "--accept", "cmd: make", "--accept", "file: out"],
      { cwd: w.cwd, home: w.home },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stderr,
      /dry run: \[0-builder\] acceptance checks: 'cmd: make', 'file: out'; 1 round back on failure/,
    );
    assert.doesNotMatch(r.stdout, /cmd: make/, "the child's envelope does not carry the checks");
    assert.equal(server.requests.length, 0);
  });

  test("an agent file with a bad check is not loaded, and `agents check` names it", async () => {
    const w = world();
    w.addAgent("bad", agentMd("bad", "accept:\n  - cmd: make\n    timeout: -1\n"));
    const r = await runXcsh(["agents", "check"], { cwd: w.cwd, home: w.home });
    assert.match(r.stdout + r.stderr, /bad\.md.*accept.*accept\[0\]: 'timeout' must be seconds/);
  });

  test("a missing command fails the task naming the check; a hang and a flood are cut", async () => {
    const w = world();
    turns({ text: "done" });
    const missing = await runXcsh(
      ["run", "builder", "go", "--json", "--accept", "cmd: no-such-program-xcsh-test"],
      { cwd: w.cwd, home: w.home },
    );
    assert.equal(missing.code, 1);
    const m = only(missing.stdout);
    assert.equal(m.status, "error");
    assert.match(
      m.error,
      /acceptance check 'cmd: no-such-program-xcsh-test': the command was not found/,
    );
    assert.equal(server.requests.length, 1, "the child is not sent back for the caller's mistake");

    const checks = join(w.root, "checks.json");
    writeFileSync(
      checks,
      JSON.stringify([
        { name: "hangs", cmd: "sleep 60", timeout: 1 },
        { name: "floods", cmd: "head -c 100000000 /dev/zero | tr '\\0' x; exit 3" },
      ]),
    );
    turns({ text: "done" });
    const r = await runXcsh(
      ["run", "builder", "go", "--json", "--accept", `@${checks}`, "--accept-retries", "0"],
      { cwd: w.cwd, home: w.home },
    );
    assert.equal(r.code, 1, r.stderr);
    const res = only(r.stdout);
    assert.equal(res.status, "rejected");
    assert.match(res.checks[0].output, /\[killed: timed out after 1 s\]$/);
    assert.match(res.checks[1].output, /characters cut/);
    assert.match(res.checks[1].output, /exit code 3\]$/);
    assert.ok(res.checks[1].output.length < 3000, "only the tail is kept");
  });
});
