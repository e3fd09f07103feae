import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { decideLanes, lanePrefixes, laneWaits } from "./write-lanes.ts";

const field = (i: number) => `tasks[${i}].writes`;

describe("decideLanes", () => {
  test("a task's own lane, else the agent's, else the caller's", () => {
    const r = decideLanes({
      tasks: [{ id: "a", writes: ["src/**"] }, { id: "b" }],
      agent: ["docs/**"],
      taskField: field,
    });
    assert.deepEqual(r, { ok: true, lanes: [["src/**"], ["docs/**"]] });
    const inherited = decideLanes({ tasks: [{ id: "a" }], caller: ["src/**"], taskField: field });
    assert.deepEqual(inherited, { ok: true, lanes: [["src/**"]] });
    const none = decideLanes({ tasks: [{ id: "a" }], taskField: field });
    assert.deepEqual(none, { ok: true, lanes: [undefined] });
  });
  test("a bad lane is one line naming the task and the field", () => {
    const r = decideLanes({ tasks: [{ id: "a", writes: ["../x/**"] }], taskField: field });
    assert.deepEqual(r.ok, false);
    if (!r.ok) {
      assert.equal(
        r.message,
        `task "a": tasks[0].writes: '../x/**' leaves the project ('..'): a lane lies inside the project`,
      );
    }
  });
  test("a delegated lane wider than the caller's is refused", () => {
    const wider = decideLanes({
      tasks: [{ id: "a", writes: ["docs/**"] }],
      caller: ["src/**"],
      taskField: field,
    });
    assert.equal(wider.ok, false);
    if (!wider.ok) {
      assert.match(wider.message, /is not within this task's own write lane \(src\/\*\*\)/);
    }
    const agent = decideLanes({
      tasks: [{ id: "a" }],
      agent: ["**"],
      caller: ["src/**"],
      taskField: field,
    });
    assert.equal(agent.ok, false);
    if (!agent.ok) assert.match(agent.message, /the agent's 'writes'/);
    const narrower = decideLanes({
      tasks: [{ id: "a", writes: ["src/api/**"] }],
      caller: ["src/**"],
      taskField: field,
    });
    assert.deepEqual(narrower, { ok: true, lanes: [["src/api/**"]] });
  });
});

describe("laneWaits", () => {
  test("each task waits for the earlier ones its lane overlaps", () => {
    assert.deepEqual(
      laneWaits([["src/**"], ["docs/**"], ["src/api/**"], ["src/api/x.ts", "docs/a.md"]], false),
      [[], [], [0], [0, 1, 2]],
    );
  });
  test("tasks without a lane wait for nothing, nor does anyone wait for them", () => {
    assert.deepEqual(laneWaits([undefined, ["src/**"], undefined, ["src/**"]], false), [
      [],
      [],
      [],
      [1],
    ]);
  });
  test("tasks each in a worktree of their own never wait", () => {
    assert.deepEqual(laneWaits([["src/**"], ["src/**"]], true), [[], []]);
    assert.deepEqual(laneWaits([["src/**"], ["src/**"], ["src/**"]], [false, true, false]), [
      [],
      [],
      [0],
    ]);
  });
  test("lanePrefixes: what the sandbox binds", () => {
    assert.deepEqual(lanePrefixes(["src/api/**", "src/api/*.ts", "**/*.test.ts"]), ["src/api", ""]);
  });
});
