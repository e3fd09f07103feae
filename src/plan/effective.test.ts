import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  effectiveAgent,
  PLAN_MODE_PREAMBLE,
  resolveOutputSchema,
  withDenyRules,
} from "./effective.ts";
import type { AgentDefinition, PermissionRule } from "../types.ts";

const designer: AgentDefinition = {
  name: "designer",
  description: "d",
  systemPrompt: "Design things.",
  spawns: ["explore"],
  source: "bundled",
  family: "bundled",
};

describe("effectiveAgent", () => {
  test("plan mode: preamble, read-only tools, no spawns", () => {
    const { agent: e, toolSet } = effectiveAgent(designer, {
      planMode: true,
      childDepth: 1,
      maxDepth: 2,
    });
    assert.deepEqual(toolSet.tools, ["read", "grep", "find", "ls", "submit_result"]);
    assert.equal(e.spawns, undefined);
    assert.ok(e.systemPrompt.startsWith(PLAN_MODE_PREAMBLE));
    assert.ok(e.systemPrompt.endsWith("Design things."));
    assert.equal(designer.spawns?.length, 1, "the original is not changed");
  });
  test("at the depth limit the task tool is removed, all-tools agents included", () => {
    const { agent: e, toolSet } = effectiveAgent(designer, {
      planMode: false,
      childDepth: 2,
      maxDepth: 2,
    });
    assert.ok(!toolSet.tools.includes("task") && toolSet.tools.includes("edit"));
    assert.equal(e.spawns, undefined);
    const listed = effectiveAgent({ ...designer, tools: ["read", "task", "submit_result"] }, {
      planMode: false,
      childDepth: 5,
      maxDepth: 2,
    });
    assert.deepEqual(listed.toolSet.tools, ["read", "submit_result"]);
  });
  test("below the limit the agent is unchanged", () => {
    assert.deepEqual(
      effectiveAgent(designer, { planMode: false, childDepth: 1, maxDepth: 2 }).agent,
      designer,
    );
  });
});

describe("deny rules travel down", () => {
  const secret: PermissionRule = {
    text: "Read(secret.txt)",
    family: "read",
    pattern: "secret.txt",
  };
  const rm: PermissionRule = { text: "Bash(rm:*)", family: "bash", pattern: "rm:*" };
  test("a child gets its caller's deny rules added to its own, each once", () => {
    const own = { allow: [{ ...rm, text: "Bash(ls)", pattern: "ls", tool: "bash" }], deny: [rm] };
    const { agent } = effectiveAgent({ ...designer, permissions: own }, {
      planMode: false,
      childDepth: 1,
      maxDepth: 3,
      inheritedDeny: [secret, { ...rm, text: "Bash( rm:* )" }],
    });
    assert.deepEqual(agent.permissions, { allow: own.allow, deny: [rm, secret] });
    assert.deepEqual(own.deny, [rm], "the original is not changed");
  });
  test("an agent without rules gets the inherited ones; nothing inherited changes nothing", () => {
    assert.deepEqual(withDenyRules(undefined, [secret]), { allow: [], deny: [secret] });
    assert.equal(withDenyRules(undefined, []), undefined);
    const e = effectiveAgent(designer, { planMode: false, childDepth: 1, maxDepth: 2 });
    assert.equal(e.agent.permissions, undefined);
  });
});

describe("resolveOutputSchema", () => {
  const a = { type: "object" };
  const c = { type: "string" };
  const p = { type: "number" };
  const cases: [string, unknown, unknown, unknown, unknown][] = [
    ["agent wins", a, c, p, a],
    ["then the call", undefined, c, p, c],
    ["then the parent", undefined, undefined, p, p],
    ["none: null", undefined, undefined, undefined, null],
    ["null counts as absent", null, null, p, p],
  ];
  for (const [name, agent, call, parent, expected] of cases) {
    test(name, () => assert.deepEqual(resolveOutputSchema(agent, call, parent), expected));
  }
});
