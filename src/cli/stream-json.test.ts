// Unit tests for the stream-json records and a reader that goes away.
import { test } from "node:test";
import assert from "node:assert/strict";
import { StreamJson } from "./stream-json.ts";

test("each record is one JSON line; messages are left out", () => {
  const lines: string[] = [];
  const s = new StreamJson(() => assert.fail("not closed"), (l) => (lines.push(l), true));
  s.runStart("a", [{ id: "t", session: "s" }]);
  s.event({ type: "text", id: "t", delta: "hi\nthere" });
  s.event({ type: "message", id: "t", message: { role: "user", content: "x" } });
  s.result({ id: "t", agent: "a", status: "ok", text: "hi" });
  s.runResult("a", { results: [] }, 0);
  assert.equal(lines.length, 4);
  for (const l of lines) assert.ok(l.endsWith("\n") && !l.slice(0, -1).includes("\n"), l);
  const [start, text, result, end] = lines.map((l) => JSON.parse(l));
  assert.deepEqual(start, {
    type: "run_start",
    version: 1,
    agent: "a",
    tasks: [{ id: "t", session: "s" }],
  });
  assert.deepEqual(text, { type: "event", event: { type: "text", id: "t", delta: "hi\nthere" } });
  assert.equal(result.type, "result");
  assert.match(result.at, /^\d{4}-\d\d-\d\dT/);
  assert.deepEqual(end, { type: "run_result", version: 1, agent: "a", results: [], exitCode: 0 });
});

test("a reader that goes away is told once and gets nothing more", () => {
  let closed = 0;
  let writes = 0;
  const s = new StreamJson(() => closed++, () => (writes++, false));
  s.runStart("a", []);
  s.event({ type: "text", id: "t", delta: "x" });
  s.runResult("a", { error: "e", kind: "usage" }, 2);
  assert.equal(closed, 1);
  assert.equal(writes, 1);
});

test("run_progress carries the budget's spend so far when there is one", () => {
  const lines: string[] = [];
  const s = new StreamJson(() => assert.fail("not closed"), (l) => (lines.push(l), true));
  const snapshot = {
    done: 0,
    running: 1,
    queued: 0,
    waiting: 0,
    tokens: { input: 10, output: 5 },
    costUSD: 0,
    budget: { limits: { usd: 1 }, spent: { usd: 0.25, tokens: 15 } },
    tasks: [],
  };
  s.runProgress(snapshot);
  const { budget: without, ...rest } = snapshot;
  s.runProgress(rest);
  const [withBudget, noBudget] = lines.map((l) => JSON.parse(l));
  assert.equal(withBudget.type, "run_progress");
  assert.deepEqual(withBudget.budget, without);
  assert.equal("budget" in noBudget, false);
});
