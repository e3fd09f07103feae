// Unit tests for what `xcsh -p`'s tool and prompt flags do to the agent: they only narrow.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { UsageError } from "./errors.ts";
import { editAgent, readAgentEdits, splitToolFlag } from "./print-agent.ts";
import type { AgentDefinition } from "../types.ts";

const base: AgentDefinition = {
  name: "task",
  description: "d",
  systemPrompt: "You work.",
  source: "bundled",
} as AgentDefinition;

test("splitToolFlag: commas and spaces outside parentheses", () => {
  assert.deepEqual(splitToolFlag("Read,Bash(git diff *) Grep"), [
    "Read",
    "Bash(git diff *)",
    "Grep",
  ]);
  assert.deepEqual(splitToolFlag(" mcp__a  mcp__b,"), ["mcp__a", "mcp__b"]);
});

describe("editAgent", () => {
  test("--allowedTools on an agent with every tool: those, the read-only ones, the rules", () => {
    const edits = readAgentEdits({ allowed: ["Bash(git diff *)", "Edit"], disallowed: [] });
    const a = editAgent(base, edits);
    assert.deepEqual(
      [...a.tools!].sort(),
      ["bash", "edit", "find", "grep", "ls", "read", "submit_result"],
    );
    assert.deepEqual(a.permissions?.allow.map((r) => r.text), ["Bash(git diff *)"]);
  });

  test("--allowedTools never adds a tool the agent lacks, nor loosens its own rules", () => {
    const own: AgentDefinition = {
      ...base,
      tools: ["read", "bash", "submit_result"],
      permissions: {
        allow: [{ text: "Bash(npm test)", family: "bash", tool: "bash", pattern: "npm test" }],
        deny: [],
      },
    };
    const a = editAgent(own, readAgentEdits({ allowed: ["Bash(rm *),Write"], disallowed: [] }));
    assert.deepEqual(a.tools, ["read", "bash", "submit_result"]);
    assert.deepEqual(a.permissions?.allow.map((r) => r.text), ["Bash(npm test)"]);
  });

  test("--disallowedTools adds to what the agent refuses", () => {
    const own: AgentDefinition = { ...base, disallowedTools: ["web_fetch"] };
    const a = editAgent(
      own,
      readAgentEdits({ allowed: [], disallowed: ["Bash", "Read(./.env)"] }),
    );
    assert.deepEqual(a.disallowedTools, ["web_fetch", "bash"]);
    assert.deepEqual(a.permissions?.deny.map((r) => r.text), ["Read(./.env)"]);
    assert.equal(a.tools, undefined);
  });

  test("--system-prompt replaces, --append-system-prompt adds at the end", () => {
    const replaced = editAgent(
      base,
      readAgentEdits({
        allowed: [],
        disallowed: [],
        systemPrompt: "New.",
        appendSystemPrompt: "More.",
      }),
    );
    assert.equal(replaced.systemPrompt, "New.\n\nMore.");
    const appended = editAgent(
      base,
      readAgentEdits({ allowed: [], disallowed: [], appendSystemPrompt: "More." }),
    );
    assert.equal(appended.systemPrompt, "You work.\n\nMore.");
  });

  test("no flags: the agent as it was", () => {
    assert.deepEqual(editAgent(base, readAgentEdits({ allowed: [], disallowed: [] })), base);
  });

  test("a list that cannot be read is a usage error naming the flag", () => {
    assert.throws(
      () => readAgentEdits({ allowed: ["Bash(git"], disallowed: [] }),
      (e: unknown) => e instanceof UsageError && /^--allowedTools: /.test(e.message),
    );
    assert.throws(
      () => readAgentEdits({ allowed: [], disallowed: ["Read("] }),
      (e: unknown) => e instanceof UsageError && /^--disallowedTools: /.test(e.message),
    );
  });
});
