// End-to-end: a fan-out against a model server that limits requests per
// minute the way the real APIs do (`tests/support/rate-limits.ts`, a scaled
// minute). Every task ends ok with one answered request: 429s are waited out
// (they never become failed tasks), a child reports what it learns to the
// run as `rate_limit` events, and the run holds tasks for that provider
// before they start (`waiting` events). No wall-clock thresholds: the
// server's own counts and the stream's records are read.
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { runXcsh } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import { isAfterTool } from "../support/world.ts";

// 4 requests per 1.2 s: one every 300 ms, bursts of at most 4.
const harness = modelHarness({
  rateLimits: { requestsPerMinute: 4, minuteMs: 1200 },
  respond: () => ({ text: "done" }),
});
const { server } = harness;

// deno-lint-ignore no-explicit-any
type Rec = Record<string, any>;

describe("a fan-out against a rate-limited provider", () => {
  test("12 tasks at concurrency 6: none fails; the run paces the tasks it holds", async () => {
    const w = harness.world({ extraConfig: "task: { maxConcurrency: 6 }\n" });
    const tasks = Array.from({ length: 12 }, (_, i) => ["--task", `t${i}=job ${i}`]).flat();
    const r = await runXcsh(["run", "task", "--output-format", "stream-json", ...tasks], {
      cwd: w.cwd,
      home: w.home,
    });
    assert.equal(r.code, 0, r.stderr);
    const records: Rec[] = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
    const results = records.filter((x) => x.type === "result").map((x) => x.result);
    assert.equal(results.length, 12);
    for (const res of results) assert.equal(res.status, "ok", JSON.stringify(res));
    assert.equal(server.limited().allowed, 12, "one answered request per task");
    const events = records.filter((x) => x.type === "event").map((x) => x.event);
    const news = events.filter((e) => e.type === "rate_limit");
    assert.ok(news.length > 0, "children reported the limit");
    for (const n of news) {
      assert.equal(n.provider, "local");
      assert.equal(typeof n.pauseUntil, "number");
    }
    const waits = events.filter((e) => e.type === "waiting");
    assert.ok(waits.some((e) => e.reason === "queued"), "tasks past the cap said they queued");
    assert.ok(
      waits.some((e) => e.reason === "rate_limit"),
      "tasks were held for the provider instead of asking it",
    );
    assert.ok(!events.some((e) => e.type === "retry"), "no 429 used up a retry");
    const progress = records.at(-2)!;
    assert.equal(progress.type, "run_progress");
    assert.equal(progress.done, 12);
  });

  test("8 running tasks at once share their pauses: none fails", async () => {
    const w = harness.world({ extraConfig: "task: { maxConcurrency: 8 }\n" });
    harness.respond((req) =>
      isAfterTool(req) ? { text: "done" } : { toolCalls: [{ name: "ls", args: { path: "." } }] }
    );
    try {
      // Let the bucket refill from the test before (4 per 1.2 s).
      await new Promise((r) => setTimeout(r, 1300));
      const before = server.limited();
      const tasks = Array.from({ length: 8 }, (_, i) => ["--task", `t${i}=job ${i}`]).flat();
      const r = await runXcsh(["run", "task", "--output-format", "stream-json", ...tasks], {
        cwd: w.cwd,
        home: w.home,
      });
      assert.equal(r.code, 0, r.stderr);
      const records: Rec[] = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
      const results = records.filter((x) => x.type === "result").map((x) => x.result);
      assert.equal(results.length, 8);
      for (const res of results) assert.equal(res.status, "ok", JSON.stringify(res));
      const after = server.limited();
      const allowed = after.allowed - before.allowed;
      const refused = after.refused - before.refused;
      assert.equal(allowed, 16, "two answered requests per task");
      // None of the 429s turns into a failure or a second answer. (On a slow
      // machine the children may start too far apart to meet the limit at all.)
      if (refused > 0) {
        assert.ok(
          records.some((x) => x.type === "event" && x.event.type === "rate_limit"),
          "children reported the limit",
        );
      }
      // The first burst knows nothing yet: 8 requests meet a bucket of 4. After
      // the first answer the run's top-level process admits every request of
      // the tree by the headers its children report, so later calls rarely
      // meet a 429 (1 to 5 in all over eight runs). When each child paced
      // itself from the pauses pushed down, it was 15 to 21; on its own
      // 429s alone, 27 to 40.
      assert.ok(refused <= 8, `${refused} 429s for 16 answered calls`);
    } finally {
      harness.respond(() => ({ text: "done" }));
    }
  });

  test("the user's maxConcurrentRequests holds for the whole tree, not per child", async () => {
    const w = harness.world({
      config: "providers:\n" +
        `  local: { type: openai-compatible, baseURL: "${server.url}/v1", ` +
        "maxConcurrentRequests: 1 }\n" +
        "models:\n  default: local/mock-large\ntask: { maxConcurrency: 4 }\n",
    });
    // Slow answers: four children at once would overlap if each counted alone.
    harness.respond(() => ({ text: "done", delayMs: 300 }));
    try {
      await new Promise((r) => setTimeout(r, 1300));
      server.resetPeak();
      const tasks = Array.from({ length: 4 }, (_, i) => ["--task", `t${i}=job ${i}`]).flat();
      const r = await runXcsh(["run", "task", "--json", ...tasks], { cwd: w.cwd, home: w.home });
      assert.equal(r.code, 0, r.stderr);
      const doc = JSON.parse(r.stdout);
      assert.deepEqual(doc.results.map((x: Rec) => x.status), ["ok", "ok", "ok", "ok"]);
      assert.equal(server.peakInFlight(), 1, "one request of the tree at a time");
    } finally {
      harness.respond(() => ({ text: "done" }));
    }
  });

  test("the user's requestsPerMinute paces a task's calls before any 429", async () => {
    const w = harness.world({
      config: "providers:\n" +
        `  local: { type: openai-compatible, baseURL: "${server.url}/v1", requestsPerMinute: 20 }\n` +
        "models:\n  default: local/mock-large\n",
    });
    const before = server.limited();
    harness.respond((req) =>
      isAfterTool(req) ? { text: "done" } : { toolCalls: [{ name: "ls", args: { path: "." } }] }
    );
    try {
      // Let the bucket refill from the test before (4 per 1.2 s).
      await new Promise((r) => setTimeout(r, 1300));
      const r = await runXcsh(["run", "task", "--output-format", "stream-json", "look"], {
        cwd: w.cwd,
        home: w.home,
      });
      assert.equal(r.code, 0, r.stderr);
      const events = r.stdout.trim().split("\n").map((l) => JSON.parse(l))
        .filter((x: Rec) => x.type === "event").map((x: Rec) => x.event);
      // Two calls: the second waits for the user's pace (one call per 3 s).
      const waits = events.filter((e: Rec) => e.type === "waiting" && e.reason === "rate_limit");
      assert.equal(waits.length, 1, JSON.stringify(waits));
      assert.ok(waits[0].ms > 0 && waits[0].ms <= 3300, `waited ${waits[0].ms} ms`);
      assert.equal(server.limited().refused, before.refused, "no 429");
    } finally {
      harness.respond(() => ({ text: "done" }));
    }
  });
});
