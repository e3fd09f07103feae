import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { AgentDefinition } from "../types.ts";
import {
  MAX_SUMMARY,
  MAX_TASK_DESCRIPTION,
  summarizeDescription,
  taskToolDescription,
} from "./task-description.ts";

const CLAUDE_SHAPED =
  "Use this agent when you need a thorough review of recently written code for security " +
  "and style.\\n\\nExamples:\\n<example>\\nContext: The user has just added a login form.\\n" +
  'user: "I finished the login handler"\\nassistant: "I\'ll use the code-reviewer agent to ' +
  'review it."\\n<commentary>Fresh code: review it.</commentary>\\n</example>';

function agent(name: string, description: string, extra: Partial<AgentDefinition> = {}) {
  return {
    name,
    description,
    systemPrompt: "x",
    source: "project",
    family: "claude",
    ...extra,
  } as AgentDefinition;
}

describe("summarizeDescription", () => {
  const rows: [string, string][] = [
    ["Finds files", "Finds files"],
    [
      CLAUDE_SHAPED,
      "Use this agent when you need a thorough review of recently written code for security and style.",
    ],
    ["Line one\nline two", "Line one line two"],
    ["Reviews PRs <example>user: x</example> and more", "Reviews PRs and more"],
    ["Example: do this", "Example: do this"],
  ];
  for (const [input, expected] of rows) {
    test(JSON.stringify(input.slice(0, 40)), () => {
      assert.equal(summarizeDescription(input), expected);
    });
  }
  test("long text is cut at a word with an ellipsis", () => {
    const s = summarizeDescription("word ".repeat(100));
    assert.ok(s.length <= MAX_SUMMARY, String(s.length));
    assert.match(s, /word…$/);
  });
});

describe("taskToolDescription", () => {
  test("a few agents are all listed with their tools", () => {
    const d = taskToolDescription([
      agent("a", "Alpha", { tools: ["read", "submit_result"] }),
      agent("b", CLAUDE_SHAPED),
    ]);
    assert.match(d, /^- a: Alpha \(tools: read\)$/m);
    assert.match(d, /^- b: Use this agent when .* style\. \(tools: all tools\)$/m);
    assert.doesNotMatch(d, /more: call/);
  });

  for (const n of [50, 795, 5000]) {
    test(`${n} agents stay within ${MAX_TASK_DESCRIPTION} characters`, () => {
      const agents = Array.from(
        { length: n },
        (_, i) => agent(`agent-${String(i).padStart(4, "0")}`, CLAUDE_SHAPED),
      );
      const d = taskToolDescription(agents);
      assert.ok(d.length <= MAX_TASK_DESCRIPTION, String(d.length));
      const listed = d.split("\n").filter((l) => l.startsWith("- ")).length;
      const more = /^… and (\d+) more: call the `agents` tool/m.exec(d);
      if (listed < n) {
        assert.ok(more, "the rest are counted");
        assert.equal(Number(more[1]) + listed, n);
        assert.ok(listed > 10, `only ${listed} listed`);
      } else assert.equal(more, null);
      // Clients that cut long descriptions keep the way to the full list.
      assert.match(d.slice(0, 2000), /call the `agents` tool/);
    });
  }
});
