import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  blockedAgentOf,
  childEnvironment,
  envelopeVariables,
  isProtocolVariable,
  mcpTimeoutMs,
  numberVariable,
  parentPipe,
  readCallerState,
  reportedDepth,
  travelsOnCommandLine,
} from "./variables.ts";
import type { AgentDefinition } from "../types.ts";

const agent = (name: string, extra: Partial<AgentDefinition> = {}): AgentDefinition => ({
  name,
  description: `${name} agent`,
  systemPrompt: "",
  source: "bundled",
  family: "bundled",
  ...extra,
});

describe("readCallerState", () => {
  const cases: [string, Record<string, string>, unknown][] = [
    ["top level: depth 0, any spawn", {}, { depth: 0, spawns: "*" }],
    ["empty spawns deny all", { XCSH_SPAWNS: "" }, { depth: 0, spawns: [] }],
    ["CSV spawns", { XCSH_SPAWNS: "explore, plan" }, { depth: 0, spawns: ["explore", "plan"] }],
    ["star in CSV", { XCSH_SPAWNS: "explore,*" }, { depth: 0, spawns: "*" }],
    ["depth and blocked", { XCSH_TASK_DEPTH: "1", PI_BLOCKED_AGENT: "plan" }, {
      depth: 1,
      spawns: "*",
      blocked: "plan",
    }],
    ["empty blocked is none", { PI_BLOCKED_AGENT: "" }, { depth: 0, spawns: "*" }],
  ];
  for (const [name, env, expected] of cases) {
    test(name, () => assert.deepEqual(readCallerState(env), { ok: true, state: expected }));
  }
  test("a depth that is not a whole number is an error naming the variable", () => {
    const r = readCallerState({ XCSH_TASK_DEPTH: "two" });
    assert.equal(r.ok, false);
    assert.match(!r.ok ? r.message : "", /XCSH_TASK_DEPTH/);
  });
});

describe("childEnvironment", () => {
  test("the depth counter only: the rights travel in the envelope", () => {
    assert.deepEqual(childEnvironment(0), { XCSH_TASK_DEPTH: "1" });
    assert.deepEqual(childEnvironment(2), { XCSH_TASK_DEPTH: "3" });
  });
});

describe("blockedAgentOf", () => {
  test("the agent itself; recursive agents are not blocked", () => {
    assert.equal(blockedAgentOf(agent("plan")), "plan");
    assert.equal(blockedAgentOf(agent("loop", { recursive: true })), undefined);
  });
});

describe("numberVariable", () => {
  const cases: [string | undefined, "positive" | "non-negative", number][] = [
    [undefined, "positive", 7],
    ["", "non-negative", 7],
    ["  ", "positive", 7],
    ["12", "positive", 12],
    ["0", "positive", 7],
    ["0", "non-negative", 0],
    ["-1", "non-negative", 7],
    ["abc", "non-negative", 7],
    ["Infinity", "positive", 7],
    ["2.5", "non-negative", 2.5],
  ];
  for (const [value, range, expected] of cases) {
    test(`${JSON.stringify(value)} (${range}) reads ${expected}`, () => {
      assert.equal(numberVariable(value, 7, range), expected);
    });
  }
});

describe("the readers", () => {
  test("reportedDepth: a whole depth, a bad one reads 0", () => {
    assert.equal(reportedDepth({ XCSH_TASK_DEPTH: "2" }), 2);
    assert.equal(reportedDepth({ XCSH_TASK_DEPTH: "1.7" }), 1);
    assert.equal(reportedDepth({ XCSH_TASK_DEPTH: "x" }), 0);
    assert.equal(reportedDepth({}), 0);
  });
  test("parentPipe only for 1", () => {
    assert.equal(parentPipe({ XCSH_PARENT_PIPE: "1" }), true);
    assert.equal(parentPipe({ XCSH_PARENT_PIPE: "true" }), false);
  });
  test("mcpTimeoutMs: positive only", () => {
    assert.equal(mcpTimeoutMs({ XCSH_MCP_TIMEOUT_MS: "0" }, 5), 5);
    assert.equal(mcpTimeoutMs({ XCSH_MCP_TIMEOUT_MS: "40" }, 5), 40);
  });
  test("travelsOnCommandLine: not what the envelope carries", () => {
    assert.deepEqual(
      ["XCSH_TASK_DEPTH", "XCSH_PARENT_PIPE", "XCSH_SPAWNS", "PI_BLOCKED_AGENT", "HOME"].map(
        travelsOnCommandLine,
      ),
      [true, true, false, false, false],
    );
  });
  test("envelopeVariables: the envelope's spawn right and blocked agent, always both", () => {
    const toolSet = { spawns: ["a", "b"] };
    assert.deepEqual(envelopeVariables({ toolSet, blockedAgent: "rev" }), {
      XCSH_SPAWNS: "a,b",
      PI_BLOCKED_AGENT: "rev",
    });
    assert.deepEqual(envelopeVariables({ toolSet: { spawns: "*" } }), {
      XCSH_SPAWNS: "*",
      PI_BLOCKED_AGENT: "",
    });
    assert.deepEqual(envelopeVariables({ toolSet: { spawns: [] } }), {
      XCSH_SPAWNS: "",
      PI_BLOCKED_AGENT: "",
    });
    const read = readCallerState({
      XCSH_TASK_DEPTH: "1",
      ...envelopeVariables({ toolSet: { spawns: [] }, blockedAgent: "rev" }),
    });
    assert.deepEqual(read, { ok: true, state: { depth: 1, spawns: [], blocked: "rev" } });
  });
  test("isProtocolVariable: XCSH_* and the blocked agent", () => {
    assert.deepEqual(
      ["XCSH_SPAWNS", "PI_BLOCKED_AGENT", "HOME", "PI_OTHER"].map(isProtocolVariable),
      [true, true, false, false],
    );
  });
});
