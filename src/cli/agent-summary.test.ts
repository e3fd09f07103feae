// What a listing shows of an agent: the lead fields first in their order,
// every other field it has after them, never its prompt or the left-out ones.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { agentSummary, SUMMARY_LEAD, SUMMARY_LEFT_OUT } from "./agent-summary.ts";
import type { AgentDefinition } from "../types.ts";

const agent: AgentDefinition = {
  output: { type: "object" },
  systemPrompt: "You look.",
  temperature: 0.2,
  tools: ["read", "submit_result"],
  name: "scout",
  description: "Looks",
  source: "project",
  family: "claude",
  filePath: "/p/.claude/agents/scout.md",
  writes: ["src/**"],
  launcher: "box",
  isolation: "worktree",
  accept: [{ kind: "cmd", name: "tests", cmd: "npm test" }],
  acceptRetries: 2,
  remote: { cardUrl: "https://x/card" },
  verbosity: "low",
};

describe("agentSummary", () => {
  test("the lead fields in their order, without the prompt and the left-out fields", () => {
    assert.deepEqual(Object.keys(agentSummary(agent)), [
      "name",
      "description",
      "source",
      "family",
      "filePath",
      "tools",
      "temperature",
      "verbosity",
      "output",
    ]);
    assert.equal(agentSummary(agent).tools, agent.tools);
  });

  test("a field the lead does not name follows it, by name", () => {
    const more = { ...agent, zeta: 1, alpha: [] } as AgentDefinition;
    assert.deepEqual(Object.keys(agentSummary(more)).slice(-3), ["output", "alpha", "zeta"]);
  });

  test("an absent field is not listed", () => {
    const bare = { ...agent, tools: undefined } as AgentDefinition;
    assert.equal("tools" in agentSummary(bare), false);
  });

  test("no field is both led with and left out", () => {
    assert.deepEqual(SUMMARY_LEAD.filter((k) => SUMMARY_LEFT_OUT.includes(k)), []);
  });
});
