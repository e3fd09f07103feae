// Agents given on the command line in Claude Code's --agents JSON shape.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseSessionAgents, withSessionAgents } from "./session-agents.ts";
import type { AgentDefinition } from "../types.ts";

describe("parseSessionAgents", () => {
  test("tools: [] means no tools, as in Claude Code", () => {
    const r = parseSessionAgents(
      JSON.stringify({ bare: { description: "d", prompt: "p", tools: [] } }),
    );
    assert.ok(r.ok);
    assert.deepEqual(r.agents[0].tools, ["submit_result"]);
  });
  test("Claude Code's shape: name keys, prompt as the system prompt, fields as in a file", () => {
    const r = parseSessionAgents(JSON.stringify({
      reviewer: {
        description: "Reviews code",
        prompt: "You review.",
        tools: ["Read", "Grep", "Bash(git diff:*)"],
        disallowedTools: ["Write"],
        model: "sonnet",
        initialPrompt: "hi",
      },
    }));
    assert.ok(r.ok);
    const [a] = r.agents;
    assert.equal(a.name, "reviewer");
    assert.equal(a.systemPrompt, "You review.");
    assert.deepEqual(a.tools, ["read", "grep", "bash", "submit_result"]);
    assert.deepEqual(a.disallowedTools, ["write"]);
    assert.equal(a.permissions?.allow[0].text, "Bash(git diff:*)");
    assert.deepEqual(a.model, ["sonnet"]);
    assert.deepEqual(a.ignoredFields, ["initialPrompt"]);
    assert.equal(a.source, "user");
  });
  const bad: [string, string, RegExp][] = [
    ["not JSON", "{", /^--agents: not valid JSON/],
    ["not an object", "[]", /must be a JSON object/],
    ["a definition that is no object", '{"a": 1}', /'a' must be an object/],
    ["no prompt", '{"a": {"description": "d"}}', /'a': 'prompt' must be a non-empty string/],
    ["no description", '{"a": {"prompt": "p"}}', /'a': missing required field 'description'/],
    ["a broken rule", '{"a": {"description": "d", "prompt": "p", "tools": "Bash("}}', /unbalanced/],
  ];
  for (const [name, text, error] of bad) {
    test(name, () => {
      const r = parseSessionAgents(text);
      assert.ok(!r.ok);
      assert.match(r.error, error);
    });
  }
});

test("withSessionAgents: the session's agents shadow discovered ones", () => {
  const a = (name: string, description: string): AgentDefinition => ({
    name,
    description,
    systemPrompt: "",
    source: "user",
    family: "claude",
  });
  const merged = withSessionAgents([a("explore", "mine")], [a("plan", "p"), a("explore", "file")]);
  assert.deepEqual(merged.map((x) => `${x.name}:${x.description}`), ["explore:mine", "plan:p"]);
});
