// `xcsh run` from scripts and CI, through the built binary and the local
// model server: --output-format stream-json (every line a record, the last
// the run's result, nothing else on stdout, a reader that goes away),
// the model, fallback and turns in the result, --max-turns, stdin with a
// prompt, and the bad values of each flag.
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { cleanEnv, runXcsh, XCSH } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import type { RecordedRequest, Turn } from "../support/model-server.ts";
import {
  agentMd,
  assignmentOf,
  isAfterTool,
  localConfig,
  makeWorld,
  waitForNoProcessesIn,
} from "../support/world.ts";

const harness = modelHarness({ respond: () => ({ text: "done" }) });
const { server, respond } = harness;
const world = (agents: Record<string, string> = {}) => harness.world({ agents });

const readThenAnswer = (req: RecordedRequest): Turn =>
  isAfterTool(req) ? { text: "the answer" } : { toolCalls: [{ name: "ls", args: { path: "." } }] };

// deno-lint-ignore no-explicit-any
type Rec = Record<string, any>;

describe("--output-format stream-json", () => {
  test("every line is a record: run_start, events, each task's result, run_result last", async () => {
    const w = world();
    respond(readThenAnswer);
    const r = await runXcsh(
      ["run", "quick_task", "--output-format", "stream-json", "--task", "a=go", "--task", "b=go"],
      { cwd: w.cwd, home: w.home },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.endsWith("\n"));
    const lines: Rec[] = r.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
    assert.equal(lines[0].type, "run_start");
    assert.equal(lines[0].version, 1);
    assert.deepEqual(lines[0].tasks.map((t: Rec) => t.id), ["a", "b"]);
    const last = lines.at(-1)!;
    assert.equal(last.type, "run_result");
    assert.equal(last.exitCode, 0);
    assert.deepEqual(last.results.map((x: Rec) => x.status), ["ok", "ok"]);
    for (const id of ["a", "b"]) {
      const events = lines.filter((l) => l.type === "event" && l.event.id === id).map((l) =>
        l.event
      );
      const start = events.find((e) => e.type === "start");
      assert.equal(start.model, "local/mock-small");
      const ts = events.find((e) => e.type === "tool_start");
      const te = events.find((e) => e.type === "tool_end");
      assert.equal(ts.tool, "ls");
      assert.equal(te.callId, ts.callId);
      assert.ok(events.some((e) => e.type === "usage"));
      assert.ok(!events.some((e) => e.type === "message"), "messages are left out");
      const result = lines.find((l) => l.type === "result" && l.result.id === id)!;
      assert.equal(result.result.status, "ok");
      assert.equal(result.result.text, "the answer");
      assert.ok(lines.indexOf(result) < lines.length - 1);
    }
    for (const l of lines) {
      assert.ok(["run_start", "event", "result", "run_progress", "run_result"].includes(l.type));
    }
    // Where the run stands, last before run_result: both done, their tokens counted.
    const progress = lines.at(-2)!;
    assert.equal(progress.type, "run_progress");
    assert.deepEqual(
      [progress.done, progress.running, progress.queued, progress.waiting],
      [2, 0, 0, 0],
    );
    const used = lines.filter((l) => l.type === "event" && l.event.type === "usage")
      .reduce((n, l) => n + l.event.input, 0);
    assert.equal(progress.tokens.input, used);
    assert.deepEqual(progress.tasks.map((t: Rec) => [t.id, t.step, t.turns]), [
      ["a", "done", 2],
      ["b", "done", 2],
    ]);
  });

  test("a refusal before any task starts is a run_result with the error", async () => {
    const w = world();
    const r = await runXcsh(["run", "nobody", "--output-format", "stream-json", "go"], {
      cwd: w.cwd,
      home: w.home,
    });
    assert.equal(r.code, 2);
    const lines = r.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
    assert.equal(lines.length, 1);
    assert.equal(lines[0].type, "run_result");
    assert.equal(lines[0].kind, "unknown");
    assert.match(lines[0].error, /Unknown agent "nobody"/);
    assert.equal(lines[0].exitCode, 2);
  });

  test("a reader that goes away (| head -1): the run ends its children, no stack trace", async () => {
    const w = world();
    // "slow" sits in a long command; "quick" answers a moment later, and
    // writing its records finds the reader gone.
    respond((req) =>
      assignmentOf(req) === "slow"
        ? (isAfterTool(req)
          ? { text: "late" }
          : { toolCalls: [{ name: "bash", args: { command: "sleep 300" } }] })
        : { text: "quick done", delayMs: 1500 }
    );
    const child = spawn(
      XCSH,
      [
        "run",
        "quick_task",
        "--output-format",
        "stream-json",
        "--task",
        "s=slow",
        "--task",
        "q=quick",
      ],
      { cwd: w.cwd, env: cleanEnv(w.home), stdio: ["ignore", "pipe", "pipe"] },
    );
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const exited = new Promise<number | null>((r) => child.on("close", (code) => r(code)));
    const killer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    // Read until the long command has started, then go away as `head` does.
    await new Promise<void>((resolve) => {
      let seen = "";
      child.stdout.setEncoding("utf8").on("data", (d: string) => {
        seen += d;
        if (seen.includes('"tool_start"')) {
          child.stdout.destroy();
          resolve();
        }
      });
    });
    const code = await exited;
    clearTimeout(killer);
    assert.equal(code, 1, "ended by xcsh itself, as cancelled");
    assert.doesNotMatch(stderr, /\n\s+at /, stderr);
    assert.match(stderr, /task s was cancelled/);
    assert.deepEqual(await waitForNoProcessesIn(w.root), []);
  });
});

describe("what the result says", () => {
  test("json carries model, requestedModel, turns; a fallback says why", async () => {
    const w = world({ pinned: agentMd("pinned", "model: sonnet\n") });
    respond(readThenAnswer);
    const r = await runXcsh(["run", "pinned", "--json", "go"], {
      cwd: w.cwd,
      home: w.home,
      env: { ANTHROPIC_API_KEY: undefined },
    });
    assert.equal(r.code, 0, r.stderr);
    const res = JSON.parse(r.stdout).results[0];
    assert.equal(res.model, "local/mock-large");
    assert.equal(res.requestedModel, "sonnet");
    assert.match(res.fallback.reason, /sonnet unavailable \(ANTHROPIC_API_KEY not set\)/);
    assert.equal(res.turns, 2);

    const plain = await runXcsh(["run", "quick_task", "--json", "--model", "local/mock-x", "go"], {
      cwd: w.cwd,
      home: w.home,
    });
    const p = JSON.parse(plain.stdout).results[0];
    assert.equal(p.model, "local/mock-x");
    assert.equal(p.requestedModel, "local/mock-x");
    assert.equal(p.fallback, undefined);
  });
});

describe("cost", () => {
  test("priced at list price for a known model, 0 locally, null with a reason otherwise", async () => {
    const extra =
      `  anth: { type: anthropic, baseURL: "${server.url}/v1", apiKeyEnv: TEST_ANTH_KEY }\n` +
      `  oai: { type: openai, baseURL: "${server.url}/v1", apiKeyEnv: TEST_OAI_KEY }\n`;
    const w = makeWorld(
      localConfig(server.url).replace(/(providers:\n {2}local: [^\n]*\n)/, `$1${extra}`),
    );
    harness.keep(w);
    respond(() => ({ text: "ok", usage: { input: 1_000_000, output: 100_000 } }));
    const env = { TEST_ANTH_KEY: "k1", TEST_OAI_KEY: "k2" };
    const run = async (model: string) => {
      const r = await runXcsh(["run", "quick_task", "--json", "--model", model, "go"], {
        cwd: w.cwd,
        home: w.home,
        env,
      });
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(r.stdout).results[0];
    };
    const priced = await run("anth/claude-sonnet-4-5");
    // Claude Sonnet 4.5: $3 per million input tokens (over 200k: $6), $15 (22.50) output.
    assert.ok(Math.abs(priced.costUSD - (6 + 2.25)) < 1e-9, JSON.stringify(priced));
    const local = await run("local/mock-small");
    assert.equal(local.costUSD, 0);
    const unknown = await run("oai/gpt-unheard-of-9");
    assert.equal(unknown.costUSD, null);
    assert.match(unknown.costNote, /no price is known for openai\/gpt-unheard-of-9/);
  });
});

describe("--max-turns", () => {
  test("a task that reaches it ends with status max_turns, exit 1", async () => {
    const w = world();
    respond(() => ({ toolCalls: [{ name: "ls", args: { path: "." } }] }));
    server.requests.length = 0;
    const r = await runXcsh(["run", "quick_task", "--json", "--max-turns", "2", "go"], {
      cwd: w.cwd,
      home: w.home,
    });
    assert.equal(r.code, 1, r.stderr);
    const res = JSON.parse(r.stdout).results[0];
    assert.equal(res.status, "max_turns");
    assert.match(res.error, /turn limit \(2 model calls\)/);
    assert.equal(server.requests.length, 2);
    const text = await runXcsh(["run", "quick_task", "--max-turns", "1", "go"], {
      cwd: w.cwd,
      home: w.home,
    });
    assert.equal(text.code, 1);
    assert.match(text.stderr, /task 0-quick_task stopped at its turn limit/);
  });

  test("0, -1 and words are usage errors naming the flag", async () => {
    const w = world();
    for (const bad of ["0", "-1", "two", "1.5"]) {
      const r = await runXcsh(["run", "quick_task", `--max-turns=${bad}`, "go"], {
        cwd: w.cwd,
        home: w.home,
      });
      assert.equal(r.code, 2, bad);
      assert.match(r.stderr, /--max-turns: expected a whole number of model calls ≥ 1/);
    }
  });
});

describe("bad --output-format", () => {
  test("yaml: exit 2 naming the accepted values", async () => {
    const w = world();
    const r = await runXcsh(["run", "quick_task", "--output-format", "yaml", "go"], {
      cwd: w.cwd,
      home: w.home,
    });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--output-format: expected text, json, stream-json, got "yaml"/);
    assert.equal(r.stderr.trim().split("\n").length, 1);
  });
});

describe("stdin with a prompt", () => {
  test("stdin follows the prompt in a fenced block; '-' reads stdin alone", async () => {
    const w = world();
    respond(() => ({ text: "ok" }));
    server.requests.length = 0;
    const r = await runXcsh(["run", "quick_task", "review", "this"], {
      cwd: w.cwd,
      home: w.home,
      stdin: "diff --git a/x b/x\n+added\n",
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      assignmentOf(server.requests[0]),
      "review this\n\n```stdin\ndiff --git a/x b/x\n+added\n```",
    );
    server.requests.length = 0;
    const dash = await runXcsh(["run", "quick_task", "-"], {
      cwd: w.cwd,
      home: w.home,
      stdin: "only stdin",
    });
    assert.equal(dash.code, 0, dash.stderr);
    assert.equal(assignmentOf(server.requests[0]), "only stdin");
  });

  test("binary stdin, stdin over the cap and an envelope over its limit are refused", async () => {
    const w = world();
    server.requests.length = 0;
    const bin = await runXcsh(["run", "quick_task", "look"], {
      cwd: w.cwd,
      home: w.home,
      stdin: "PK\u0003\u0004\u0000\u0000binary",
    });
    assert.equal(bin.code, 2);
    assert.match(bin.stderr, /^xcsh: run: stdin is binary \(a NUL byte at offset 4\); pass text$/m);
    const big = await runXcsh(["run", "quick_task", "look"], {
      cwd: w.cwd,
      home: w.home,
      stdin: "x".repeat(64 * 1024 * 1024 + 1),
    });
    assert.equal(big.code, 2);
    assert.match(big.stderr, /stdin is over 64 MiB, the most xcsh run reads/);
    const envelope = await runXcsh(["run", "quick_task", "look"], {
      cwd: w.cwd,
      home: w.home,
      stdin: "x".repeat(17 * 1024 * 1024),
    });
    assert.equal(envelope.code, 2);
    assert.match(envelope.stderr, /the task envelope is 17\.0 MiB, over the 16\.0 MiB limit/);
    assert.equal(server.requests.length, 0, "no model call");
  });
});
