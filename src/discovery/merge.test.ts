// Unit tests for the merge rule: first wins on the exact,
// case-sensitive name; losers are kept with their winner; order is the
// order of first appearance; getAgent is an exact lookup.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { getAgent, mergeAgents } from "./merge.ts";
import type { AgentDefinition } from "../types.ts";

function agent(name: string, filePath: string): AgentDefinition {
  return {
    name,
    description: `${name} from ${filePath}`,
    systemPrompt: "",
    source: "project",
    family: "xcsh",
    filePath,
  };
}

describe("mergeAgents", () => {
  test("first group wins; later groups keep their order; losers name their winner", () => {
    const p = [agent("shared", "p/shared"), agent("task", "p/task")];
    const u = [agent("Task", "u/Task"), agent("shared", "u/shared"), agent("mine", "u/mine")];
    const bundled = [agent("explore", "b/explore"), agent("task", "b/task")];
    const { agents, shadowed } = mergeAgents([p, u, bundled]);
    assert.deepEqual(agents.map((a) => a.filePath), [
      "p/shared",
      "p/task",
      "u/Task",
      "u/mine",
      "b/explore",
    ]);
    assert.deepEqual(shadowed.map((s) => [s.agent.filePath, s.shadowedBy.filePath]), [
      ["u/shared", "p/shared"],
      ["b/task", "p/task"],
    ]);
    // Winners are the same objects as listed, so callers can compare by identity.
    assert.equal(shadowed[0].shadowedBy, agents[0]);
  });

  test("two definitions in one group: the earlier wins", () => {
    const { agents, shadowed } = mergeAgents([[agent("dup", "a"), agent("dup", "b")]]);
    assert.deepEqual(agents.map((a) => a.filePath), ["a"]);
    assert.equal(shadowed[0].agent.filePath, "b");
  });

  test("empty groups and no groups", () => {
    assert.deepEqual(mergeAgents([]), { agents: [], shadowed: [] });
    assert.deepEqual(mergeAgents([[], []]), { agents: [], shadowed: [] });
  });

  test("works for anything named (commands)", () => {
    const r = mergeAgents([[{ name: "init", n: 1 }], [{ name: "init", n: 2 }]]);
    assert.deepEqual(r.agents, [{ name: "init", n: 1 }]);
  });

  test("for any groups: names unique, nothing lost, each winner is the first of its name", () => {
    const name = fc.constantFrom("a", "A", "b", "task", "Task", "t\u00e2sk");
    fc.assert(
      fc.property(fc.array(fc.array(name, { maxLength: 6 }), { maxLength: 5 }), (groups) => {
        let i = 0;
        const tagged = groups.map((g) => g.map((n) => ({ name: n, i: i++ })));
        const flat = tagged.flat();
        const { agents, shadowed } = mergeAgents(tagged);
        assert.equal(new Set(agents.map((a) => a.name)).size, agents.length);
        assert.equal(agents.length + shadowed.length, flat.length);
        for (const a of agents) assert.equal(flat.find((x) => x.name === a.name), a);
        for (const s of shadowed) {
          assert.equal(s.shadowedBy.name, s.agent.name);
          assert.ok(s.shadowedBy.i < s.agent.i);
        }
        // Winners keep the order of first appearance.
        assert.deepEqual(agents.map((a) => a.i), [...agents.map((a) => a.i)].sort((x, y) => x - y));
      }),
    );
  });
});

describe("getAgent", () => {
  const list = [agent("Task", "u/Task"), agent("task", "p/task")];
  test("exact and case-sensitive", () => {
    assert.equal(getAgent(list, "Task")!.filePath, "u/Task");
    assert.equal(getAgent(list, "task")!.filePath, "p/task");
    assert.equal(getAgent(list, "TASK"), undefined);
    assert.equal(getAgent(list, "tas"), undefined);
    assert.equal(getAgent(list, " task"), undefined);
  });
});
