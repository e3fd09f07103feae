// When a child started ahead may serve a task, and what becomes of it otherwise.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { TaskEnvelope } from "../../protocol/envelope.ts";
import { spareServes, type SpareTask } from "./spare-child.ts";

const spare = { cwd: "/p", env: { PATH: "/usr/bin", XCSH_TASK_DEPTH: "1" } };

/** A task whose envelope blocks `blocked` and may start `spawns`. */
function task(
  o: {
    blocked?: string;
    spawns?: "*" | string[];
    env?: Record<string, string>;
    cwd?: string;
    launched?: boolean;
  } = {},
): SpareTask {
  const envelope = {
    cwd: o.cwd ?? "/p",
    toolSet: { tools: ["read"], spawns: o.spawns ?? [] },
    ...(o.blocked !== undefined ? { blockedAgent: o.blocked } : {}),
  } as unknown as TaskEnvelope;
  return {
    envelope,
    env: { PATH: "/usr/bin", XCSH_TASK_DEPTH: "1", ...o.env },
    launched: o.launched ?? false,
  };
}

describe("spareServes", () => {
  test("the same folder and environment, the envelope carrying the rest: served", () => {
    assert.equal(spareServes(spare, task({ blocked: "explore" })), true);
    assert.equal(spareServes(spare, task({ blocked: "boss", spawns: ["explore"] })), true);
    assert.equal(spareServes(spare, task({ spawns: "*" })), true, "a recursive agent");
  });

  test("another folder, a launcher, another variable or depth: not served", () => {
    assert.equal(spareServes(spare, task({ cwd: "/p/worktree" })), false);
    assert.equal(spareServes(spare, task({ launched: true })), false);
    assert.equal(spareServes(spare, task({ env: { EXTRA: "1" } })), false);
    assert.equal(spareServes(spare, task({ env: { XCSH_TASK_DEPTH: "2" } })), false);
    assert.equal(spareServes(spare, task({ env: { PATH: "/bin" } })), false);
    const fewer = { ...spare, env: { PATH: "/usr/bin" } };
    assert.equal(spareServes(fewer, task()), false, "a variable the spare lacks");
  });
});
