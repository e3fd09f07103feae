// Children started through a launcher (`task.launcher`, `task.launchers`),
// through the built binary and the local model server: the command line a
// dry run shows (protocol variables on it, keys never), config errors, an
// untrusted project's launcher ignored, a missing program refused before any
// child starts, a far side that is not xcsh or prints something else first;
// repository text never run by a far shell (hostile agent names refused by
// discovery, a hostile folder name through ssh-like wrappers, the blocked
// agent carried by the envelope and still enforced);
// then a real one-node Slurm cluster: a fan-out of 8 whose bash reports
// $SLURM_JOB_ID (one job each), a cancelled fan-out leaving squeue empty,
// and a job the engine cancels. The Slurm tests say why when they cannot run.
//
// Needs `npm run build` first (npm test runs it).

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { cleanEnv, runXcsh, XCSH } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import type { RecordedRequest, Turn } from "../support/model-server.ts";
import { agentMd, isAfterTool, toolResults, type World } from "../support/world.ts";
import { type SlurmCluster, startSlurm } from "../support/slurm.ts";

const harness = modelHarness();
const { server, respond } = harness;
const world = (task: string) => harness.world({ extraConfig: `task:\n${task}` });

const bashThenDone = (command: string) => (req: RecordedRequest): Turn =>
  isAfterTool(req)
    ? { text: `saw: ${toolResults(req)}` }
    : { toolCalls: [{ name: "bash", args: { command } }] };

const KEY = "sk-ant-launcher-test-0123456789";

describe("launcher settings", () => {
  test("a dry run shows the launcher's command: placeholders filled, protocol variables, no key", async () => {
    const w = world(
      `  launcher: ["srun", "--quiet", "--job-name={job}", "--chdir={cwd}", "--comment={agent}/{task}", "--"]\n` +
        `  launcherBinary: /shared/bin/xcsh\n`,
    );
    const r = await runXcsh(["run", "quick_task", "--dry-run", "--task", "a b=go"], {
      cwd: w.cwd,
      home: w.home,
      env: { ANTHROPIC_API_KEY: KEY },
    });
    assert.equal(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout);
    const argv: string[] = doc.tasks[0].launcher.argv;
    assert.equal(doc.tasks[0].launcher.name, "task.launcher");
    assert.deepEqual(argv.slice(0, 6), [
      "srun",
      "--quiet",
      "--job-name=xcsh-quick-task-a-b",
      `--chdir=${w.cwd}`,
      "--comment=quick_task/a b",
      "--",
    ]);
    assert.equal(argv[6], "env");
    assert.ok(argv.includes("XCSH_TASK_DEPTH=1"), argv.join(" "));
    assert.ok(argv.includes("XCSH_PARENT_PIPE=1"), argv.join(" "));
    // Names a repository chose travel in the envelope, on no command line.
    assert.ok(!argv.some((a) => /XCSH_SPAWNS|PI_BLOCKED_AGENT/.test(a)), argv.join(" "));
    assert.equal(doc.tasks[0].envelope.blockedAgent, "quick_task");
    assert.equal(doc.tasks[0].launcher.shell, false, "srun starts its words as they are");
    assert.deepEqual(argv.slice(-2), ["/shared/bin/xcsh", "__child"]);
    assert.ok(!r.stdout.includes(KEY) && !argv.join(" ").includes("sk-ant"), "no key on the line");
  });

  test("an unknown placeholder, an empty list and a bad binary are config errors naming the key", async () => {
    for (
      const [task, key, why] of [
        [`  launcher: ["srun", "--chdir={dir}"]\n`, "task.launcher", /unknown placeholder \{dir\}/],
        [`  launcher: []\n`, "task.launcher", /must not be empty/],
        [`  launchers: { c: "srun" }\n`, "task.launchers.c", /must be a list of strings/],
        [`  launcherBinary: xcsh\n`, "task.launcherBinary", /must be an absolute path/],
      ] as const
    ) {
      const w = world(task);
      const r = await runXcsh(["run", "quick_task", "go"], { cwd: w.cwd, home: w.home });
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, new RegExp(`config\\.yml.*'${key.replaceAll(".", "\\.")}'`));
      assert.match(r.stderr, why);
      assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
    }
  });

  test("a launcher whose program is missing: exit 2 before any child starts", async () => {
    const w = world(`  launchers: { cluster: ["no-such-launcher-xyz", "--"] }\n`);
    server.requests.length = 0;
    const r = await runXcsh(["run", "quick_task", "--launcher", "cluster", "go"], {
      cwd: w.cwd,
      home: w.home,
    });
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /launcher 'cluster' \(task\.launchers\.cluster\): the program 'no-such-launcher-xyz' was not found on PATH/,
    );
    assert.equal(server.requests.length, 0);
  });

  test("a dry run with the launcher's program missing shows its command, with a warning", async () => {
    const w = world(
      `  launchers: { cluster: ["no-such-launcher-xyz", "--job-name={job}", "--"] }\n`,
    );
    server.requests.length = 0;
    const r = await runXcsh(["run", "quick_task", "--launcher", "cluster", "--dry-run", "go"], {
      cwd: w.cwd,
      home: w.home,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stderr,
      /warning.*launcher 'cluster' \(task\.launchers\.cluster\): the program 'no-such-launcher-xyz' was not found on PATH; a real run would start no task/,
    );
    const argv: string[] = JSON.parse(r.stdout).tasks[0].launcher.argv;
    assert.deepEqual(argv.slice(0, 3), [
      "no-such-launcher-xyz",
      "--job-name=xcsh-quick-task-0-quick-task",
      "--",
    ]);
    assert.equal(server.requests.length, 0);
  });

  test("an unknown launcher name is refused naming where it came from", async () => {
    const w = world(`  launchers: { cluster: ["env"] }\n`);
    const r = await runXcsh(["run", "quick_task", "--launcher", "grid", "go"], {
      cwd: w.cwd,
      home: w.home,
    });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /--launcher names the launcher 'grid'.*\(known: local, cluster\)/);
    w.addAgent(
      "remote",
      "---\nname: remote\ndescription: d\nlauncher: grid\n---\nYou run remotely.\n",
    );
    const a = await runXcsh(["run", "remote", "go"], { cwd: w.cwd, home: w.home });
    assert.equal(a.code, 2, a.stderr);
    assert.match(a.stderr, /remote\.md: 'launcher' names the launcher 'grid'/);
  });

  test("a project config's launcher is ignored until the project is trusted", async () => {
    const w = world("  timeout: 600\n");
    mkdirSync(join(w.cwd, ".xcsh"), { recursive: true });
    writeFileSync(
      join(w.cwd, ".xcsh", "config.yml"),
      `task:\n  launcher: ["sh", "-c", "touch /tmp/x"]\n`,
    );
    const r = await runXcsh(["run", "quick_task", "--dry-run", "go"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).tasks[0].launcher, undefined);
    assert.match(r.stderr, /task\.launcher/);
  });

  test("a local launcher (env) runs the task end to end", async () => {
    const w = world(`  launcher: ["env", "XCSH_TEST_LAUNCHED=yes"]\n`);
    respond(bashThenDone("echo launched=$XCSH_TEST_LAUNCHED"));
    const r = await runXcsh(["run", "quick_task", "--json", "go"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    const res = JSON.parse(r.stdout).results[0];
    assert.equal(res.status, "ok", JSON.stringify(res));
    assert.match(res.text, /launched=yes/);
  });

  test("a far side without xcsh fails the task naming the launcher and its stderr's last line", async () => {
    const w = world(
      `  launcher: ["sh", "-c", "exec \\"$@\\"", "far"]\n  launcherBinary: /nonexistent/xcsh\n`,
    );
    const r = await runXcsh(["run", "quick_task", "--json", "--task", "a=go", "--task", "b=go"], {
      cwd: w.cwd,
      home: w.home,
    });
    assert.equal(r.code, 1, r.stderr);
    assert.ok(r.stdout.trim() !== "", `no JSON on stdout; stderr: ${r.stderr}`);
    const results = JSON.parse(r.stdout).results;
    assert.equal(results.length, 2, "every task reports");
    for (const res of results) {
      assert.equal(res.status, "error");
      assert.match(
        res.error,
        /^launcher 'task\.launcher' \(sh\) exited with code \d+ without a result: .*nonexistent\/xcsh/,
      );
    }
  });

  test("a far side that ends at once never takes the parent down (its envelope write fails)", async () => {
    // The envelope is written while the far side is already gone: EPIPE, which
    // once escaped as an unhandled rejection about one run in four.
    const w = world(
      `  launcher: ["sh", "-c", "exec \\"$@\\"", "far"]\n  launcherBinary: /nonexistent/xcsh\n`,
    );
    for (let i = 0; i < 20; i++) {
      const r = await runXcsh(["run", "quick_task", "--json", "--task", "a=go", "--task", "b=go"], {
        cwd: w.cwd,
        home: w.home,
      });
      assert.equal(r.code, 1, r.stderr);
      assert.doesNotMatch(r.stderr, /EPIPE|\n\s+at /, `run ${i}: ${r.stderr}`);
      assert.equal(JSON.parse(r.stdout).results.length, 2);
    }
  });

  test("a far side that prints something else before the protocol fails the task, naming it", async () => {
    const w = world(
      `  launcher: ["sh", "-c", "echo 'Welcome to the cluster'; exec \\"$@\\"", "far"]\n`,
    );
    respond(() => ({ text: "never seen" }));
    const r = await runXcsh(["run", "quick_task", "--json", "go"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 1, r.stderr);
    const res = JSON.parse(r.stdout).results[0];
    assert.match(
      res.error,
      /^launcher 'task\.launcher' \(sh\): the far side wrote something other than xcsh's protocol on stdout: "Welcome to the cluster"/,
    );
  });
});

/**
 * Stand-ins for ssh-like launchers in the world's `bin/`: `ssh HOST WORDS…` and
 * `autossh HOST WORDS…` run WORDS joined by spaces through `sh -c` in a clean
 * environment, as ssh's far side does; `sshpass -e ssh …` runs the rest.
 */
function sshLike(w: World): Record<string, string> {
  const bin = join(w.root, "bin");
  mkdirSync(bin, { recursive: true });
  const far = `#!/bin/sh\nshift\nexec env -i PATH="$PATH" HOME="$HOME" sh -c "$*"\n`;
  for (
    const [name, text] of [["ssh", far], ["autossh", far], [
      "sshpass",
      `#!/bin/sh\nshift\nexec "$@"\n`,
    ]]
  ) {
    writeFileSync(join(bin, name), text);
    chmodSync(join(bin, name), 0o755);
  }
  return { PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}` };
}

/** Every path under `dir` whose name is `name`. */
function findNamed(dir: string, name: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((p) => p.split("/").pop() === name)
    .map((p) => join(dir, p));
}

const WRAPPERS = [
  ["autossh", "box"],
  ["env", "ssh", "box"],
  ["timeout", "60", "ssh", "box"],
  ["sshpass", "-e", "ssh", "box"],
];

describe("repository text never reaches a far shell", () => {
  const hostileNames = [
    "rev$(touch${IFS}pwned)",
    "rev`touch${IFS}pwned`",
    "rev;touch${IFS}pwned",
    "rev\ntouch pwned",
  ];

  test("an agent named to run a command is refused by discovery, naming its file; nothing runs", async () => {
    const w = world(`  launcher: ["autossh", "box", "cd", "{cwd}", "&&"]\n`);
    const path = sshLike(w);
    respond(() => ({ text: "done" }));
    for (const name of hostileNames) {
      const file = name.replaceAll("\n", "_");
      w.addAgent(file, `---\nname: ${JSON.stringify(name)}\ndescription: d\n---\nReview.\n`);
      const r = await runXcsh(["run", "--json", name, "go"], {
        cwd: w.cwd,
        home: w.home,
        env: path,
      });
      assert.deepEqual(findNamed(w.root, "pwned"), [], `the far side ran ${JSON.stringify(name)}`);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.match(r.stderr, /Unknown agent|contains a line break/);
      const check = await runXcsh(["agents", "check"], { cwd: w.cwd, home: w.home });
      const at = join(w.cwd, ".xcsh", "agents", `${file}.md`);
      assert.ok(
        check.stdout.split("\n").concat(check.stderr.split("\n")).some((l) =>
          l.includes(at) && /skipped: 'name' (may hold only|contains an invisible)/.test(l)
        ),
        `agents check names ${at}: ${check.stdout}${check.stderr}`,
      );
      assert.equal(check.code, 1);
    }
  });

  for (const declared of [false, true]) {
    for (const words of WRAPPERS) {
      const label = `${words.join(" ")}${declared ? " (shell: true)" : " (inferred)"}`;
      test(`${label}: a folder named to run a command is one word to the far shell`, async () => {
        const args = JSON.stringify([...words, "cd", "{cwd}", "&&"]);
        const w = world(`  launcher: ${declared ? `{ args: ${args}, shell: true }` : args}\n`);
        const path = sshLike(w);
        const cwd = join(w.cwd, "sub$(touch${IFS}pwned)");
        mkdirSync(cwd);
        respond(bashThenDone("pwd"));
        const r = await runXcsh(["run", "quick_task", "--json", "go"], {
          cwd,
          home: w.home,
          env: path,
        });
        assert.deepEqual(findNamed(w.root, "pwned"), [], "the far side ran the folder's name");
        assert.equal(r.code, 0, r.stdout + r.stderr);
        const res = JSON.parse(r.stdout).results[0];
        assert.equal(res.status, "ok", JSON.stringify(res));
        assert.ok(res.text.includes(cwd), `the child ran in ${cwd}: ${res.text}`);
      });
    }
  }

  test("the blocked agent still holds through a launcher: the far child refuses to start itself", async () => {
    const w = world(`  launcher: ["ssh", "box", "cd", "{cwd}", "&&"]\n`);
    w.addAgent("solo", agentMd("solo", "tools: task, read\n"));
    const path = sshLike(w);
    respond((req) =>
      isAfterTool(req) ? { text: `refused: ${toolResults(req)}` } : {
        toolCalls: [{
          name: "task",
          args: { agent: "solo", tasks: [{ id: "again", assignment: "x" }] },
        }],
      }
    );
    const dry = await runXcsh(["run", "solo", "--dry-run", "go"], {
      cwd: w.cwd,
      home: w.home,
      env: path,
    });
    const argv: string[] = JSON.parse(dry.stdout).tasks[0].launcher.argv;
    assert.ok(!argv.some((a) => a.includes("solo")), `no name on the line: ${argv.join(" ")}`);
    const r = await runXcsh(["run", "solo", "--json", "start"], {
      cwd: w.cwd,
      home: w.home,
      env: path,
    });
    assert.equal(r.code, 0, r.stderr);
    const res = JSON.parse(r.stdout).results[0];
    assert.match(res.text, /Cannot spawn 'solo' from inside 'solo': recursion prevention/);
  });

  test("a placeholder inside the launcher's own quotes is a config error naming the key", async () => {
    const w = world(
      `  launchers: { box: { args: ["ssh", "box", "cd '{cwd}' &&"], shell: true } }\n`,
    );
    const r = await runXcsh(["run", "quick_task", "go"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /config\.yml.*'task\.launchers\.box\.args'.*\{cwd\} stands inside quotes/,
    );
    assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
    assert.ok(!existsSync(join(w.root, "pwned")));
  });
});

describe("on a one-node Slurm cluster", () => {
  let cluster: SlurmCluster | undefined;
  let reason: string | false = false;
  before(async () => {
    const c = await startSlurm();
    if (typeof c === "string") reason = c;
    else cluster = c;
  });
  after(() => cluster?.stop());

  const srun = `  launcher: ["srun", "--quiet", "--job-name={job}", "--chdir={cwd}", "--"]\n` +
    `  maxConcurrency: 8\n`;

  test("a fan-out of 8 runs as 8 Slurm jobs", async (t) => {
    if (reason) return t.skip(reason);
    const w = world(srun);
    respond(bashThenDone("echo job=$SLURM_JOB_ID"));
    const tasks = Array.from({ length: 8 }, (_, i) => ["--task", `t${i}=report your job`]).flat();
    const r = await runXcsh(["run", "quick_task", "--json", ...tasks], {
      cwd: w.cwd,
      home: w.home,
      env: cluster!.env,
      killAfterMs: 120_000,
    });
    assert.equal(r.code, 0, r.stderr + r.stdout);
    const results = JSON.parse(r.stdout).results;
    const jobs = results.map((x: { text: string }) => /job=(\d+)/.exec(x.text)?.[1]);
    assert.equal(jobs.filter(Boolean).length, 8, JSON.stringify(results));
    assert.equal(new Set(jobs).size, 8, `distinct jobs: ${jobs}`);
    assert.deepEqual(await untilNoJobs(), []);
  });

  async function untilJobs(n: number): Promise<string[]> {
    const until = Date.now() + 30_000;
    while (Date.now() < until) {
      const jobs = cluster!.jobs();
      if (jobs.length >= n) return jobs;
      await new Promise((r) => setTimeout(r, 200));
    }
    return cluster!.jobs();
  }

  async function untilNoJobs(): Promise<string[]> {
    const until = Date.now() + 15_000;
    while (Date.now() < until && cluster!.jobs().length > 0) {
      await new Promise((r) => setTimeout(r, 200));
    }
    return cluster!.jobs();
  }

  test("SIGTERM of xcsh run ends its jobs: squeue is empty again", async (t) => {
    if (reason) return t.skip(reason);
    const w = world(srun);
    respond(bashThenDone("sleep 300"));
    const child = spawn(XCSH, ["run", "quick_task", "--task", "a=wait", "--task", "b=wait"], {
      cwd: w.cwd,
      env: cleanEnv(w.home, cluster!.env),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    const exited = new Promise<number | null>((r) => child.on("close", (code) => r(code)));
    assert.equal((await untilJobs(2)).length, 2, "both tasks became jobs");
    // process.kill, not ChildProcess.kill: Deno then reports the real exit code.
    process.kill(child.pid!, "SIGTERM");
    assert.equal(await exited, 1, stdout);
    assert.deepEqual(await untilNoJobs(), [], "no job left in squeue");
  });

  test("a job the engine cancels fails its task with the engine's reason; the other goes on", async (t) => {
    if (reason) return t.skip(reason);
    const w = world(srun);
    respond((req) =>
      isAfterTool(req) ? { text: `saw: ${toolResults(req)}` } : {
        toolCalls: [{
          name: "bash",
          args: {
            command: JSON.stringify(req.body).includes("victim")
              ? "sleep 300"
              : "sleep 2; echo fine",
          },
        }],
      }
    );
    server.requests.length = 0;
    const run = runXcsh(
      ["run", "quick_task", "--json", "--task", "victim=victim", "--task", "other=other"],
      { cwd: w.cwd, home: w.home, env: cluster!.env, killAfterMs: 120_000 },
    );
    const jobs = await untilJobs(2);
    // Cancelled while it runs: once its child has asked the model (a job can
    // be in squeue before its child has even started).
    const until = Date.now() + 60_000;
    while (
      !server.requests.some((r) => JSON.stringify(r.body).includes("victim")) &&
      Date.now() < until
    ) {
      await new Promise((r) => setTimeout(r, 25));
    }
    const names = cluster!.client("squeue", ["-h", "-o", "%i %j"]).stdout;
    const victim = /^(\d+) xcsh-quick-task-victim$/m.exec(names)?.[1];
    assert.ok(victim, `victim job in: ${names} (${jobs})`);
    cluster!.client("scancel", [victim]);
    const r = await run;
    assert.equal(r.code, 1, r.stderr);
    const results = JSON.parse(r.stdout).results;
    const v = results.find((x: { id: string }) => x.id === "victim");
    const o = results.find((x: { id: string }) => x.id === "other");
    assert.equal(v.status, "error");
    assert.match(
      v.error,
      /\(launcher 'task\.launcher' \(srun\) exited with code \d+: .*STEP \S+ ON \S+ CANCELLED AT/,
    );
    assert.equal(o.status, "ok", JSON.stringify(o));
    assert.deepEqual(await untilNoJobs(), []);
  });
});
