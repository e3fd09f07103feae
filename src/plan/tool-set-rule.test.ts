// The tool-set rule as a table: each row an agent, the mode and depth, and
// the tools, spawns and MCP grant the child gets.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { decideToolSet, type ToolSetInput } from "./tool-set-rule.ts";
import { type McpGrant, mcpToolGranted } from "../tools/mcp/mcp-grant.ts";

const ALL = [
  "read",
  "grep",
  "find",
  "ls",
  "bash",
  "edit",
  "write",
  "submit_result",
  "task",
  "report_finding",
  "web_fetch",
  "web_search",
  "todo",
  "skill",
];
const without = (...names: string[]) => ALL.filter((t) => !names.includes(t));

type Row = [string, ToolSetInput, string[], ("*" | string[])?];
const run = { planMode: false, depthAllowsSpawn: true };

describe("decideToolSet: built-in tools and spawns", () => {
  const rows: Row[] = [
    ["no list: every tool, no task without spawns", { agent: {}, ...run }, without("task"), []],
    ["no list with spawns: every tool", { agent: { spawns: "*" }, ...run }, ALL, "*"],
    ["the list, submit_result added", { agent: { tools: ["grep", "read"] }, ...run }, [
      "read",
      "grep",
      "submit_result",
    ]],
    ["unknown names grant nothing", { agent: { tools: ["read", "frob"] }, ...run }, [
      "read",
      "submit_result",
    ]],
    [
      "depth limit removes task, all-tools agents included",
      { agent: { spawns: "*" }, planMode: false, depthAllowsSpawn: false },
      without("task"),
      [],
    ],
    [
      "plan mode: the read-only core plus listed read-only tools",
      {
        agent: { tools: ["bash", "web_fetch", "todo", "edit"], spawns: "*" },
        ...run,
        planMode: true,
      },
      ["read", "grep", "find", "ls", "submit_result", "web_fetch", "todo"],
      [],
    ],
    [
      "plan mode, all-tools agent: the core only",
      { agent: { spawns: "*" }, ...run, planMode: true },
      ["read", "grep", "find", "ls", "submit_result"],
      [],
    ],
    [
      "disallowedTools removes from the list",
      { agent: { tools: ["read", "write", "bash"], disallowedTools: ["bash"] }, ...run },
      ["read", "write", "submit_result"],
    ],
    [
      "disallowedTools removes from inherited all tools",
      { agent: { disallowedTools: ["bash", "edit", "write"], spawns: "*" }, ...run },
      without("bash", "edit", "write"),
      "*",
    ],
    [
      "disallowedTools task: no spawns",
      { agent: { spawns: "*", disallowedTools: ["task"] }, ...run },
      without("task"),
      [],
    ],
    [
      "disallowedTools after plan mode",
      { agent: { disallowedTools: ["read"] }, ...run, planMode: true },
      ["grep", "find", "ls", "submit_result"],
    ],
    [
      "disallowedTools * leaves submit_result",
      { agent: { disallowedTools: ["*"] }, ...run },
      ["submit_result"],
    ],
    [
      "Agent(x) denied from a list",
      { agent: { tools: ["task"], spawns: ["a", "b"], disallowedAgents: ["b"] }, ...run },
      ["submit_result", "task"],
      ["a"],
    ],
    [
      "Agent(x) denied from *: the other agents",
      {
        agent: { tools: ["task"], spawns: "*", disallowedAgents: ["b"] },
        ...run,
        agentNames: ["a", "b", "c"],
      },
      ["submit_result", "task"],
      ["a", "c"],
    ],
    [
      "every spawn denied: no task tool",
      { agent: { tools: ["task"], spawns: ["b"], disallowedAgents: ["b"] }, ...run },
      ["submit_result"],
      [],
    ],
  ];
  for (const [name, input, tools, spawns] of rows) {
    test(name, () => {
      const set = decideToolSet(input);
      assert.deepEqual(set.tools, tools);
      if (spawns !== undefined) assert.deepEqual(set.spawns, spawns);
    });
  }
});

describe("mcpToolGranted", () => {
  const grant = (input: Partial<ToolSetInput["agent"]>, planMode = false): McpGrant =>
    decideToolSet({ agent: input, planMode, depthAllowsSpawn: true }).mcp;
  const rows: [string, McpGrant, boolean, boolean][] = [
    ["no tool list: every tool", grant({}), false, true],
    ["exact tool", grant({ tools: ["mcp__fs__read"] }), false, true],
    ["other tool of the server", grant({ tools: ["mcp__fs__write"] }), false, false],
    ["server wildcard", grant({ tools: ["mcp__fs__*"] }), false, true],
    ["bare server", grant({ tools: ["mcp__fs"] }), false, true],
    ["every server (Gemini mcp_*)", grant({ tools: ["read", "mcp__*"] }), false, true],
    ["declared, no pattern", grant({ tools: ["read"], mcpServers: [{ name: "fs" }] }), false, true],
    [
      "declared but a pattern narrows it",
      grant({ tools: ["mcp__fs__write"], mcpServers: [{ name: "fs" }] }),
      false,
      false,
    ],
    ["neither", grant({ tools: ["read"] }), false, false],
    ["plan mode drops tools not read-only", grant({ tools: ["mcp__fs__*"] }, true), false, false],
    ["plan mode keeps read-only", grant({ tools: ["mcp__fs__*"] }, true), true, true],
    ["disallowed exact", grant({ disallowedTools: ["mcp__fs__read"] }), false, false],
    ["disallowed server wildcard", grant({ disallowedTools: ["mcp__fs__*"] }), true, false],
    ["disallowed other server", grant({ disallowedTools: ["mcp__gh__*"] }), false, true],
    ["disallowed every MCP tool", grant({ disallowedTools: ["mcp__*"] }), true, false],
    ["disallowed *", grant({ disallowedTools: ["*"] }), true, false],
  ];
  for (const [name, g, readOnly, expected] of rows) {
    test(name, () => assert.equal(mcpToolGranted(g, "fs", "read", readOnly), expected));
  }
});
