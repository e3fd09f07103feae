// The scheduling rule: which calls of one turn run side by side.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { builtinTool, TOOLS } from "../tools/registry.ts";
import { planBatches, runsShared } from "./schedule.ts";

const SHARED = new Set(["read", "grep", "find", "ls", "task"]);
const plan = (names: string[]) => planBatches(names, (n) => SHARED.has(n));

describe("planBatches", () => {
  const rows: { name: string; calls: string[]; batches: string[][] }[] = [
    { name: "no calls, no batches", calls: [], batches: [] },
    { name: "one read", calls: ["read"], batches: [["read"]] },
    {
      name: "consecutive read-only calls share one batch",
      calls: ["read", "grep", "find", "ls"],
      batches: [["read", "grep", "find", "ls"]],
    },
    {
      name: "three task calls run together",
      calls: ["task", "task", "task"],
      batches: [["task", "task", "task"]],
    },
    {
      name: "a write waits for the reads before it and runs alone",
      calls: ["read", "grep", "write", "read", "ls"],
      batches: [["read", "grep"], ["write"], ["read", "ls"]],
    },
    {
      name: "consecutive changing calls each run alone, in order",
      calls: ["edit", "bash", "write"],
      batches: [["edit"], ["bash"], ["write"]],
    },
    {
      name: "submit_result is a barrier",
      calls: ["read", "submit_result", "read"],
      batches: [["read"], ["submit_result"], ["read"]],
    },
    {
      name: "reads and tasks mix in one batch",
      calls: ["task", "read", "task"],
      batches: [["task", "read", "task"]],
    },
  ];
  for (const row of rows) {
    test(row.name, () => assert.deepEqual(plan(row.calls), row.batches));
  }

  test("the flattened batches are the calls in their original order", () => {
    const calls = ["read", "bash", "grep", "grep", "edit", "task", "task", "write"];
    assert.deepEqual(plan(calls).flat(), calls);
  });

  test("the same name twice stays two calls", () => {
    const calls = [{ n: "read", i: 0 }, { n: "read", i: 1 }];
    const out = planBatches(calls, (c) => SHARED.has(c.n));
    assert.equal(out.length, 1);
    assert.deepEqual(out[0].map((c) => c.i), [0, 1]);
  });
});

describe("runsShared (declared beside each tool)", () => {
  test("read, grep, find and ls are read-only; task runs concurrently", () => {
    for (const name of ["read", "grep", "find", "ls", "task"]) {
      assert.equal(runsShared(builtinTool(name)!), true, name);
    }
  });
  test("edit, write, bash and report_finding run alone", () => {
    for (const name of ["edit", "write", "bash", "report_finding"]) {
      assert.equal(runsShared(builtinTool(name)!), false, name);
    }
  });
  test("task is not read-only, only concurrent", () => {
    assert.equal(TOOLS.task.readOnly, false);
    assert.equal(TOOLS.task.concurrent, true);
  });
  test("an unknown tool may share (it only answers an error)", () => {
    assert.equal(runsShared(undefined), true);
  });
});
