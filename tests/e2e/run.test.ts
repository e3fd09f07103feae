// End-to-end tests of `xcsh run` (the parent side): guards, the real
// self-re-execution chain, plan mode, schema precedence, parallelism,
// timeouts, cancellation and crashes — through the built binary, against the
// scripted local model server (OpenAI wire format).
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import process from "node:process";
import { runCommand, runXcsh, XCSH } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import type { RecordedRequest, Turn } from "../support/model-server.ts";
import {
  agentMd,
  assignmentOf,
  childPids,
  delegateThenStall,
  EXPLORE_SAMPLE,
  isAfterTool,
  makeWorld,
  offeredTools,
  processesIn,
  systemPrompt,
  toolResults,
  waitForNoProcessesIn,
} from "../support/world.ts";

/** The escape character that starts terminal control sequences. */
const ESC = String.fromCharCode(27);

const harness = modelHarness({ respond: () => ({ text: "unexpected request" }) });
const { server, respond } = harness;
const world = (agents: Record<string, string> = {}, extraConfig = "") =>
  harness.world({ agents, extraConfig });

/** Resets the server for one test: a fresh queue, requests and responder. */
function script(turns: Turn[], fallback?: (req: RecordedRequest, index: number) => Turn): void {
  server.script(turns);
  server.requests.length = 0;
  respond(fallback ?? (() => ({ text: "unexpected request" })));
}

describe("guards refuse before any child starts", () => {
  const cases: {
    name: string;
    args: string[];
    env?: Record<string, string>;
    config?: string;
    message: RegExp;
  }[] = [
    {
      name: "unknown agent",
      args: ["run", "nope", "do it"],
      message: /^xcsh: Unknown agent "nope"\. Available: (\S+, )+quick_task$/m,
    },
    {
      name: "spawn policy (CSV)",
      args: ["run", "plan", "do it"],
      env: { XCSH_SPAWNS: "explore,reviewer" },
      message: /^xcsh: Cannot spawn 'plan'\. Allowed: explore, reviewer$/m,
    },
    {
      name: "spawn policy (empty)",
      args: ["run", "explore", "do it"],
      env: { XCSH_SPAWNS: "" },
      message: /^xcsh: Cannot spawn 'explore'\. Allowed: none$/m,
    },
    {
      name: "recursion prevention",
      args: ["run", "explore", "do it"],
      env: { PI_BLOCKED_AGENT: "explore", XCSH_TASK_DEPTH: "1" },
      message: /^xcsh: Cannot spawn 'explore' from inside 'explore': recursion prevention/m,
    },
    {
      name: "depth limit",
      args: ["run", "explore", "do it"],
      env: { XCSH_TASK_DEPTH: "2" },
      message:
        /^xcsh: Cannot spawn 'explore': task depth limit reached \(this task is at depth 2; task\.maxRecursionDepth is 2\)\.$/m,
    },
    {
      name: "depth limit from config",
      args: ["run", "explore", "do it"],
      env: { XCSH_TASK_DEPTH: "1" },
      config: "task: { maxRecursionDepth: 1 }\n",
      message: /task depth limit reached \(this task is at depth 1; task\.maxRecursionDepth is 1\)/,
    },
    {
      name: "disabled agent",
      args: ["run", "designer", "do it"],
      config: "task: { disabledAgents: [designer] }\n",
      message: /^xcsh: Agent "designer" is disabled by task\.disabledAgents/m,
    },
    {
      name: "--model naming an unknown provider never falls back",
      args: ["run", "task", "--model", "bogus/x", "do it"],
      message:
        /^xcsh: Cannot run 'task': --model: unknown provider 'bogus' in 'bogus\/x'\. Known providers: anthropic, google, local, ollama, openai$/m,
    },
    {
      name: "XCSH_MODEL naming an unknown provider",
      args: ["run", "task", "do it"],
      env: { XCSH_MODEL: "nowhere/m" },
      message: /XCSH_MODEL: unknown provider 'nowhere'/,
    },
    {
      name: "bad XCSH_TASK_DEPTH",
      args: ["run", "explore", "do it"],
      env: { XCSH_TASK_DEPTH: "deep" },
      message: /XCSH_TASK_DEPTH must be a whole number/,
    },
    {
      name: "duplicate task ids",
      args: ["run", "explore", "--task", "A=one", "--task", "a=two"],
      message: /task ids must be unique \(ignoring case\): "A" and "a"/,
    },
    {
      name: "no assignment",
      args: ["run", "explore"],
      message: /no assignment/,
    },
    {
      name: "bad --schema",
      args: ["run", "task", "--schema", "{oops", "do it"],
      message: /--schema: not valid JSON/,
    },
    {
      name: "bad --timeout",
      args: ["run", "task", "--timeout=-3", "do it"],
      message: /--timeout: expected a positive number of seconds, got "-3"/,
    },
    {
      name: "an output schema no child could use",
      args: ["run", "task", "--schema", '{"type":"nope"}', "do it"],
      message: /^xcsh: Invalid output schema \(the call's schema\): /m,
    },
    {
      name: "a flag missing its value",
      args: ["run", "task", "--timeout", "-3", "do it"],
      message:
        /flag '--timeout' is missing its value \(to give a value starting with '-', write --timeout=VALUE\)/,
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const w = world({}, c.config ?? "");
      script([]);
      const r = await runXcsh(c.args, { cwd: w.cwd, home: w.home, env: c.env });
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, c.message);
      assert.doesNotMatch(r.stderr, /^\s+at /m, "no stack trace");
      assert.equal(r.stdout, "");
      assert.equal(server.requests.length, 0, "no child reached the model");
    });
  }
});

test("no model configured: a clear error before any child starts", async () => {
  const w = makeWorld("task: { maxConcurrency: 2 }\n");
  harness.keep(w);
  script([]);
  const r = await runXcsh(["run", "task", "do it"], { cwd: w.cwd, home: w.home });
  assert.equal(r.code, 2);
  assert.match(
    r.stderr,
    new RegExp(
      "^xcsh: Cannot run 'task': no usable model for agent 'task': tried default \\('default' " +
        "means models\\.default, which is not set\\); models\\.default \\(not set, and no " +
        "built-in provider has its key \\(ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY\\)\\)" +
        "\\. To fix: export ANTHROPIC_API_KEY=<your key>, or set models\\.default in ~/\\.xcsh/agent/config\\.yml \\(e\\.g\\. 'models\\.default: " +
        "ollama/qwen3:8b'\\), or set XCSH_MODEL=ollama/qwen3:8b, or pass --model ollama/qwen3:8b$",
      "m",
    ),
  );
  assert.equal(server.requests.length, 0);
});

describe("running tasks", () => {
  test("xcsh run explore prints the schema-valid result", async () => {
    const w = world();
    script([{
      toolCalls: [{ name: "submit_result", args: { result: { data: EXPLORE_SAMPLE } } }],
    }]);
    const r = await runXcsh(["run", "explore", "Where is the CLI?"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), EXPLORE_SAMPLE);
    assert.equal(server.requests.length, 1);
    assert.equal(server.requests[0].body.model, "mock-small", "explore runs on the smol role");
    assert.equal(assignmentOf(server.requests[0]), "Where is the CLI?");
  });

  test("the assignment can come from stdin, and --json prints every outcome", async () => {
    const w = world();
    script([{ text: "all done" }]);
    const r = await runXcsh(["run", "task", "--json"], {
      cwd: w.cwd,
      home: w.home,
      stdin: "tidy up\n",
    });
    assert.equal(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout);
    assert.equal(doc.version, 1);
    assert.equal(doc.results.length, 1);
    assert.equal(doc.results[0].id, "0-task");
    assert.equal(doc.results[0].status, "ok");
    assert.equal(doc.results[0].text, "all done");
    assert.deepEqual(doc.results[0].usage, { input: 10, output: 5, cacheRead: 0, cacheWrite: 0 });
    assert.equal(assignmentOf(server.requests[0]), "tidy up\n");
  });

  test("a failed task exits 1 and says why", async () => {
    const w = world({
      strict: agentMd("strict", 'output: \'{"type":"object","required":["n"]}\'\n'),
    });
    script([{ text: "no" }, { text: "still no" }, { text: "never" }]);
    const r = await runXcsh(["run", "strict", "give n"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /task 0-strict failed: the model stopped without calling submit_result/);
  });

  test("plan mode: the child is offered no write tools although the agent has them", async () => {
    const w = world();
    script([{ text: "1. do this\n2. then that" }]);
    const r = await runXcsh(["run", "designer", "--plan", "Restyle the header"], {
      cwd: w.cwd,
      home: w.home,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "1. do this\n2. then that\n");
    assert.deepEqual(offeredTools(server.requests[0]).sort(), [
      "find",
      "grep",
      "ls",
      "read",
      "submit_result",
    ]);
    assert.match(systemPrompt(server.requests[0]), /plan mode/i);
  });

  test("without plan mode the same agent is offered its tools", async () => {
    const w = world();
    script([{ text: "done" }]);
    const r = await runXcsh(["run", "designer", "Restyle the header"], {
      cwd: w.cwd,
      home: w.home,
    });
    assert.equal(r.code, 0, r.stderr);
    const tools = offeredTools(server.requests[0]);
    for (const t of ["edit", "write", "bash", "task"]) assert.ok(tools.includes(t), `${t} offered`);
  });
});

test("a huge time limit means no practical limit, not an instant timeout", async () => {
  const w = world({}, "task: { timeout: 99999999 }\n");
  const dry = await runXcsh(["run", "quick_task", "--dry-run", "x"], { cwd: w.cwd, home: w.home });
  assert.equal(JSON.parse(dry.stdout).tasks[0].timeoutMs, 2 ** 31 - 1);
  script([{ text: "still here" }]);
  const r = await runXcsh(["run", "quick_task", "x"], { cwd: w.cwd, home: w.home });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, "still here\n");
});

describe("output and progress", () => {
  test("an output over 5 000 lines reaches --json whole: a program's input is never cut", async () => {
    const w = world();
    const long = Array.from({ length: 6000 }, (_, i) => `line ${i + 1}`).join("\n");
    script([{ text: long }]);
    const r = await runXcsh(["run", "quick_task", "--json", "say a lot"], {
      cwd: w.cwd,
      home: w.home,
    });
    assert.equal(r.code, 0, r.stderr);
    const res = JSON.parse(r.stdout).results[0];
    assert.equal(res.text, long);
    assert.equal(res.artifact, undefined);
    assert.doesNotMatch(r.stderr, /cut/);
  });

  test("progress: plain lines on stderr when it is not a terminal", async () => {
    const w = world();
    script([
      { toolCalls: [{ name: "read", args: { path: "README.md" } }] },
      { text: "read it" },
    ]);
    const r = await runXcsh(["run", "quick_task", "look"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "read it\n");
    assert.match(r.stderr, /^xcsh: \[0-quick_task\] quick_task started on local\/mock-small$/m);
    assert.match(r.stderr, /^xcsh: \[0-quick_task\] read README\.md$/m);
    assert.match(r.stderr, /^xcsh: \[0-quick_task\] ok after [\d.]+s$/m);
    assert.ok(!r.stderr.includes(`${ESC}[`), "no escape codes");
  });

  const hasScript = spawnSync("script", ["--version"]).status === 0;
  test("progress: a live display on a terminal, colours only without NO_COLOR", {
    skip: hasScript ? false : "needs script(1) from util-linux to give xcsh a terminal",
  }, async () => {
    const w = world();
    const cmd = `${XCSH} run quick_task look >${w.root}/out.txt`;
    for (const noColor of [false, true]) {
      script([{ text: "looked", delayMs: 400 }]);
      const env: Record<string, string> = {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: w.home,
      };
      if (noColor) env.NO_COLOR = "1";
      const r = await runCommand("script", ["-qefc", cmd, "/dev/null"], { cwd: w.cwd, env });
      const out = r.stdout + r.stderr;
      assert.equal(r.code, 0, out);
      assert.equal(
        readFileSync(`${w.root}/out.txt`, "utf8"),
        "looked\n",
        "stdout holds only the result",
      );
      assert.ok(out.includes(`${ESC}[2K`), "lines are redrawn in place");
      assert.match(out, /0-quick_task/);
      const colour = new RegExp(`${ESC}\\[3\\dm`);
      if (noColor) assert.doesNotMatch(out, colour, "no colours with NO_COLOR");
      else assert.ok(out.includes(`${ESC}[32m✓`), "a green tick when it succeeds");
    }
  });
});

describe("schema precedence: agent, then call, then parent", () => {
  const callSchema = {
    type: "object",
    properties: { verdict: { type: "string" } },
    required: ["verdict"],
  };

  test("the agent's own schema wins over --schema", async () => {
    const w = world();
    const r = await runXcsh(
      ["run", "explore", "--schema", JSON.stringify(callSchema), "--dry-run", "x"],
      { cwd: w.cwd, home: w.home },
    );
    assert.equal(r.code, 0, r.stderr);
    const env = JSON.parse(r.stdout).tasks[0].envelope;
    assert.ok(env.outputSchema.properties.start_here, "explore's schema");
  });

  test("--schema applies to an agent without one, from a file too", async () => {
    const w = world();
    const inline = await runXcsh([
      "run",
      "task",
      "--schema",
      JSON.stringify(callSchema),
      "--dry-run",
      "x",
    ], {
      cwd: w.cwd,
      home: w.home,
    });
    assert.deepEqual(JSON.parse(inline.stdout).tasks[0].envelope.outputSchema, callSchema);
    const { writeFileSync } = await import("node:fs");
    writeFileSync(`${w.cwd}/schema.json`, JSON.stringify(callSchema));
    const fromFile = await runXcsh(["run", "task", "--schema", "@schema.json", "--dry-run", "x"], {
      cwd: w.cwd,
      home: w.home,
    });
    assert.deepEqual(JSON.parse(fromFile.stdout).tasks[0].envelope.outputSchema, callSchema);
    const none = await runXcsh(["run", "task", "--dry-run", "x"], { cwd: w.cwd, home: w.home });
    assert.equal(JSON.parse(none.stdout).tasks[0].envelope.outputSchema, null);
  });

  test("a child's own schema is inherited by the agent it delegates to", async () => {
    const w = world({
      boss: agentMd(
        "boss",
        'tools: task, read\nspawns: helper\noutput: \'{"type":"object","properties":{"zebra_count":{"type":"integer"}},"required":["zebra_count"]}\'\n',
      ),
      helper: agentMd("helper", "tools: read\n"),
    });
    script([], (req) => {
      if (offeredTools(req).includes("task")) {
        return isAfterTool(req)
          ? {
            toolCalls: [{ name: "submit_result", args: { result: { data: { zebra_count: 3 } } } }],
          }
          : {
            toolCalls: [{
              name: "task",
              args: { agent: "helper", tasks: [{ id: "h", assignment: "count" }] },
            }],
          };
      }
      return {
        toolCalls: [{ name: "submit_result", args: { result: { data: { zebra_count: 3 } } } }],
      };
    });
    const r = await runXcsh(["run", "boss", "count zebras"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { zebra_count: 3 });
    const helperReq = server.requests.find((q) => !offeredTools(q).includes("task"));
    assert.ok(helperReq, "the helper was started");
    // The schema travels in submit_result's parameters (the prompt points there).
    const submit = (helperReq.body.tools as { function: { name: string; parameters: unknown } }[])
      .find((t) => t.function.name === "submit_result");
    // deno-lint-ignore no-explicit-any
    const params = submit?.function.parameters as any;
    const data = params?.properties?.result?.anyOf?.[0]?.properties?.data;
    assert.ok(data?.properties?.zebra_count, "the helper got the boss's schema");
    assert.match(systemPrompt(helperReq), /result\.data/);
  });
});

describe("delegation through the real re-exec chain", () => {
  test("a recursive agent delegates to itself until the depth limit; the deepest child has no task tool", async () => {
    const w = world({ deep: agentMd("deep", "tools: task, read\nrecursive: true\n") });
    script([], (req) => {
      const tools = offeredTools(req);
      if (!tools.includes("task")) return { text: `leaf at "${assignmentOf(req)}"` };
      if (isAfterTool(req)) return { text: `middle got: ${toolResults(req)}` };
      return {
        toolCalls: [{
          name: "task",
          args: { agent: "deep", tasks: [{ id: "down", assignment: "go deeper" }] },
        }],
      };
    });
    const r = await runXcsh(["run", "deep", "start"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^middle got: /);
    assert.match(r.stdout, /leaf at \\"go deeper\\"/);
    assert.equal(server.requests.length, 3);
    assert.ok(offeredTools(server.requests[0]).includes("task"), "depth 1 may delegate");
    assert.ok(
      !offeredTools(server.requests[1]).includes("task"),
      "depth 2 is offered no task tool",
    );
    assert.equal(assignmentOf(server.requests[1]), "go deeper");
  });

  test("a non-recursive agent cannot spawn itself", async () => {
    const w = world({ solo: agentMd("solo", "tools: task, read\n") });
    script(
      [],
      (req) =>
        isAfterTool(req) ? { text: `refused: ${toolResults(req)}` } : {
          toolCalls: [{
            name: "task",
            args: { agent: "solo", tasks: [{ id: "again", assignment: "x" }] },
          }],
        },
    );
    const r = await runXcsh(["run", "solo", "start"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Cannot spawn 'solo' from inside 'solo': recursion prevention/);
    assert.equal(server.requests.length, 2, "no grandchild was started");
  });

  test("a spawns list allows one agent and refuses another", async () => {
    const w = world({
      boss: agentMd("boss", "tools: task, read\nspawns: worker\n"),
      worker: agentMd("worker", "tools: read\n"),
      other: agentMd("other", "tools: read\n"),
    });
    script([], (req) => {
      if (!offeredTools(req).includes("task")) {
        return { text: `worker says hi to ${assignmentOf(req)}` };
      }
      const results = toolResults(req);
      if (results === "") {
        return {
          toolCalls: [{
            name: "task",
            args: { agent: "other", tasks: [{ id: "o", assignment: "x" }] },
          }],
        };
      }
      if (!results.includes("worker says")) {
        return {
          toolCalls: [{
            name: "task",
            args: { agent: "worker", tasks: [{ id: "w", assignment: "bob" }] },
          }],
        };
      }
      return { text: `transcript: ${results}` };
    });
    const r = await runXcsh(["run", "boss", "start"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Cannot spawn 'other'\. Allowed: worker/);
    assert.match(r.stdout, /worker says hi to bob/);
    assert.equal(
      server.requests.filter((q) => !offeredTools(q).includes("task")).length,
      1,
      "one worker ran",
    );
  });
});

describe("parallel tasks", () => {
  test("8 tasks at concurrency 2: never more than 2 at once, results in order", async () => {
    const w = world({}, "task: { maxConcurrency: 2 }\n");
    script([], (req) => ({ text: `done ${assignmentOf(req)}`, delayMs: 300 }));
    const args = ["run", "quick_task", "--json"];
    for (let i = 1; i <= 8; i++) args.push("--task", `t${i}=job ${i}`);
    const r = await runXcsh(args, { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout);
    assert.deepEqual(doc.results.map((x: { id: string }) => x.id), [
      "t1",
      "t2",
      "t3",
      "t4",
      "t5",
      "t6",
      "t7",
      "t8",
    ]);
    assert.deepEqual(
      doc.results.map((x: { text: string }) => x.text),
      [1, 2, 3, 4, 5, 6, 7, 8].map((i) => `done job ${i}`),
    );
    assert.equal(server.requests.length, 8);
    assert.equal(server.peakInFlight(), 2, "two ran together, never three");
  });

  test("text output names each task", async () => {
    const w = world();
    script([], (req) => ({ text: `did ${assignmentOf(req)}` }));
    const r = await runXcsh(["run", "quick_task", "--task", "a=alpha", "--task", "b=beta"], {
      cwd: w.cwd,
      home: w.home,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "== a (quick_task): ok\ndid alpha\n== b (quick_task): ok\ndid beta\n");
  });
});

describe("limits, cancellation and crashes leave no process behind", () => {
  test("a timeout ends a stalled child and its grandchild", async () => {
    const w = world({ deep: agentMd("deep", "tools: task, read\nrecursive: true\n") });
    script([], delegateThenStall("deep"));
    const r = await runXcsh(["run", "deep", "--timeout", "3", "start"], {
      cwd: w.cwd,
      home: w.home,
    });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /timed out after 3 s/);
    assert.equal(server.requests.length, 2, "the grandchild was running");
    assert.deepEqual(await waitForNoProcessesIn(w.root), [], "no process left in the project");
  });

  test("SIGINT to xcsh run ends every descendant and reports the task as cancelled", async () => {
    const w = world({ deep: agentMd("deep", "tools: task, read\nrecursive: true\n") });
    script([], delegateThenStall("deep"));
    const child = spawn(XCSH, ["run", "deep", "--json", "start"], {
      cwd: w.cwd,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: w.home },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.resume();
    const exited = new Promise<number | null>((resolve) =>
      child.on("close", (code) => resolve(code))
    );
    const until = Date.now() + 20_000;
    while (server.requests.length < 2 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(server.requests.length, 2, "the grandchild reached the model");
    assert.ok(processesIn(w.root).length >= 2, "child and grandchild are alive");
    // process.kill, not child.kill: Deno's child_process then reports the
    // signal it sent instead of the exit code the process chose.
    process.kill(child.pid!, "SIGINT");
    const code = await exited;
    assert.equal(code, 1);
    assert.equal(JSON.parse(stdout).results[0].status, "cancelled");
    assert.deepEqual(await waitForNoProcessesIn(w.root), [], "no process left in the project");
  });

  test("a child that dies without a result is reported with the tail of its stderr", async () => {
    const w = world({});
    // The first call fails, so the child writes a retry line to stderr; the
    // second stalls until the child is killed.
    script([], (_req, i) => (i === 0 ? { fault: "500" } : { fault: "stall" }));
    const run = runXcsh(["run", "quick_task", "wait"], {
      cwd: w.cwd,
      home: w.home,
      env: { XCSH_RETRY_BASE_MS: "5" },
    });
    const until = Date.now() + 20_000;
    while (server.requests.length < 2 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const victims = childPids(w.root);
    assert.equal(victims.length, 1, "one child is running");
    process.kill(victims[0], "SIGKILL");
    const r = await run;
    assert.equal(r.code, 1);
    assert.match(r.stderr, /the child process was killed by SIGKILL without a result/);
    assert.match(r.stderr, /its stderr ended with:\n.*retry 1\//);
  });
});
