// When a child started ahead may serve a task, and what becomes of it otherwise.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { TaskEnvelope } from "../protocol/envelope.ts";
import { spareServes, type SpareTask } from "./spare-child.ts";

const spare = {
  cwd: "/p",
  env: { PATH: "/usr/bin", XCSH_TASK_DEPTH: "1", XCSH_SPAWNS: "", PI_BLOCKED_AGENT: "" },
};

/** A task whose envelope blocks `blocked` and may start `spawns`. */
function task(
  o: {
    blocked?: string;
    spawns?: "*" | string[];
    env?: Record<string, string>;
    cwd?: string;
    launched?: boolean;
    toolSet?: boolean;
  } = {},
): SpareTask {
  const spawns = o.spawns ?? [];
  const envelope = {
    cwd: o.cwd ?? "/p",
    ...(o.toolSet === false ? {} : { toolSet: { tools: ["read"], spawns } }),
    ...(o.blocked !== undefined ? { blockedAgent: o.blocked } : {}),
  } as unknown as TaskEnvelope;
  return {
    envelope,
    env: {
      PATH: "/usr/bin",
      XCSH_TASK_DEPTH: "1",
      XCSH_SPAWNS: spawns === "*" ? "*" : spawns.join(","),
      PI_BLOCKED_AGENT: o.blocked ?? "",
      ...o.env,
    },
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
  });

  test("an envelope that does not carry the spawn right or the blocked agent: not served", () => {
    assert.equal(spareServes(spare, task({ toolSet: false })), false);
    // The task's environment blocks an agent the envelope does not name.
    const t = task({ blocked: "explore" });
    delete (t.envelope as { blockedAgent?: string }).blockedAgent;
    assert.equal(spareServes(spare, t), false);
    // Or a spawn right the envelope's tool set does not give.
    const u = task({ spawns: ["explore"] });
    assert.equal(spareServes(spare, { ...u, env: { ...u.env, XCSH_SPAWNS: "*" } }), false);
  });

  test("a spare whose own blocked agent is not empty serves only an envelope that names one", () => {
    const odd = { ...spare, env: { ...spare.env, PI_BLOCKED_AGENT: "x" } };
    assert.equal(spareServes(odd, task({ spawns: "*" })), false);
    assert.equal(spareServes(odd, task({ blocked: "explore" })), true);
  });
});
