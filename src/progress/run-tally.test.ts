import { test } from "node:test";
import assert from "node:assert/strict";
import { runLine, RunTally, shortCount } from "./run-tally.ts";

const usage = (id: string, input: number, output: number) =>
  ({ type: "usage", id, input, output, cacheRead: 0, cacheWrite: 0 }) as const;

test("the tally follows each task through queued, waiting, tools and done", () => {
  const t = new RunTally();
  for (const id of ["a", "b", "c", "d"]) t.add(id);
  t.event("b", { type: "waiting", id: "b", reason: "queued" });
  t.event("c", { type: "waiting", id: "c", reason: "rate_limit", provider: "p", ms: 500 });
  t.event("a", usage("a", 1000, 200));
  t.event("a", { type: "tool_start", id: "a", callId: "1", tool: "grep", args: {} });
  t.event("d", usage("d", 100, 50));
  t.finish("d", 0.0123);
  let s = t.snapshot();
  assert.deepEqual(
    [s.done, s.running, s.queued, s.waiting],
    [1, 1, 1, 1],
  );
  assert.deepEqual(s.tasks.find((x) => x.id === "a"), {
    id: "a",
    state: "running",
    step: "grep",
    turns: 1,
    tokens: 1200,
  });
  assert.equal(s.tasks.find((x) => x.id === "c")?.step, "waiting on a rate limit");
  assert.equal(
    runLine(s),
    "1 done · 1 running · 1 queued · 1 waiting on a rate limit · 1.4k tokens · $0.01",
  );
  t.event("a", { type: "tool_end", id: "a", callId: "1", tool: "grep", ok: true, summary: "" });
  t.event("c", usage("c", 10, 5));
  s = t.snapshot();
  assert.equal(s.tasks.find((x) => x.id === "a")?.step, "model call");
  assert.equal(s.waiting, 0, "a call that went ends the wait");
  t.event("d", usage("d", 1, 1));
  assert.equal(t.snapshot().tokens.input, 1110, "nothing counts after a task ended");
});

test("short counts", () => {
  assert.equal(shortCount(999), "999");
  assert.equal(shortCount(12_345), "12k");
  assert.equal(shortCount(1_500), "1.5k");
  assert.equal(shortCount(2_500_000), "2.5M");
});

test("under a budget the snapshot and line say what it has counted so far", () => {
  const t = new RunTally();
  t.add("a");
  t.add("b");
  assert.equal(t.snapshot().budget, undefined, "no budget, no field");
  // What the governor has settled: a running task's calls count before it ends.
  const spend = { limits: { usd: 0.5 }, spent: { usd: 0, tokens: 0 } };
  t.budgetFrom(() => spend);
  t.event("a", usage("a", 1000, 200));
  spend.spent = { usd: 0.0412, tokens: 1200 };
  const s = t.snapshot();
  assert.equal(s.running, 2);
  assert.equal(s.done, 0);
  assert.deepEqual(s.budget, { limits: { usd: 0.5 }, spent: { usd: 0.0412, tokens: 1200 } });
  assert.equal(runLine(s), "0 done · 2 running · 1.2k tokens · $0.0412 of $0.50 budget");
  const tokens = { limits: { tokens: 10_000 }, spent: { usd: 0, tokens: 1200 } };
  t.budgetFrom(() => tokens);
  assert.equal(runLine(t.snapshot()), "0 done · 2 running · 1.2k of 10k budget tokens");
});

test("priced calls: each task's dollars so far, and the run's including running tasks", () => {
  const t = new RunTally();
  t.add("a");
  t.add("b");
  t.event("a", { ...usage("a", 1000, 100), costUSD: 0.004 });
  t.event("a", { ...usage("a", 1000, 100), costUSD: 0.006 });
  t.event("b", usage("b", 10, 10)); // not priced (yet)
  let s = t.snapshot();
  assert.equal(s.tasks.find((x) => x.id === "a")?.costUSD, 0.01);
  assert.equal(s.tasks.find((x) => x.id === "b")?.costUSD, undefined);
  assert.ok(Math.abs(s.costUSD - 0.01) < 1e-12);
  // Its own total replaces the running sum once a task ends; an unpriced end counts nothing.
  t.finish("a", 0.0125);
  t.finish("b", null);
  s = t.snapshot();
  assert.equal(s.tasks.find((x) => x.id === "a")?.costUSD, 0.0125);
  assert.equal(s.tasks.find((x) => x.id === "b")?.costUSD, undefined);
  assert.ok(Math.abs(s.costUSD - 0.0125) < 1e-12);
});
