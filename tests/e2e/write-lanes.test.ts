// End to end: write lanes. A task with `--writes 'src/**'` writes in src/
// and nowhere else: `write` and `edit` refuse other paths, and a sandboxed
// command finds the rest of the project read-only (skipped without bwrap).
// Tasks of one call whose lanes overlap run one after the other (the model
// server's peak of requests in flight stays 1); disjoint lanes run together
// (their requests are held until both are in flight). `--dry-run` shows the
// lanes and the order; a bad lane is one line, before any child starts.
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import process from "node:process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runXcsh } from "../support/cli.ts";
import { outsideFolder } from "../support/outside-folder.ts";
import { modelHarness } from "../support/harness.ts";
import type { Turn } from "../support/model-server.ts";
import { agentMd, isAfterTool, offeredTools, toolResults, type World } from "../support/world.ts";
import { bwrapLocations, sandboxSupport } from "../../src/sandbox/probe.ts";

const linux = process.platform === "linux" ? false : "needs Linux";
const support = sandboxSupport(bwrapLocations(process.env), true);
const needsBwrap = linux || (support.ok ? false : `bwrap unavailable: ${support.reason}`);

const { server, world, respond, scratch } = modelHarness({ respond: () => ({ text: "done" }) });

const call = (name: string, args: Record<string, unknown>) => ({ name, args });

const WRITER = agentMd("writer", "tools: Read, Write, Edit, Bash\n");

function project(): World {
  const w = world({ agents: { writer: WRITER } });
  mkdirSync(join(w.cwd, "src", "api"), { recursive: true });
  mkdirSync(join(w.cwd, "docs"), { recursive: true });
  writeFileSync(join(w.cwd, "docs", "guide.md"), "# guide\n");
  return w;
}

/** Runs `args` with the model making `turns` (one tool-call turn each), then "done". */
async function runTurns(w: World, args: string[], turns: Turn[], env = {}) {
  server.script([...turns, { text: "done" }]);
  server.requests.length = 0;
  const r = await runXcsh(["run", "writer", ...args], { cwd: w.cwd, home: w.home, env });
  // Each request holds the results so far: keep each one's new part.
  const all = server.requests.slice(1).map((req) => toolResults(req));
  const results = all.map((t, i) => i === 0 ? t : t.slice(all[i - 1].length));
  return { r, results };
}

describe("the file tools keep to the lane", () => {
  test("write to docs/x.md is refused, to src/a.ts works; edit outside too", async () => {
    const w = project();
    const { r, results } = await runTurns(w, ["--writes", "src/**", "go"], [
      { toolCalls: [call("write", { path: "docs/x.md", content: "no\n" })] },
      { toolCalls: [call("write", { path: "src/a.ts", content: "export {};\n" })] },
      {
        toolCalls: [
          call("edit", { path: "docs/guide.md", old_string: "guide", new_string: "GUIDE" }),
        ],
      },
      { toolCalls: [call("write", { path: join(w.cwd, "README.md"), content: "x\n" })] },
    ], { XCSH_NO_BWRAP: "1" });
    assert.equal(r.code, 0, r.stderr);
    assert.match(results[0], /docs\/x\.md is outside this task's write lane \(src\/\*\*\)/);
    assert.equal(existsSync(join(w.cwd, "docs", "x.md")), false);
    assert.match(results[1], /^\s*Created src\/a\.ts/);
    assert.equal(readFileSync(join(w.cwd, "src", "a.ts"), "utf8"), "export {};\n");
    assert.match(results[2], /outside this task's write lane/);
    assert.equal(readFileSync(join(w.cwd, "docs", "guide.md"), "utf8"), "# guide\n");
    assert.match(results[3], /outside this task's write lane/);
    assert.equal(readFileSync(join(w.cwd, "README.md"), "utf8"), "# demo project\n");
  });

  test("the agent file's writes: is the lane when the call gives none", async () => {
    const w = project();
    w.addAgent("writer", agentMd("writer", "tools: Read, Write\nwrites: [docs/**]\n"));
    const { r, results } = await runTurns(w, ["go"], [
      { toolCalls: [call("write", { path: "src/a.ts", content: "x\n" })] },
      { toolCalls: [call("write", { path: "docs/new.md", content: "ok\n" })] },
    ], { XCSH_NO_BWRAP: "1" });
    assert.equal(r.code, 0, r.stderr);
    assert.match(results[0], /src\/a\.ts is outside this task's write lane \(docs\/\*\*\)/);
    assert.equal(existsSync(join(w.cwd, "src", "a.ts")), false);
    assert.equal(readFileSync(join(w.cwd, "docs", "new.md"), "utf8"), "ok\n");
  });
});

describe("a resumed task keeps its session's lane", () => {
  test("the follow-up writes only where the first run could, unless the call gives a lane", async () => {
    const w = project();
    const first = await runTurns(w, ["--writes", "src/**", "--json", "go"], [
      { toolCalls: [call("write", { path: "src/a.ts", content: "a\n" })] },
    ], { XCSH_NO_BWRAP: "1" });
    assert.equal(first.r.code, 0, first.r.stderr);
    const session = JSON.parse(first.r.stdout).results[0].session;
    assert.ok(session, first.r.stdout);
    const resume = async (extra: string[]) => {
      server.script([
        { toolCalls: [call("write", { path: "docs/late.md", content: "late\n" })] },
        { text: "done" },
      ]);
      server.requests.length = 0;
      const r = await runXcsh(["run", "--resume", session, ...extra, "write the doc"], {
        cwd: w.cwd,
        home: w.home,
        env: { XCSH_NO_BWRAP: "1" },
      });
      assert.equal(r.code, 0, r.stderr);
      // The follow-up's own tool result: the last of the conversation's.
      const tools = (server.requests[1].body.messages as { role: string; content: unknown }[])
        .filter((m) => m.role === "tool");
      return JSON.stringify(tools.at(-1)?.content);
    };
    assert.match(
      await resume([]),
      /docs\/late\.md is outside this task's write lane \(src\/\*\*\)/,
    );
    assert.equal(existsSync(join(w.cwd, "docs", "late.md")), false);
    // The follow-up's own lane wins over the stored one.
    assert.doesNotMatch(await resume(["--writes", "docs/**"]), /outside this task's write lane/);
    assert.equal(readFileSync(join(w.cwd, "docs", "late.md"), "utf8"), "late\n");
  });
});

describe("a sandboxed command keeps to the lane", { skip: needsBwrap }, () => {
  test("echo > docs/x fails, src/ is writable", async () => {
    const w = project();
    const { r, results } = await runTurns(w, [
      "--writes",
      "src/**",
      "--sandbox",
      "workspace-write",
      "go",
    ], [
      { toolCalls: [call("bash", { command: "echo no > docs/x; echo status=$?" })] },
      { toolCalls: [call("bash", { command: "echo yes > src/b.ts; echo status=$?" })] },
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(results[0], /Read-only file system/);
    assert.match(results[0], /status=1/);
    assert.equal(existsSync(join(w.cwd, "docs", "x")), false);
    assert.match(results[1], /status=0/);
    assert.equal(readFileSync(join(w.cwd, "src", "b.ts"), "utf8"), "yes\n");
  });
});

describe("a lane reached through a symlink", { skip: needsBwrap }, () => {
  test("a lane folder that is a link out of the project is not bound writable", async () => {
    const w = project();
    const out = scratch(outsideFolder());
    symlinkSync(out, join(w.cwd, "out"));
    const { r, results } = await runTurns(w, [
      "--writes",
      "out/**",
      "--sandbox",
      "workspace-write",
      "go",
    ], [
      { toolCalls: [call("bash", { command: "echo x > out/f; echo status=$?" })] },
      { toolCalls: [call("write", { path: "out/g", content: "x\n" })] },
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(results[0], /status=[1-9]/);
    assert.equal(existsSync(join(out, "f")), false);
    assert.match(results[1], /outside/);
    assert.equal(existsSync(join(out, "g")), false);
  });
});

describe("tasks of one call and their lanes", () => {
  const tasks = (lanes: [string, string]) => [
    "--task",
    "a=first",
    "--task",
    "b=second",
    "--writes",
    `a=${lanes[0]}`,
    "--writes",
    `b=${lanes[1]}`,
  ];

  test("overlapping lanes run one after the other", async () => {
    const w = project();
    server.script([]);
    server.requests.length = 0;
    server.resetPeak();
    respond(() => ({ text: "done", delayMs: 300 }));
    const r = await runXcsh(["run", "writer", ...tasks(["src/**", "src/api/**"])], {
      cwd: w.cwd,
      home: w.home,
    });
    respond(() => ({ text: "done" }));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(server.requests.length, 2);
    assert.equal(server.peakInFlight(), 1);
  });

  test("disjoint lanes run together", async () => {
    const w = project();
    server.script([]);
    server.requests.length = 0;
    server.resetPeak();
    // Each answer is held until both requests are in flight (at most 10 s).
    respond(() => ({ text: "done", holdTogether: 2 }));
    const r = await runXcsh(["run", "writer", ...tasks(["src/**", "docs/**"])], {
      cwd: w.cwd,
      home: w.home,
    });
    respond(() => ({ text: "done" }));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(server.peakInFlight(), 2);
  });

  test("--dry-run shows the lanes and which task waits for which", async () => {
    const w = project();
    server.requests.length = 0;
    const r = await runXcsh(
      [
        "run",
        "writer",
        "--dry-run",
        "--task",
        "a=x",
        "--task",
        "b=y",
        "--task",
        "c=z",
        "--task",
        "d=w",
        "--writes",
        "a=src/**",
        "--writes",
        "b=docs/**",
        "--writes",
        "c=src/api/**",
      ],
      { cwd: w.cwd, home: w.home },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(server.requests.length, 0);
    assert.match(r.stderr, /^xcsh: dry run: \[a\] writes src\/\*\*$/m);
    assert.match(r.stderr, /^xcsh: dry run: \[b\] writes docs\/\*\*$/m);
    assert.match(
      r.stderr,
      /^xcsh: dry run: \[c\] writes src\/api\/\*\*; runs after a \(overlapping lanes\)$/m,
    );
    assert.match(r.stderr, /^xcsh: dry run: \[d\] writes anywhere in its workspace \(no lane\)$/m);
    const doc = JSON.parse(r.stdout);
    assert.deepEqual(doc.tasks.map((t: { waitsFor: string[] }) => t.waitsFor), [[], [], ["a"], []]);
    assert.deepEqual(doc.tasks[2].writes, ["src/api/**"]);
    assert.deepEqual(doc.tasks[2].envelope.writes, ["src/api/**"]);
  });
});

describe("a delegated task writes no more than its caller", () => {
  function delegating(taskArgs: Record<string, unknown>): World {
    const w = project();
    w.addAgent("boss", agentMd("boss", "tools: task\nspawns: helper\n"));
    w.addAgent("helper", agentMd("helper", "tools: write\n"));
    respond((req) => {
      const boss = offeredTools(req).includes("task");
      if (isAfterTool(req)) return { text: boss ? "all done" : "done" };
      return boss
        ? {
          toolCalls: [
            call("task", { agent: "helper", tasks: [{ id: "h", assignment: "x", ...taskArgs }] }),
          ],
        }
        : { toolCalls: [call("write", { path: "docs/x.md", content: "no\n" })] };
    });
    return w;
  }

  test("a sub-task without a lane gets its caller's", async () => {
    const w = delegating({});
    server.requests.length = 0;
    const r = await runXcsh(["run", "boss", "--writes", "src/**", "go"], {
      cwd: w.cwd,
      home: w.home,
      env: { XCSH_NO_BWRAP: "1" },
    });
    respond(() => ({ text: "done" }));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(existsSync(join(w.cwd, "docs", "x.md")), false);
    const helperEnd = server.requests.find((q) =>
      !offeredTools(q).includes("task") && isAfterTool(q)
    );
    assert.ok(helperEnd, "the helper ran its write");
    assert.match(
      toolResults(helperEnd),
      /docs\/x\.md is outside this task's write lane \(src\/\*\*\)/,
    );
  });

  test("a sub-task's lane outside its caller's is refused", async () => {
    const w = delegating({ writes: ["docs/**"] });
    server.requests.length = 0;
    const r = await runXcsh(["run", "boss", "--writes", "src/**", "go"], {
      cwd: w.cwd,
      home: w.home,
      env: { XCSH_NO_BWRAP: "1" },
    });
    respond(() => ({ text: "done" }));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(existsSync(join(w.cwd, "docs", "x.md")), false);
    // Only the boss asked the model: no helper started.
    assert.ok(server.requests.every((q) => offeredTools(q).includes("task")));
    assert.match(
      toolResults(server.requests.at(-1)!),
      /tasks\[0\]\.writes \(docs\/\*\*\) is not within this task's own write lane \(src\/\*\*\)/,
    );
  });
});

describe("bad lanes: one line, before any child starts", () => {
  const cases: [string, string[], RegExp][] = [
    [
      "a lane outside the project",
      ["--writes", "../x/**", "go"],
      /--writes: '\.\.\/x\/\*\*' leaves the project/,
    ],
    [
      "an absolute path elsewhere",
      ["--writes", "/etc/**", "go"],
      /--writes: '\/etc\/\*\*' is not relative to the project/,
    ],
    [
      "an invalid glob",
      ["--writes", "src/[z-a]", "go"],
      /--writes: 'src\/\[z-a\]' is no valid glob/,
    ],
    [
      "an unclosed brace",
      ["--writes", "src/{a,b", "go"],
      /--writes: 'src\/\{a,b' is no valid glob/,
    ],
    [
      "a task id that names no task",
      ["--task", "a=x", "--writes", "b=src/**"],
      /--writes: "b" names no task of this run \(tasks: a\)/,
    ],
    [
      "no ID= with --task",
      ["--task", "a=x", "--writes", "src/**"],
      /--writes: with --task, expected ID=GLOB/,
    ],
  ];
  for (const [what, args, message] of cases) {
    test(what, async () => {
      const w = project();
      server.requests.length = 0;
      const r = await runXcsh(["run", "writer", ...args], { cwd: w.cwd, home: w.home });
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, message);
      assert.equal(
        // A warning about a missing bubblewrap is no part of the error.
        r.stderr.trim().split("\n").filter((l) => !/^(?:Run 'xcsh|xcsh: warning:)/.test(l))
          .length,
        1,
        r.stderr,
      );
      assert.doesNotMatch(r.stderr, /\n\s+at /);
      assert.equal(server.requests.length, 0);
    });
  }

  test("an agent file's bad writes: is named by agents check, and the file does not run", async () => {
    const w = project();
    w.addAgent("wide", agentMd("wide", "writes: ../../home/**\n"));
    const check = await runXcsh(["agents", "check"], { cwd: w.cwd, home: w.home });
    assert.equal(check.code, 1, check.stderr + check.stdout);
    assert.match(
      check.stdout + check.stderr,
      /wide\.md.*writes.*'\.\.\/\.\.\/home\/\*\*' leaves the project/,
    );
    server.requests.length = 0;
    const r = await runXcsh(["run", "wide", "go"], { cwd: w.cwd, home: w.home });
    assert.notEqual(r.code, 0);
    assert.equal(server.requests.length, 0);
  });
});
