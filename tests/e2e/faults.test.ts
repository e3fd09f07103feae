// The fault matrix of docs/running.md, one row per test: each fault between
// `xcsh run`, its children and the model server, what the user sees, the
// exit code, and that no process is left behind. Through the built binary
// against the local model server (OpenAI wire format).
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import process from "node:process";
import { runXcsh, XCSH } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import type { Turn } from "../support/model-server.ts";
import { childPids, waitForNoProcessesIn, type World } from "../support/world.ts";

const harness = modelHarness();
const { server } = harness;
const world = (config?: string) => harness.world({ config });

/** Fast retries, and a short silence limit for the stall row. */
const FAST = { XCSH_RETRY_BASE_MS: "20", XCSH_MODEL_IDLE_TIMEOUT_MS: "700" };

interface Row {
  fault: string;
  turns: Turn[];
  code: number;
  stdout?: string;
  stderr?: RegExp;
}

const ok: Turn = { text: "recovered" };
const err500: Turn = { fault: "500" };

const MODEL_FAULTS: Row[] = [
  { fault: "HTTP 500 once: retried", turns: [err500, ok], code: 0, stdout: "recovered\n" },
  {
    fault: "HTTP 500 every time: named error after the retries",
    turns: [err500, err500, err500, err500],
    code: 1,
    stderr:
      /task 0-quick_task failed: model call failed: local\/mock-small at http:\/\/127\.0\.0\.1:\d+\/v1: .*500.*\(gave up after 4 attempts\)/,
  },
  {
    fault: "HTTP 429 with retry-after: waits, retried",
    turns: [{ fault: "429", retryAfter: 1 }, ok],
    code: 0,
    stdout: "recovered\n",
  },
  {
    fault: "stalled response: retried after the silence limit",
    turns: [{ fault: "stall" }, ok],
    code: 0,
    stdout: "recovered\n",
  },
  {
    fault: "malformed SSE: retried",
    turns: [{ fault: "malformed-sse" }, ok],
    code: 0,
    stdout: "recovered\n",
  },
  {
    fault: "disconnect mid-stream: retried",
    turns: [{ fault: "disconnect" }, ok],
    code: 0,
    stdout: "recovered\n",
  },
];

describe("model faults", () => {
  for (const row of MODEL_FAULTS) {
    test(row.fault, async () => {
      const w = world();
      server.script(row.turns);
      server.requests.length = 0;
      const r = await runXcsh(["run", "quick_task", "go"], { cwd: w.cwd, home: w.home, env: FAST });
      assert.equal(r.code, row.code, r.stderr);
      if (row.stdout !== undefined) assert.equal(r.stdout, row.stdout);
      if (row.stderr) assert.match(r.stderr, row.stderr);
      assert.doesNotMatch(r.stderr, /^\s+at /m, "no stack trace");
      assert.equal(server.remaining(), 0, "every scripted turn was used");
      assert.deepEqual(await waitForNoProcessesIn(w.root), []);
    });
  }

  test("connection refused: named error after the retries", async () => {
    const w = world(
      'providers:\n  local: { type: openai-compatible, baseURL: "http://127.0.0.1:9/v1" }\nmodels:\n  default: local/m\n',
    );
    const r = await runXcsh(["run", "task", "go"], { cwd: w.cwd, home: w.home, env: FAST });
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /model call failed: local\/m at http:\/\/127\.0\.0\.1:9\/v1: .*ECONNREFUSED.*\(gave up after 4 attempts\)/,
    );
    assert.deepEqual(await waitForNoProcessesIn(w.root), []);
  });
});

/** Starts `xcsh run` on a stalling model and waits until its child is asking. */
async function stalledRun(w: World, args: string[]) {
  server.script([]);
  server.requests.length = 0;
  server.push({ fault: "stall" });
  const proc = spawn(XCSH, args, {
    cwd: w.cwd,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: w.home },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  proc.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  proc.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const done = new Promise<number | null>((resolve) => proc.on("close", (code) => resolve(code)));
  const until = Date.now() + 20_000;
  while (server.requests.length < 1 && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.equal(server.requests.length, 1, "the child reached the model");
  const [child] = childPids(w.root);
  assert.ok(child, "the child process is alive");
  return { pid: proc.pid!, child, done, out: () => ({ stdout, stderr }) };
}

describe("process faults", () => {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    test(`${signal} to xcsh run: the task is cancelled, nothing is left`, async () => {
      const w = world();
      const run = await stalledRun(w, ["run", "quick_task", "--json", "wait"]);
      // process.kill, not ChildProcess.kill: Deno then reports the real exit code.
      process.kill(run.pid, signal);
      assert.equal(await run.done, 1);
      const doc = JSON.parse(run.out().stdout);
      assert.equal(doc.results[0].status, "cancelled");
      assert.deepEqual(await waitForNoProcessesIn(w.root), []);
    });
  }

  for (const signal of ["SIGKILL", "SIGHUP"] as const) {
    test(`${signal} to xcsh run: its children notice and end`, async () => {
      const w = world();
      const run = await stalledRun(w, ["run", "quick_task", "wait"]);
      process.kill(run.pid, signal);
      await run.done;
      assert.deepEqual(await waitForNoProcessesIn(w.root), [], "no orphan left");
    });
  }

  test("child crash: reported as failed, with how it died", async () => {
    const w = world();
    const run = await stalledRun(w, ["run", "quick_task", "wait"]);
    process.kill(run.child, "SIGKILL");
    assert.equal(await run.done, 1);
    assert.match(
      run.out().stderr,
      /task 0-quick_task failed: the child process was killed by SIGKILL without a result/,
    );
    assert.deepEqual(await waitForNoProcessesIn(w.root), []);
  });

  test("timeout: the task fails naming the limit, its processes are ended", async () => {
    const w = world();
    const run = await stalledRun(w, ["run", "quick_task", "--timeout", "1", "wait"]);
    assert.equal(await run.done, 1);
    assert.match(
      run.out().stderr,
      /task 0-quick_task failed: timed out after 1 s; the task's processes were ended/,
    );
    assert.deepEqual(await waitForNoProcessesIn(w.root), []);
  });
});
