import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  childEnvironment,
  envelopeVariables,
  isProtocolVariable,
  mcpTimeoutMs,
  numberVariable,
  parentPipe,
  readCallerState,
  reportedDepth,
  spawnAllowed,
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
const AGENTS = [
  agent("explore"),
  agent("plan", { spawns: ["explore"] }),
  agent("task", { spawns: "*" }),
];

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
  test("depth + 1, the decided spawns, blocked = its name", () => {
    assert.deepEqual(childEnvironment(AGENTS[1], 0, ["explore"]), {
      XCSH_TASK_DEPTH: "1",
      XCSH_SPAWNS: "explore",
      PI_BLOCKED_AGENT: "plan",
    });
  });
  test("no spawns: an empty XCSH_SPAWNS", () => {
    assert.equal(childEnvironment(AGENTS[2], 1, []).XCSH_SPAWNS, "");
    assert.equal(childEnvironment(AGENTS[2], 0, "*").XCSH_SPAWNS, "*");
    assert.equal(childEnvironment(AGENTS[2], 0, ["a", "b"]).XCSH_SPAWNS, "a,b");
  });
  test("recursive agents are not blocked", () => {
    assert.equal(childEnvironment(agent("loop", { recursive: true }), 0, []).PI_BLOCKED_AGENT, "");
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
  test("spawnAllowed: unset or a list allows, blank denies", () => {
    assert.equal(spawnAllowed({}), true);
    assert.equal(spawnAllowed({ XCSH_SPAWNS: "explore" }), true);
    assert.equal(spawnAllowed({ XCSH_SPAWNS: " " }), false);
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
  test("envelopeVariables: the envelope's spawn right and blocked agent win", () => {
    const toolSet = { spawns: ["a", "b"] };
    assert.deepEqual(envelopeVariables({ toolSet, blockedAgent: "rev" }), {
      XCSH_SPAWNS: "a,b",
      PI_BLOCKED_AGENT: "rev",
    });
    assert.deepEqual(envelopeVariables({ toolSet: { spawns: "*" } }), { XCSH_SPAWNS: "*" });
    assert.deepEqual(envelopeVariables({}), {});
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
