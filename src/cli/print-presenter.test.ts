// Unit tests for how `xcsh -p` prints a run and reports a task --max-budget-usd stopped.
import { test } from "node:test";
import assert from "node:assert/strict";
import { PrintPresenter } from "./print-presenter.ts";
import type { PreparedTask } from "../runner/task-runner.ts";
import type { TaskResult, XcshConfig } from "../types.ts";

const config = {} as XcshConfig;
const task = {
  envelope: { cwd: "/p", model: "anth/m", toolSet: { tools: ["read", "submit_result"] } },
  session: { id: "s1" },
} as unknown as PreparedTask;
const usage = {
  type: "usage",
  id: "t",
  input: 10,
  output: 1,
  cacheRead: 0,
  cacheWrite: 0,
} as const;

function presenter(format: "json" | "stream-json") {
  const lines: string[] = [];
  let aborted = 0;
  const p = new PrintPresenter({
    format,
    partial: true,
    cwd: "/p",
    agent: "task",
    write: (l) => lines.push(l),
  });
  p.begin({ config, tasks: [task], abort: () => aborted++ });
  return { p, lines, aborted: () => aborted };
}

test("a task the budget stopped: error_max_budget_usd, exit 1, the reason in result", () => {
  const { p, lines } = presenter("json");
  p.event("t", usage);
  const stopped: TaskResult = {
    id: "t",
    agent: "task",
    status: "budget",
    error: "stopped by the run's budget: the run's budget of 1 model requests is spent",
  };
  assert.equal(p.end([stopped]), 1);
  const out = JSON.parse(lines.at(-1)!);
  assert.equal(out.subtype, "error_max_budget_usd");
  assert.equal(out.is_error, true);
  assert.match(out.result, /run's budget/);
  assert.equal(out.num_turns, 1);
});

test("another failure is not a budget stop", () => {
  const { p, lines } = presenter("json");
  assert.equal(p.end([{ id: "t", agent: "task", status: "cancelled", error: "cancelled" }]), 1);
  assert.equal(JSON.parse(lines.at(-1)!).subtype, "error_during_execution");
});

test("stream-json: init first, then messages, partial text, the result last", () => {
  const { p, lines } = presenter("stream-json");
  p.event("t", { type: "text", id: "t", delta: "Hi" });
  p.event("t", {
    type: "message",
    id: "t",
    message: { role: "assistant", content: [{ type: "text", text: "Hi" }] },
  });
  assert.equal(p.end([{ id: "t", agent: "task", status: "ok", text: "Hi", session: "s1" }]), 0);
  const types = lines.map((l) => JSON.parse(l).type);
  assert.deepEqual(types, ["system", "stream_event", "assistant", "result"]);
  assert.equal(JSON.parse(lines[0]).session_id, "s1");
  assert.deepEqual(JSON.parse(lines[0]).tools, ["Read", "submit_result"]);
});

test("json prints only the result; a refusal is a result with is_error, exit 1", () => {
  const { p, lines } = presenter("json");
  p.event("t", { type: "text", id: "t", delta: "Hi" });
  assert.equal(lines.length, 0);
  assert.equal(p.refused("Unknown agent", "unknown"), 1);
  assert.equal(JSON.parse(lines[0]).is_error, true);
});
