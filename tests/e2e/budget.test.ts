// The run's budget end to end: `--max-budget-usd` over a priced model stops
// the next model call, not a later one; the tasks that finished keep their
// results; a task after exhaustion never starts; the same through a nested
// `task` call; bad budget values are usage errors naming their flag; a model
// with no price is refused before the first call.

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import process from "node:process";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client";
// The SDK's wildcard export maps types to `*.js.d.ts`, which do not exist: point Deno at them.
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.d.ts"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { spawn } from "node:child_process";
import { cleanEnv, runXcsh, XCSH } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import {
  agentMd,
  childPids,
  isAfterTool,
  localConfig,
  toolResults,
  waitForNoProcessesIn,
} from "../support/world.ts";
import { type SlurmCluster, startSlurm } from "../support/slurm.ts";
import { agentSetOf, planText, userConfig } from "../support/plan.ts";

const harness = modelHarness({ respond: () => ({ text: "done" }) });
const { server, respond } = harness;

const env = { TEST_ANTH_KEY: "k1", TEST_OAI_KEY: "k2" };
/** Claude Sonnet 4.5 on the Anthropic wire: $3 per million input tokens, $15 output. */
const PRICED = "anth/claude-sonnet-4-5";
/** One answer's usage: 1,000 in and 10,000 out, $0.153 at that price; less than a call
 * reserves (its input estimate plus 16,384 output tokens, over $0.245). */
const USAGE = { input: 1000, output: 10_000 };
const CALL_USD = 1000 * 3e-6 + 10_000 * 15e-6;
/** What the output a request asks for (16,384 tokens) costs: the least a call reserves. */
const OUTPUT_RESERVE_USD = 16_384 * 15e-6;

function pricedWorld(agents: Record<string, string> = {}, task = "", concurrency = 1) {
  const extra =
    `  anth: { type: anthropic, baseURL: "${server.url}/v1", apiKeyEnv: TEST_ANTH_KEY }\n` +
    `  oai: { type: openai, baseURL: "${server.url}/v1", apiKeyEnv: TEST_OAI_KEY }\n`;
  return harness.world({
    agents,
    config: localConfig(server.url).replace(/(providers:\n {2}local: [^\n]*\n)/, `$1${extra}`) +
      `task:\n  maxConcurrency: ${concurrency}\n` + task,
  });
}

// deno-lint-ignore no-explicit-any
type Result = Record<string, any>;

describe("budget", () => {
  test("--max-budget-usd stops the next call; finished tasks keep their results", async () => {
    const w = pricedWorld();
    respond(() => ({ text: "answer", usage: USAGE }));
    server.requests.length = 0;
    const budget = 1;
    const ids = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"];
    const r = await runXcsh([
      "run",
      "quick_task",
      "--json",
      "--model",
      PRICED,
      "--max-budget-usd",
      String(budget),
      ...ids.flatMap((id) => ["--task", `${id}=say hi ${id}`]),
    ], { cwd: w.cwd, home: w.home, env });
    assert.equal(r.code, 1, r.stderr);
    const doc = JSON.parse(r.stdout);
    const results: Result[] = doc.results;
    const statuses = results.map((x) => x.status);
    const ok = results.filter((x) => x.status === "ok");
    assert.ok(ok.length >= 1, statuses.join(","));
    assert.ok(statuses.includes("budget"), statuses.join(","));
    // One task at a time: once one is stopped, none after it runs.
    const first = statuses.indexOf("budget");
    assert.deepEqual(statuses.slice(first), statuses.slice(first).map(() => "budget"));
    assert.deepEqual(statuses.slice(0, first), statuses.slice(0, first).map(() => "ok"));
    for (const x of ok) assert.equal(x.text, "answer");
    // Each granted call was made, and no other.
    assert.equal(server.requests.length, ok.length);
    // The later ones never started.
    for (const x of results.slice(first + 1)) assert.match(x.error, /not started/);
    assert.match(results[first].error, /budget/);
    // Spend stays within the budget (every call cost less than its reservation).
    assert.equal(doc.budget.limits.usd, budget);
    assert.ok(doc.budget.spent.usd <= budget, JSON.stringify(doc.budget));
    assert.ok(Math.abs(doc.budget.spent.usd - ok.length * CALL_USD) < 1e-9);
    assert.equal(doc.budget.spent.requests, ok.length);
    assert.equal(doc.budget.exhausted, "usd");
    assert.ok(ok.length < ids.length);
  });

  test("run_progress shows the spend so far against --max-budget-usd", async () => {
    const w = pricedWorld();
    respond(() => ({ text: "answer", usage: USAGE }));
    const r = await runXcsh([
      "run",
      "quick_task",
      "--output-format",
      "stream-json",
      "--model",
      PRICED,
      "--max-budget-usd",
      "5",
      ...["a", "b", "c"].flatMap((id) => ["--task", `${id}=say hi ${id}`]),
    ], { cwd: w.cwd, home: w.home, env });
    assert.equal(r.code, 0, r.stderr);
    // deno-lint-ignore no-explicit-any
    const records: any[] = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
    const progress = records.filter((x) => x.type === "run_progress");
    assert.ok(progress.length > 0);
    for (const p of progress) assert.equal(p.budget.limits.usd, 5, JSON.stringify(p));
    const last = progress.at(-1);
    const end = records.at(-1);
    assert.equal(end.type, "run_result");
    assert.ok(Math.abs(last.budget.spent.usd - 3 * CALL_USD) < 1e-9, JSON.stringify(last));
    assert.equal(last.budget.spent.usd, end.budget.spent.usd);
    assert.equal(last.budget.spent.tokens, end.budget.spent.tokens);
    // Each task's dollars, and the run's.
    assert.deepEqual(last.tasks.map((t: { id: string }) => t.id).sort(), ["a", "b", "c"]);
    for (const t of last.tasks) assert.ok(Math.abs(t.costUSD - CALL_USD) < 1e-9, JSON.stringify(t));
    assert.ok(Math.abs(last.costUSD - 3 * CALL_USD) < 1e-9, JSON.stringify(last));
  });

  test("the overshoot is bounded by the calls in flight", async () => {
    const w = pricedWorld({}, "", 4);
    // Four calls at once, each with far more input than its request's estimate: $0.45 each.
    const input = 150_000;
    const actual = input * 3e-6;
    respond(() => ({ text: "answer", usage: { input, output: 0 }, holdTogether: 4 }));
    server.requests.length = 0;
    const budget = 1.1;
    const r = await runXcsh([
      "run",
      "quick_task",
      "--json",
      "--model",
      PRICED,
      "--max-budget-usd",
      String(budget),
      ...["a", "b", "c", "d", "e", "f", "g", "h"].flatMap((id) => ["--task", `${id}=go ${id}`]),
    ], { cwd: w.cwd, home: w.home, env });
    assert.equal(r.code, 1, r.stderr);
    const doc = JSON.parse(r.stdout);
    const made = server.requests.length;
    assert.ok(made >= 1 && made <= 4, `${made} calls`);
    assert.equal(doc.budget.spent.requests, made);
    // Past the budget only by what the calls in flight used beyond their
    // reservation (at least the output they asked for): no call after it.
    const bound = made * (actual - OUTPUT_RESERVE_USD);
    assert.ok(doc.budget.spent.usd - budget <= bound + 1e-9, JSON.stringify(doc.budget));
    assert.equal(
      doc.results.filter((x: Result) => x.status === "budget").length,
      8 - made,
    );
  });

  test("the same budget reaches a nested task call", async () => {
    const w = pricedWorld({
      boss: agentMd("boss", "tools: [task]\n"),
      helper: agentMd("helper", "tools: [read]\n"),
    });
    let n = 0;
    respond(() => {
      n++;
      // The boss delegates again and again; each helper answers at once.
      return n % 2 === 1
        ? {
          toolCalls: [{
            name: "task",
            args: { agent: "helper", tasks: [{ id: `j${n}`, assignment: `job ${n}` }] },
          }],
          usage: USAGE,
        }
        : { text: "helped", usage: USAGE };
    });
    server.requests.length = 0;
    const budget = 2;
    const r = await runXcsh(
      ["run", "boss", "--json", "--model", PRICED, "--max-budget-usd", String(budget), "work"],
      { cwd: w.cwd, home: w.home, env: { ...env, XCSH_MAX_DEPTH: "3" } },
    );
    assert.equal(r.code, 1, r.stderr);
    const doc = JSON.parse(r.stdout);
    assert.equal(doc.results[0].status, "budget", JSON.stringify(doc.results[0]));
    // Every call, the boss's and its helpers', was counted by the one budget.
    assert.equal(doc.budget.spent.requests, server.requests.length);
    assert.ok(server.requests.length >= 3, String(server.requests.length));
    assert.ok(doc.budget.spent.usd <= budget, JSON.stringify(doc.budget));
  });

  test("bad budget values are usage errors naming the flag", async () => {
    const w = pricedWorld();
    server.requests.length = 0;
    for (
      const [flag, value] of [
        ["--max-budget-usd", "0"],
        ["--max-budget-usd", "-1"],
        ["--max-budget-usd", "$5"],
        ["--max-budget-usd", "lots"],
        ["--max-tokens", "1.5"],
        ["--max-requests", "0"],
        ["--deadline", "5d"],
      ]
    ) {
      const r = await runXcsh(["run", "quick_task", flag, value, "go"], {
        cwd: w.cwd,
        home: w.home,
        env,
      });
      assert.equal(r.code, 2, `${flag} ${value}: ${r.stderr}`);
      assert.ok(r.stderr.includes(flag), r.stderr);
      assert.equal(r.stderr.trim().split("\n").length <= 2, true, r.stderr);
    }
    assert.equal(server.requests.length, 0);
  });

  test("a dollar budget over a model with no price is refused before the first call", async () => {
    const w = pricedWorld();
    respond(() => ({ text: "answer", usage: USAGE }));
    server.requests.length = 0;
    const args = ["run", "quick_task", "--model", "oai/gpt-unheard-of-9", "--max-budget-usd", "1"];
    const r = await runXcsh([...args, "go"], { cwd: w.cwd, home: w.home, env });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /no price is known for oai\/gpt-unheard-of-9.*--budget-unpriced-free/);
    assert.equal(server.requests.length, 0);
    const free = await runXcsh([...args, "--budget-unpriced-free", "--json", "go"], {
      cwd: w.cwd,
      home: w.home,
      env,
    });
    assert.equal(free.code, 0, free.stderr);
    assert.equal(JSON.parse(free.stdout).budget.spent.usd, 0);
  });

  test("--max-requests counts model requests", async () => {
    const w = pricedWorld();
    respond(() => ({ text: "answer", usage: USAGE }));
    server.requests.length = 0;
    const r = await runXcsh([
      "run",
      "quick_task",
      "--json",
      "--max-requests",
      "2",
      ...["a", "b", "c"].flatMap((id) => ["--task", `${id}=go`]),
    ], { cwd: w.cwd, home: w.home, env });
    assert.equal(r.code, 1, r.stderr);
    const doc = JSON.parse(r.stdout);
    assert.deepEqual(doc.results.map((x: Result) => x.status), ["ok", "ok", "budget"]);
    assert.equal(server.requests.length, 2);
    assert.equal(doc.budget.exhausted, "requests");
    // The stream's last record carries the same account.
    server.requests.length = 0;
    const streamed = await runXcsh([
      "run",
      "quick_task",
      "--output-format",
      "stream-json",
      "--max-requests",
      "2",
      ...["a", "b", "c"].flatMap((id) => ["--task", `${id}=go`]),
    ], { cwd: w.cwd, home: w.home, env });
    assert.equal(streamed.code, 1, streamed.stderr);
    const last = JSON.parse(streamed.stdout.trim().split("\n").at(-1)!);
    assert.equal(last.type, "run_result");
    assert.equal(last.budget.spent.requests, 2);
    assert.equal(last.budget.exhausted, "requests");
    assert.match(streamed.stderr, /task c stopped by the run's budget/);
    // No budget_request or budget_spent reaches the stream: they are the channel's.
    assert.ok(!streamed.stdout.includes("budget_request"), streamed.stdout);
  });

  test("--deadline and --max-tokens stop the next call too", async () => {
    const w = pricedWorld();
    const tasks = ["a", "b"].flatMap((id) => ["--task", `${id}=go`]);
    // The first call takes longer than the whole deadline: the second is refused.
    respond(() => ({ text: "answer", usage: USAGE, delayMs: 1500 }));
    server.requests.length = 0;
    const late = await runXcsh(["run", "quick_task", "--json", "--deadline", "1s", ...tasks], {
      cwd: w.cwd,
      home: w.home,
      env,
    });
    assert.equal(late.code, 1, late.stderr);
    const d = JSON.parse(late.stdout);
    assert.deepEqual(d.results.map((x: Result) => x.status), ["ok", "budget"]);
    assert.equal(d.budget.exhausted, "deadline");
    assert.equal(server.requests.length, 1);
    // Tokens: one call reserves its input estimate plus 16,384 output tokens.
    respond(() => ({ text: "answer", usage: USAGE }));
    server.requests.length = 0;
    const few = await runXcsh(["run", "quick_task", "--json", "--max-tokens", "20000", ...tasks], {
      cwd: w.cwd,
      home: w.home,
      env,
    });
    assert.equal(few.code, 1, few.stderr);
    const t = JSON.parse(few.stdout);
    assert.deepEqual(t.results.map((x: Result) => x.status), ["ok", "budget"]);
    assert.equal(t.budget.exhausted, "tokens");
    assert.equal(t.budget.spent.tokens, USAGE.input + USAGE.output);
    assert.equal(server.requests.length, 1);
  });

  test("a child that reads no control channel is stopped, not run unbudgeted", async () => {
    // Stands for an older xcsh on the far side of a launcher: it takes the
    // envelope, starts without saying it reads control messages, then would answer.
    const w = pricedWorld();
    const old = join(w.root, "old-xcsh.sh");
    writeFileSync(
      old,
      "#!/bin/sh\nread -r envelope\n" +
        `echo '{"type":"start","id":"a","agent":"quick_task","model":"${PRICED}","depth":1}'\n` +
        "sleep 2\n" +
        `echo '{"type":"result","id":"a","status":"ok","text":"unbudgeted"}'\n`,
    );
    chmodSync(old, 0o755);
    const cfg = join(w.home, ".xcsh", "agent", "config.yml");
    writeFileSync(
      cfg,
      readFileSync(cfg, "utf8") + `  launcher: ["nice"]\n  launcherBinary: ${old}\n`,
    );
    const args = ["run", "quick_task", "--json", "--model", PRICED, "--task", "a=go"];
    const r = await runXcsh([...args, "--max-budget-usd", "5"], {
      cwd: w.cwd,
      home: w.home,
      env,
    });
    assert.equal(r.code, 1, r.stderr);
    const res = JSON.parse(r.stdout).results[0];
    assert.equal(res.status, "error");
    assert.match(res.error, /reads no control channel/);
    assert.notEqual(res.text, "unbudgeted");
    // Without a budget the same child runs as before.
    const plain = await runXcsh(args, { cwd: w.cwd, home: w.home, env });
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal(JSON.parse(plain.stdout).results[0].text, "unbudgeted");
  });

  test("a governor killed with SIGKILL: its child makes no further call", async () => {
    const w = pricedWorld();
    // The first call runs a command that outlives the parent; the next call would follow it.
    respond((req) =>
      isAfterTool(req)
        ? { text: "after the parent died", usage: USAGE }
        : { toolCalls: [{ name: "bash", args: { command: "sleep 2; echo done" } }], usage: USAGE }
    );
    server.requests.length = 0;
    const parent = spawn(
      XCSH,
      ["run", "quick_task", "--model", PRICED, "--max-budget-usd", "5", "go"],
      { cwd: w.cwd, env: cleanEnv(w.home, env), stdio: ["ignore", "ignore", "pipe"] },
    );
    const exited = new Promise((r) => parent.on("close", r));
    // Kill the parent once its child has made its first call and runs the command.
    const until = Date.now() + 30_000;
    while (server.requests.length < 1 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(server.requests.length, 1);
    assert.ok(childPids(w.cwd).length > 0, "the child runs");
    parent.kill("SIGKILL");
    await exited;
    assert.deepEqual(await waitForNoProcessesIn(w.cwd, 20_000), []);
    assert.equal(server.requests.length, 1, "no call after the governor died");
  });

  test("an untrusted project config cannot raise the user's budget, only lower it", async () => {
    const w = pricedWorld({}, "  budget: { requests: 1 }\n");
    respond(() => ({ text: "answer", usage: USAGE }));
    const tasks = ["a", "b", "c"].flatMap((id) => ["--task", `${id}=go`]);
    const run = async (project: string) => {
      writeFileSync(join(w.cwd, ".xcsh", "config.yml"), project);
      server.requests.length = 0;
      const r = await runXcsh(["run", "quick_task", "--json", ...tasks], {
        cwd: w.cwd,
        home: w.home,
        env,
      });
      assert.equal(r.code, 1, r.stderr);
      return JSON.parse(r.stdout);
    };
    const raised = await run("task:\n  budget: { requests: 100, usd: 1000 }\n");
    assert.equal(server.requests.length, 1, "the user's limit of 1 request holds");
    // A limit the user had not set is a new cap: it can only lower what runs.
    assert.deepEqual(raised.budget.limits, { requests: 1, usd: 1000 });
    const lowered = await run("task:\n  budget: { tokens: 1 }\n");
    assert.equal(server.requests.length, 0, "a lower limit applies");
    assert.deepEqual(lowered.budget.limits, { requests: 1, tokens: 1 });
  });

  test("over xcsh mcp: one budget per task call", async () => {
    const w = pricedWorld();
    respond(() => ({ text: "answer", usage: USAGE }));
    const transport = new StdioClientTransport({
      command: XCSH,
      args: ["mcp"],
      cwd: w.cwd,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: w.home, ...env },
      stderr: "pipe",
    });
    const client = new Client({ name: "xcsh-tests", version: "1.0.0" });
    await client.connect(transport);
    try {
      const call = async () => {
        server.requests.length = 0;
        // deno-lint-ignore no-explicit-any
        const r: any = await client.callTool({
          name: "task",
          arguments: {
            agent: "quick_task",
            budget: { requests: 2 },
            tasks: ["a", "b", "c"].map((id) => ({ id, assignment: `go ${id}` })),
          },
        });
        return r;
      };
      for (let round = 0; round < 2; round++) {
        const r = await call();
        const { results, budget } = r.structuredContent;
        assert.deepEqual(results.map((x: Result) => x.status), ["ok", "ok", "budget"]);
        assert.equal(server.requests.length, 2, `round ${round}`);
        assert.equal(budget.spent.requests, 2);
        assert.equal(budget.exhausted, "requests");
      }
      // deno-lint-ignore no-explicit-any
      const bad: any = await client.callTool({
        name: "task",
        arguments: {
          agent: "quick_task",
          budget: { usd: "$5" },
          tasks: [{ id: "a", assignment: "x" }],
        },
      });
      assert.equal(bad.isError, true);
      assert.match(JSON.stringify(bad.content), /budget\.usd/);
    } finally {
      await client.close();
    }
  });
});

describe("budget through a launcher on a one-node Slurm cluster", () => {
  let cluster: SlurmCluster | undefined;
  let reason: string | false = false;
  before(async () => {
    const c = await startSlurm();
    if (typeof c === "string") reason = c;
    else cluster = c;
  });
  after(() => cluster?.stop());

  test("the children on the cluster ask the run's budget over srun's stdin", async (t) => {
    if (reason) return t.skip(reason);
    const w = pricedWorld(
      {},
      `  launcher: ["srun", "--quiet", "--job-name={job}", "--chdir={cwd}", "--"]\n`,
    );
    respond(() => ({ text: "answer", usage: USAGE }));
    server.requests.length = 0;
    const budget = 1;
    const ids = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"];
    const r = await runXcsh([
      "run",
      "quick_task",
      "--json",
      "--model",
      PRICED,
      "--max-budget-usd",
      String(budget),
      ...ids.flatMap((id) => ["--task", `${id}=say hi ${id}`]),
    ], { cwd: w.cwd, home: w.home, env: { ...env, ...cluster!.env }, killAfterMs: 120_000 });
    assert.equal(r.code, 1, r.stderr + r.stdout);
    const doc = JSON.parse(r.stdout);
    const statuses: string[] = doc.results.map((x: Result) => x.status);
    const ok = statuses.filter((s) => s === "ok").length;
    assert.ok(ok >= 1 && statuses.includes("budget"), statuses.join(","));
    const first = statuses.indexOf("budget");
    assert.deepEqual(statuses.slice(first), statuses.slice(first).map(() => "budget"));
    assert.equal(server.requests.length, ok);
    assert.ok(doc.budget.spent.usd <= budget, JSON.stringify(doc.budget));
    assert.equal(doc.budget.spent.requests, ok);
  });
});

// deno-lint-ignore no-explicit-any
type Event = Record<string, any>;

/** Runs `xcsh __child` as a parent would (pipe kept open), answering its events with `answer`. */
function driveChild(
  w: { cwd: string; home: string },
  envelope: Event,
  answer: (e: Event, write: (line: Event) => void) => void,
  started?: (write: (line: Event) => void) => void,
): Promise<{ events: Event[]; code: number | null }> {
  const child = spawn(XCSH, ["__child"], {
    cwd: w.cwd,
    env: cleanEnv(w.home, { ...env, XCSH_PARENT_PIPE: "1" }),
    stdio: ["pipe", "pipe", "pipe"],
  });
  const events: Event[] = [];
  const write = (line: Event) => child.stdin.write(JSON.stringify(line) + "\n");
  let pending = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => {
    pending += d;
    let nl: number;
    while ((nl = pending.indexOf("\n")) >= 0) {
      const e = JSON.parse(pending.slice(0, nl));
      pending = pending.slice(nl + 1);
      events.push(e);
      answer(e, write);
    }
  });
  child.stderr.resume();
  child.stdin.on("error", () => {});
  write(envelope);
  started?.(write);
  return new Promise((resolve) => child.on("close", (code) => resolve({ events, code })));
}

describe("the control channel, driven by hand", () => {
  const envelopeFor = (w: { cwd: string; home: string }, extra: { budget?: true } = {}): Event =>
    JSON.parse(planText({
      assignment: "List the folder, then answer.",
      model: "local/mock-large",
      cwd: w.cwd,
      config: userConfig(w.home),
      limits: { maxTurns: 10, timeoutMs: 30_000, submitRetries: 3 },
      ...extra,
    }));

  test("under a budget the child asks before each call, and a deny ends it", async () => {
    const w = pricedWorld();
    respond((req) =>
      isAfterTool(req)
        ? { text: "never asked for" }
        : { toolCalls: [{ name: "ls", args: { path: "." } }], usage: USAGE }
    );
    server.requests.length = 0;
    let asked = 0;
    const { events, code } = await driveChild(
      w,
      envelopeFor(w, { budget: true }),
      (e, write) => {
        if (e.type !== "budget_request") return;
        asked++;
        // A forged id first: the child must not take it for the answer.
        write({ type: "grant", reqId: "not-" + e.reqId });
        write(
          asked === 1
            ? { type: "grant", reqId: e.reqId }
            : { type: "deny", reqId: e.reqId, reason: "out of money" },
        );
      },
    );
    assert.equal(code, 1);
    assert.equal(events.find((e) => e.type === "start")?.control, 1);
    assert.equal(asked, 2);
    assert.equal(server.requests.length, 1, "the denied call was not made");
    const spent = events.find((e) => e.type === "budget_spent");
    assert.equal(spent?.output, USAGE.output);
    const result = events.at(-1)!;
    assert.equal(result.type, "result");
    assert.equal(result.reason, "budget");
    assert.match(result.error, /out of money/);
  });

  test("a budget spent elsewhere in the tree: the child starts no sub-task", async () => {
    const w = pricedWorld({ helper: agentMd("helper", "tools: [read]\n") });
    respond((req) =>
      isAfterTool(req) ? { text: "gave up" } : {
        toolCalls: [{
          name: "task",
          args: { agent: "helper", tasks: [{ id: "h", assignment: "help" }] },
        }],
      }
    );
    server.requests.length = 0;
    const { events, code } = await driveChild(
      w,
      JSON.parse(planText({
        assignment: "Delegate.",
        model: "local/mock-large",
        cwd: w.cwd,
        config: userConfig(w.home),
        limits: { maxTurns: 10, timeoutMs: 30_000, submitRetries: 3 },
        budget: true,
        agent: {
          name: "boss",
          description: "Delegates",
          systemPrompt: "You delegate.",
          tools: ["task"],
          spawns: ["helper"],
        },
        agentSet: await agentSetOf(w.cwd, w.home),
      })),
      (e, write) => {
        // A sibling spent the budget: the parent says so as soon as the child reads control.
        if (e.type === "start") write({ type: "exhausted", reason: "a sibling spent it" });
        // This child's own calls are still answered (the parent would deny them; here
        // they are granted, so that the task call is what meets the notice).
        if (e.type === "budget_request") write({ type: "grant", reqId: e.reqId });
      },
    );
    assert.equal(code, 0);
    assert.equal(server.requests.length, 2, "the boss's two calls, no helper's");
    assert.match(toolResults(server.requests[1]), /not started: the run.s budget is spent/);
    assert.equal(events.filter((e) => e.type === "budget_request").length, 2);
  });

  test("a sibling's pause sent down holds the child's next call", async () => {
    const w = pricedWorld();
    // The pause is sent while the first call is in flight, and that call's answer is
    // held long enough for the child to read it: the next call is what must wait.
    let write: ((line: Event) => void) | undefined;
    let sentAt = 0;
    let requestsWhenSent = -1;
    respond((req) => {
      if (isAfterTool(req)) return { text: "done" };
      sentAt = Date.now();
      requestsWhenSent = server.requests.length;
      // A sibling's pause: the local provider has no key.
      write!({
        type: "rate_limit",
        version: 1,
        provider: "local",
        key: "",
        pauseUntil: sentAt + 2000,
      });
      // Another version of the message is not this child's to act on.
      write!({ type: "rate_limit", version: 2, provider: "local", key: "", pauseUntil: 0 });
      return { toolCalls: [{ name: "ls", args: { path: "." } }], delayMs: 400 };
    });
    server.requests.length = 0;
    const { events, code } = await driveChild(w, envelopeFor(w), () => {}, (w2) => write = w2);
    assert.equal(requestsWhenSent, 1);
    assert.equal(code, 0);
    assert.equal(server.requests.length, 2);
    // The second call waited on the pause first (the child's own measure of it).
    const waits = events.filter((e) => e.type === "waiting" && e.reason === "rate_limit");
    assert.equal(waits.length, 1, JSON.stringify(events.map((e) => e.type)));
    assert.equal(waits[0].provider, "local");
    assert.ok(waits[0].ms > 1000, `waited ${waits[0].ms} ms`);
    assert.equal(events.at(-1)?.status, "ok");
  });

  test("without a budget nothing is asked, and a cancel on stdin ends the child", async () => {
    const w = pricedWorld();
    respond(() => ({ text: "slow", delayMs: 20_000 }));
    server.requests.length = 0;
    const { events, code } = await driveChild(w, envelopeFor(w), (e, write) => {
      if (e.type === "start") write({ type: "cancel" });
    });
    assert.equal(code, 1);
    assert.ok(!events.some((e) => e.type === "budget_request"));
    const result = events.at(-1)!;
    assert.equal(result.type, "result");
    assert.match(result.error, /cancel from the parent/);
  });
});
