// Unit tests for how `xcsh -p` prints a run and keeps --max-budget-usd.
import { test } from "node:test";
import assert from "node:assert/strict";
import { PrintPresenter } from "./print-presenter.ts";
import type { PriceCall } from "../runner/task-cost.ts";
import type { PreparedTask } from "../runner/task-runner.ts";
import type { TaskResult, XcshConfig } from "../types.ts";

const config = {} as XcshConfig;
const task = {
  envelope: { cwd: "/p", model: "anth/m", toolSet: { tools: ["read", "submit_result"] } },
  session: { id: "s1" },
} as unknown as PreparedTask;
/** $0.40 a call, whatever the usage. */
const price: PriceCall = () => ({ ok: true, usd: 0.4 });
const usage = {
  type: "usage",
  id: "t",
  input: 10,
  output: 1,
  cacheRead: 0,
  cacheWrite: 0,
} as const;

function presenter(format: "json" | "stream-json", budgetUSD?: number) {
  const lines: string[] = [];
  let aborted = 0;
  const p = new PrintPresenter({
    format,
    partial: true,
    cwd: "/p",
    agent: "task",
    price,
    ...(budgetUSD !== undefined ? { budgetUSD } : {}),
    write: (l) => lines.push(l),
  });
  p.begin({ config, tasks: [task], abort: () => aborted++ });
  return { p, lines, aborted: () => aborted };
}

test("the budget: the call that passes it stops the task, once", () => {
  const { p, aborted } = presenter("json", 1);
  p.event("t", usage);
  p.event("t", usage);
  assert.equal(aborted(), 0, "$0.80 is within $1");
  p.event("t", usage);
  assert.equal(aborted(), 1, "$1.20 is past it");
  p.event("t", usage);
  assert.equal(aborted(), 1);
});

test("no budget: never stopped", () => {
  const { p, aborted } = presenter("json");
  for (let i = 0; i < 10; i++) p.event("t", usage);
  assert.equal(aborted(), 0);
});

test("a task the budget stopped: error_max_budget_usd, exit 1, the reason in result", () => {
  const { p, lines } = presenter("json", 0.1);
  p.event("t", usage);
  const cancelled: TaskResult = { id: "t", agent: "task", status: "cancelled", error: "cancelled" };
  assert.equal(p.end([cancelled]), 1);
  const out = JSON.parse(lines.at(-1)!);
  assert.equal(out.subtype, "error_max_budget_usd");
  assert.match(out.result, /--max-budget-usd 0\.1/);
  assert.equal(out.num_turns, 1);
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
  assert.deepEqual(JSON.parse(lines[0]).tools, ["read", "submit_result"]);
});

test("json prints only the result; a refusal is a result with is_error, exit 1", () => {
  const { p, lines } = presenter("json");
  p.event("t", { type: "text", id: "t", delta: "Hi" });
  assert.equal(lines.length, 0);
  assert.equal(p.refused("Unknown agent", "unknown"), 1);
  assert.equal(JSON.parse(lines[0]).is_error, true);
});
