// End-to-end tests of sessions, resume and background runs through the built
// binary: the session file and its permissions, `xcsh logs`, `--resume` (the
// resumed model request holds the earlier conversation), refusals (a session
// in use, a hand-edited one, unknown ids), an unwritable data folder, and
// background runs: wait, logs, resume, cancel, and a SIGKILLed run that
// shows as died.
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { realpath } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { cleanEnv, runCommand, runXcsh, XCSH } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import type { RecordedRequest, Turn } from "../support/model-server.ts";
import {
  agentMd,
  isAfterTool,
  localConfig,
  makeWorld,
  systemPrompt,
  toolResults,
  waitForNoProcessesIn,
  type World,
} from "../support/world.ts";

const harness = modelHarness({ respond: () => ({ text: "unexpected request" }) });
const { server, respond, world } = harness;

function script(turns: Turn[], fallback?: (req: RecordedRequest, index: number) => Turn): void {
  server.script(turns);
  server.requests.length = 0;
  respond(fallback ?? (() => ({ text: "unexpected request" })));
}

function sessionsDir(w: World): string {
  return join(w.home, ".local", "share", "xcsh", "sessions");
}

// deno-lint-ignore no-explicit-any
type Any = any;

/** Every message's text of an OpenAI-format request, in order. */
function conversation(req: RecordedRequest): string {
  return JSON.stringify((req.body.messages ?? []).filter((m: Any) => m.role !== "system"));
}

async function until(what: string, check: () => boolean | Promise<boolean>, maxMs = 20_000) {
  const end = Date.now() + maxMs;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`timed out waiting for ${what}`);
}

describe("sessions", () => {
  test("a run keeps its conversation; logs shows it; --resume continues it", async () => {
    const w = world();
    script([
      { toolCalls: [{ name: "read", args: { path: "README.md" } }] },
      { text: "The project is a demo, codeword PELICAN." },
    ]);
    const first = await runXcsh(["run", "quick_task", "--json", "What is this project?"], {
      cwd: w.cwd,
      home: w.home,
    });
    assert.equal(first.code, 0, first.stderr);
    const firstModel = server.requests[0].body.model;
    const result = JSON.parse(first.stdout).results[0];
    assert.match(result.session, /^\d{8}-\d{6}-[0-9a-f]{6}$/);
    const id: string = result.session;

    const file = join(sessionsDir(w), `${id}.jsonl`);
    assert.equal(statSync(sessionsDir(w)).mode & 0o777, 0o700);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const records = readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    assert.equal(records[0].type, "session");
    assert.equal(records[0].agent, "quick_task");
    assert.equal(records[0].envelope.config, undefined, "the config is not copied");
    assert.equal(records[0].envelope.keys, undefined, "provider keys are not copied");
    const start = records.find((r) => r.type === "event" && r.event.type === "start");
    assert.equal(start.event.session, id, "the start event names the session");
    assert.ok(records.filter((r) => r.type === "message").length >= 4);
    assert.equal(records.at(-1).type, "result");
    assert.ok(!readdirSync(sessionsDir(w)).some((n) => n.endsWith(".lock")), "lock released");

    const logs = await runXcsh(["logs", id], { cwd: w.cwd, home: w.home });
    assert.equal(logs.code, 0, logs.stderr);
    assert.match(logs.stdout, /## assignment\n {2}What is this project\?/);
    assert.match(logs.stdout, /^- read \{"path":"README.md"\}$/m);
    assert.match(logs.stdout, /^ {2}✓ read: /m);
    assert.match(logs.stdout, /## result: ok\n {2}The project is a demo, codeword PELICAN\./);
    const logsJson = await runXcsh(["logs", id, "--json"], { cwd: w.cwd, home: w.home });
    assert.equal(logsJson.stdout.trim().split("\n").length, records.length);

    script([{ text: "It was PELICAN." }]);
    const resumed = await runXcsh(["run", "--resume", id, "--json", "Repeat the codeword."], {
      cwd: w.root,
      home: w.home,
    });
    assert.equal(resumed.code, 0, resumed.stderr);
    const again = JSON.parse(resumed.stdout).results[0];
    assert.equal(again.session, id);
    assert.equal(again.agent, "quick_task");
    const req = server.requests[0];
    const seen = conversation(req);
    assert.match(seen, /What is this project\?/, "the first assignment is in the resumed request");
    assert.match(seen, /codeword PELICAN/, "the earlier answer is in the resumed request");
    assert.match(seen, /# demo project/, "the earlier tool result is in the resumed request");
    assert.match(seen, /Repeat the codeword\.[^]*$/);
    assert.equal(req.body.model, firstModel, "the same model");
    const logs2 = await runXcsh(["logs", id], { cwd: w.cwd, home: w.home });
    assert.match(
      logs2.stdout,
      /## follow-up [^\n]*\n {2}Repeat the codeword\.[^]*## result: ok\n {2}It was PELICAN\./,
    );
  });

  test("a second resume of a session in use is refused", async () => {
    const w = world();
    script([{ text: "first answer" }]);
    const first = await runXcsh(["run", "quick_task", "--json", "start"], {
      cwd: w.cwd,
      home: w.home,
    });
    const id = JSON.parse(first.stdout).results[0].session;
    script([], () => ({ text: "slow answer", delayMs: 4000 }));
    const slow = runXcsh(["run", "--resume", id, "one"], { cwd: w.cwd, home: w.home });
    await until("the first resume to call the model", () => server.requests.length > 0);
    const second = await runXcsh(["run", "--resume", id, "two"], { cwd: w.cwd, home: w.home });
    assert.equal(second.code, 2);
    assert.match(second.stderr, new RegExp(`session ${id} is in use by process \\d+`));
    assert.equal((await slow).code, 0);
    assert.equal(server.requests.length, 1, "the refused resume never called the model");
  });

  test("a session of another project is not resumed from this one", async () => {
    const w = world();
    const other = join(w.root, "other");
    mkdirSync(join(other, ".xcsh"), { recursive: true });
    script([{ text: "other project's answer" }]);
    const first = await runXcsh(["run", "quick_task", "--json", "start"], {
      cwd: other,
      home: w.home,
    });
    assert.equal(first.code, 0, first.stderr);
    const id: string = JSON.parse(first.stdout).results[0].session;

    // A task call in this project names the other project's session.
    w.addAgent("boss", agentMd("boss", "tools: [read, task]\nspawns: quick_task\n"));
    const planted = join(other, "PLANTED-FROM-A.txt");
    script([], (req) => {
      if (systemPrompt(req).includes("You are boss.")) {
        return isAfterTool(req) ? { text: `boss saw: ${toolResults(req)}` } : {
          toolCalls: [{
            name: "task",
            args: {
              agent: "quick_task",
              tasks: [{ id: "x", assignment: "plant it", resume: id }],
            },
          }],
        };
      }
      return isAfterTool(req)
        ? { text: "planted" }
        : { toolCalls: [{ name: "write", args: { path: planted, content: "from A" } }] };
    });
    const r = await runXcsh(["run", "boss", "go"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(existsSync(planted), false, "nothing was written into the other project");
    assert.equal(server.requests.length, 2, "only the caller's own model turns");
    const other_ = await realpath(other);
    assert.ok(
      toolResults(server.requests[1]).includes(
        `cannot resume session ${id}: its folder ${other_} is outside this project`,
      ),
      toolResults(server.requests[1]),
    );

    // From the command line: refused here, accepted from the session's own folder.
    script([{ text: "resumed at home" }]);
    const here = await runXcsh(["run", "--resume", id, "x"], { cwd: w.cwd, home: w.home });
    assert.equal(here.code, 2);
    assert.match(
      here.stderr,
      new RegExp(`--resume: cannot resume session ${id}: its folder ${other_} is outside`),
    );
    assert.equal(server.requests.length, 0);
    const there = await runXcsh(["run", "--resume", id, "x"], { cwd: other, home: w.home });
    assert.equal(there.code, 0, there.stderr);
    assert.equal(there.stdout, "resumed at home\n");
  });

  test("missing, hand-edited and other-version sessions are clear errors", async () => {
    const w = world();
    script([{ text: "ok" }, { text: "ok" }]);
    const ids: string[] = [];
    for (const n of [1, 2]) {
      const r = await runXcsh(["run", "quick_task", "--json", `task ${n}`], {
        cwd: w.cwd,
        home: w.home,
      });
      ids.push(JSON.parse(r.stdout).results[0].session);
    }
    const missing = await runXcsh(["run", "--resume", "20990101-000000-abcdef", "x"], {
      cwd: w.cwd,
      home: w.home,
    });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /no session '20990101-000000-abcdef'/);

    appendFileSync(join(sessionsDir(w), `${ids[0]}.jsonl`), "{ edited by hand\n");
    const corrupt = await runXcsh(["run", "--resume", ids[0], "x"], { cwd: w.cwd, home: w.home });
    assert.equal(corrupt.code, 2);
    assert.match(
      corrupt.stderr,
      new RegExp(`session ${ids[0]} is corrupt: .*line \\d+ is not JSON`),
    );
    assert.doesNotMatch(corrupt.stderr, /\n\s+at /, "no stack trace");

    const file = join(sessionsDir(w), `${ids[1]}.jsonl`);
    const lines = readFileSync(file, "utf8").split("\n");
    lines[0] = lines[0].replace('"version":1', '"version":7');
    writeFileSync(file, lines.join("\n"));
    const other = await runXcsh(["run", "--resume", ids[1], "x"], { cwd: w.cwd, home: w.home });
    assert.equal(other.code, 2);
    assert.match(other.stderr, /written by another version of xcsh \(session format 7/);
    assert.equal(server.requests.length, 2, "no child started for a refused resume");
  });

  test("a session file cut off mid-line (a full disk): logs and --resume keep what is whole", async () => {
    const w = world();
    script([{ text: "answer before the disk filled" }]);
    const first = await runXcsh(["run", "quick_task", "--json", "start"], {
      cwd: w.cwd,
      home: w.home,
    });
    const id: string = JSON.parse(first.stdout).results[0].session;
    const file = join(sessionsDir(w), `${id}.jsonl`);
    const whole = readFileSync(file, "utf8").split("\n").length - 1;
    appendFileSync(file, '{"type":"event","event":{"type":"tool_st');
    const cut = `${file} line ${whole + 1} was cut off (an interrupted write)`;

    const logs = await runXcsh(["logs", id], { cwd: w.cwd, home: w.home });
    assert.equal(logs.code, 0, logs.stderr);
    assert.match(logs.stdout, /## result: ok\n {2}answer before the disk filled/);
    assert.ok(logs.stderr.includes(`xcsh: note: session ${id}: ${cut}`), logs.stderr);
    const json = await runXcsh(["logs", id, "--json"], { cwd: w.cwd, home: w.home });
    assert.equal(json.stdout.trim().split("\n").length, whole);

    script([{ text: "resumed after the cut" }]);
    const resumed = await runXcsh(["run", "--resume", id, "go on"], { cwd: w.cwd, home: w.home });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(resumed.stdout, "resumed after the cut\n");
    assert.ok(resumed.stderr.includes(cut), resumed.stderr);
    assert.match(conversation(server.requests[0]), /answer before the disk filled/);
    // The follow-up starts on a line of its own: the file reads clean again.
    const after = await runXcsh(["logs", id], { cwd: w.cwd, home: w.home });
    assert.equal(after.code, 0, after.stderr);
    assert.equal(after.stderr, "");
    assert.match(after.stdout, /## follow-up [^\n]*\n {2}go on[^]*resumed after the cut/);

    // A broken line before the end is damage, not a cut: an error naming the line.
    const kept = readFileSync(file, "utf8").split("\n");
    writeFileSync(file, [kept[0], "{ broken", ...kept.slice(1)].join("\n"));
    const damaged = await runXcsh(["logs", id], { cwd: w.cwd, home: w.home });
    assert.equal(damaged.code, 1);
    assert.match(damaged.stdout, new RegExp(`^session ${id} · agent quick_task`));
    assert.match(damaged.stderr, new RegExp(`session ${id} is corrupt: .*line 2 is not JSON`));
    const refused = await runXcsh(["run", "--resume", id, "x"], { cwd: w.cwd, home: w.home });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /line 2 is not JSON/);
  });

  describe("a huge session file is read in bounded memory", {
    skip: existsSync("/usr/bin/time") ? false : "needs GNU time at /usr/bin/time to measure RSS",
  }, () => {
    /** Runs xcsh under GNU time: the result and the peak RSS in MiB. */
    async function measured(args: string[], w: World) {
      const r = await runCommand("/usr/bin/time", ["-f", "RSS %M", XCSH, ...args], {
        cwd: w.cwd,
        env: cleanEnv(w.home),
        killAfterMs: 120_000,
      });
      const m = /RSS (\d+)\s*$/.exec(r.stderr);
      assert.ok(m, r.stderr);
      return { ...r, stderr: r.stderr.slice(0, m.index), rssMiB: Number(m[1]) / 1024 };
    }

    async function session(w: World): Promise<{ id: string; file: string }> {
      script([{ text: "small answer" }]);
      const first = await runXcsh(["run", "quick_task", "--json", "start"], {
        cwd: w.cwd,
        home: w.home,
      });
      const id: string = JSON.parse(first.stdout).results[0].session;
      return { id, file: join(sessionsDir(w), `${id}.jsonl`) };
    }

    test("3 GiB of nothing (a sparse file): a clear error naming the file, line and cap", async () => {
      const w = world();
      const { id, file } = await session(w);
      const lines = readFileSync(file, "utf8").split("\n").length - 1;
      truncateSync(file, statSync(file).size + 3 * 2 ** 30);
      const base = await measured(["logs", "--help"], w);
      for (const args of [["logs", id], ["run", "--resume", id, "go on"]]) {
        const r = await measured(args, w);
        assert.notEqual(r.code, 0, args.join(" "));
        assert.ok(
          r.stderr.includes(
            `session ${id} is corrupt: ${file} line ${lines + 1} is longer than 64 MiB, ` +
              "the most one record may be",
          ),
          r.stderr,
        );
        assert.ok(
          r.rssMiB < base.rssMiB + 200,
          `${args[0]}: ${r.rssMiB.toFixed(0)} MiB (help: ${base.rssMiB.toFixed(0)} MiB)`,
        );
      }
    });

    test("a real 256 MiB session: logs and --resume stream it", async () => {
      const w = world();
      const { id, file } = await session(w);
      const delta = "x".repeat(64 * 1024);
      const block = Array.from(
        { length: 64 },
        () => JSON.stringify({ type: "event", event: { type: "text", id: "t", delta } }),
      ).join("\n") + "\n";
      for (let i = 0; i < 64; i++) appendFileSync(file, block);
      assert.ok(statSync(file).size > 256 * 2 ** 20);
      const base = await measured(["logs", "--help"], w);
      const logs = await measured(["logs", id], w);
      assert.equal(logs.code, 0, logs.stderr);
      assert.match(logs.stdout, /## result: ok\n {2}small answer/);
      script([{ text: "continued" }]);
      const resumed = await measured(["run", "--resume", id, "go on"], w);
      assert.equal(resumed.code, 0, resumed.stderr);
      assert.equal(resumed.stdout, "continued\n");
      for (const [what, r] of [["logs", logs], ["--resume", resumed]] as const) {
        assert.ok(
          r.rssMiB < base.rssMiB + 128,
          `${what}: ${r.rssMiB.toFixed(0)} MiB for a 256 MiB file (help: ${
            base.rssMiB.toFixed(0)
          } MiB)`,
        );
      }
    });
  });

  test("an unwritable data folder: the task still runs, with one warning", async () => {
    const w = world();
    writeFileSync(join(w.root, "not-a-folder"), "");
    script([], () => ({ text: "done anyway" }));
    const r = await runXcsh(["run", "quick_task", "--json", "--task", "a=one", "--task", "b=two"], {
      cwd: w.cwd,
      home: w.home,
      env: { XCSH_DATA_DIR: join(w.root, "not-a-folder", "data") },
    });
    assert.equal(r.code, 0, r.stderr);
    const results = JSON.parse(r.stdout).results;
    assert.deepEqual(results.map((x: Any) => x.status), ["ok", "ok"]);
    assert.ok(results.every((x: Any) => x.session === undefined));
    const warnings = r.stderr.split("\n").filter((l) => /warning: sessions are not kept/.test(l));
    assert.equal(warnings.length, 1, r.stderr);
    assert.match(warnings[0], /not-a-folder/);
  });

  test("secret values never reach the session file", async () => {
    const w = world();
    const secret = "tok-6f1d0c7e9b2a4d58";
    script([{ text: `I saw ${secret} in the assignment` }]);
    const r = await runXcsh(["run", "quick_task", "--json", `Remember ${secret}.`], {
      cwd: w.cwd,
      home: w.home,
      env: { DEPLOY_TOKEN: secret, OPENAI_API_KEY: "sk-test-7c1f33d0a9e2" },
    });
    assert.equal(r.code, 0, r.stderr);
    const id = JSON.parse(r.stdout).results[0].session;
    const text = readFileSync(join(sessionsDir(w), `${id}.jsonl`), "utf8");
    assert.ok(!text.includes(secret), "the token is redacted everywhere");
    assert.ok(!text.includes("sk-test-7c1f33d0a9e2"), "provider keys are not kept");
    assert.equal(JSON.parse(text.split("\n")[0]).envelope.keys, undefined);
    assert.match(text, /Remember \[redacted\]\./);
  });

  test("sessions older than task.sessionRetentionDays are pruned", async () => {
    const w = makeWorld(localConfig(server.url, "task: { sessionRetentionDays: 2 }\n"));
    harness.keep(w);
    mkdirSync(sessionsDir(w), { recursive: true });
    const days = (n: number) => new Date(Date.now() - n * 86_400_000);
    for (
      const [id, age] of [["20200101-000000-aaaaaa", 3], ["20200101-000000-bbbbbb", 1]] as const
    ) {
      const f = join(sessionsDir(w), `${id}.jsonl`);
      writeFileSync(f, "{}\n");
      utimesSync(f, days(age), days(age));
    }
    script([{ text: "ok" }]);
    const r = await runXcsh(["run", "quick_task", "x"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    const left = readdirSync(sessionsDir(w)).filter((n) => n.endsWith(".jsonl")).sort();
    assert.equal(left.length, 2, left.join(", "));
    assert.equal(left[0], "20200101-000000-bbbbbb.jsonl", "the 1-day-old session is kept");
  });

  test("task.sessionRetentionDays must be a positive integer", async () => {
    const w = makeWorld(localConfig(server.url, "task: { sessionRetentionDays: 0 }\n"));
    harness.keep(w);
    const r = await runXcsh(["run", "quick_task", "x"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /task\.sessionRetentionDays' must be a positive integer \(days\), got 0/,
    );
  });
});

describe("background runs", () => {
  test("run --background → wait → logs → --resume", async () => {
    const w = world();
    script([{ text: "background says ALBATROSS" }]);
    const started = await runXcsh(["run", "--background", "quick_task", "Name a bird."], {
      cwd: w.cwd,
      home: w.home,
    });
    assert.equal(started.code, 0, started.stderr);
    const id = started.stdout.trim();
    assert.match(id, /^\d{8}-\d{6}-[0-9a-f]{6}$/);

    const waited = await runXcsh(["wait", id, "--json"], { cwd: w.cwd, home: w.home });
    assert.equal(waited.code, 0, waited.stderr);
    const result = JSON.parse(waited.stdout).results[0];
    assert.equal(result.text, "background says ALBATROSS");
    const text = await runXcsh(["wait", id], { cwd: w.cwd, home: w.home });
    assert.equal(text.stdout, "background says ALBATROSS\n");

    const tasks = await runXcsh(["tasks", "--json"], { cwd: w.cwd, home: w.home });
    const run = JSON.parse(tasks.stdout).runs.find((r: Any) => r.id === id);
    assert.equal(run.status, "ok");
    assert.equal(run.agent, "quick_task");
    assert.deepEqual(run.sessions, [result.session]);
    const header = JSON.parse(
      readFileSync(join(sessionsDir(w), `${result.session}.jsonl`), "utf8").split("\n")[0],
    );
    assert.equal(header.run, id, "the session names its background run");
    const table = await runXcsh(["tasks"], { cwd: w.cwd, home: w.home });
    assert.match(table.stdout, new RegExp(`^${id}\\s+quick_task\\s+ok\\s+`, "m"));

    const logs = await runXcsh(["logs", id, "-f"], { cwd: w.cwd, home: w.home });
    assert.equal(logs.code, 0, logs.stderr);
    assert.match(
      logs.stdout,
      /## assignment\n {2}Name a bird\.[^]*## result: ok\n {2}background says ALBATROSS/,
    );

    script([{ text: "still ALBATROSS" }]);
    const resumed = await runXcsh(["run", "--resume", result.session, "Which bird?"], {
      cwd: w.cwd,
      home: w.home,
    });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(resumed.stdout, "still ALBATROSS\n");
    const seen = conversation(server.requests[0]);
    assert.match(seen, /Name a bird\.[^]*background says ALBATROSS[^]*Which bird\?/);

    // A resume can run in the background too; the run learns its agent from the session.
    script([{ text: "third time" }]);
    const again = (await runXcsh(["run", "--background", "--resume", result.session, "Again?"], {
      cwd: w.cwd,
      home: w.home,
    })).stdout.trim();
    const third = await runXcsh(["wait", again], { cwd: w.cwd, home: w.home });
    assert.equal(third.stdout, "third time\n", third.stderr);
    const runs =
      JSON.parse((await runXcsh(["tasks", "--json"], { cwd: w.cwd, home: w.home })).stdout).runs;
    assert.equal(runs.find((r: Any) => r.id === again).agent, "quick_task");
    assert.match(conversation(server.requests[0]), /Which bird\?[^]*still ALBATROSS[^]*Again\?/);
  });

  test("a SIGKILLed background run shows as died; cancel ends a run's tree", async () => {
    const w = world();
    script([], () => ({ fault: "stall" }));
    const killed =
      (await runXcsh(["run", "--background", "quick_task", "hang"], { cwd: w.cwd, home: w.home }))
        .stdout.trim();
    const cancelled = (await runXcsh(["run", "--background", "quick_task", "hang too"], {
      cwd: w.cwd,
      home: w.home,
    })).stdout.trim();
    await until("both runs to reach the model", () => server.requests.length >= 2);
    const list = async () =>
      JSON.parse((await runXcsh(["tasks", "--json"], { cwd: w.cwd, home: w.home })).stdout).runs;
    const before = await list();
    assert.deepEqual(before.map((r: Any) => r.status), ["running", "running"]);
    for (const r of before) {
      // Detached: the run leads a session of its own, apart from the terminal's.
      const stat = readFileSync(`/proc/${r.pid}/stat`, "utf8");
      const sid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[3]);
      assert.equal(sid, r.pid, "the background run is a session leader");
    }

    process.kill(before.find((r: Any) => r.id === killed).pid, "SIGKILL");
    await until(
      "the killed run to show as died",
      async () => (await list()).find((r: Any) => r.id === killed).status === "died",
    );
    const waitDied = await runXcsh(["wait", killed], { cwd: w.cwd, home: w.home });
    assert.equal(waitDied.code, 1);
    assert.match(waitDied.stderr, new RegExp(`run ${killed} died`));

    const c = await runXcsh(["cancel", cancelled], { cwd: w.cwd, home: w.home });
    assert.equal(c.code, 0, c.stderr);
    assert.equal((await list()).find((r: Any) => r.id === cancelled).status, "cancelled");
    const waitCancelled = await runXcsh(["wait", cancelled, "--json"], {
      cwd: w.cwd,
      home: w.home,
    });
    assert.equal(waitCancelled.code, 1);
    assert.equal(JSON.parse(waitCancelled.stdout).results[0].status, "cancelled");
    assert.deepEqual(await waitForNoProcessesIn(w.cwd), [], "no process of either run is left");
  });

  test("logs -f follows a run from its start to its result", async () => {
    const w = world();
    script([
      { toolCalls: [{ name: "read", args: { path: "README.md" } }], delayMs: 500 },
      { text: "followed to the end", delayMs: 1000 },
    ]);
    const id = (await runXcsh(["run", "--background", "quick_task", "Read it slowly."], {
      cwd: w.cwd,
      home: w.home,
    })).stdout.trim();
    const followed = await runXcsh(["logs", id, "-f"], { cwd: w.cwd, home: w.home });
    assert.equal(followed.code, 0, followed.stderr);
    assert.match(
      followed.stdout,
      /## assignment\n {2}Read it slowly\.[^]*- read \{"path":"README.md"\}\n {2}✓ read: [^]*## result: ok\n {2}followed to the end\n$/,
    );
    assert.equal((await runXcsh(["wait", id], { cwd: w.cwd, home: w.home })).code, 0);
  });

  test("wait, cancel and logs of an unknown id: exit 2 naming it", async () => {
    const w = world();
    for (const cmd of ["wait", "cancel", "logs"]) {
      const r = await runXcsh([cmd, "nosuchrun"], { cwd: w.cwd, home: w.home });
      assert.equal(r.code, 2, `${cmd}: ${r.stderr}`);
      assert.match(r.stderr, /'nosuchrun'/);
    }
  });
});
