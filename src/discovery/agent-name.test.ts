// Unit tests for the agent-name rule.

import { test } from "node:test";
import assert from "node:assert/strict";
import { AGENT_NAME_MAX, agentNameProblem, isAgentName } from "./agent-name.ts";

test("the ecosystems' names are agent names", () => {
  for (const n of ["explore", "code-reviewer", "pr_explorer", "toolkit:rev", "v1.2", "A1"]) {
    assert.equal(isAgentName(n), true, n);
    assert.equal(agentNameProblem(n), undefined, n);
  }
});

test("shell, path and option characters are not", () => {
  for (
    const n of [
      "",
      "rev$(id)",
      "rev`id`",
      "rev;id",
      "rev\nid",
      "rev id",
      "a,b",
      "-rev",
      ".rev",
      "..",
      "rev/x",
      "rev*",
      "rev'x",
      "é",
    ]
  ) {
    assert.equal(isAgentName(n), false, JSON.stringify(n));
    assert.match(agentNameProblem(n)!, /^'name' may hold only letters, digits/);
  }
});

test("the length is capped", () => {
  assert.equal(isAgentName("a".repeat(AGENT_NAME_MAX)), true);
  assert.match(agentNameProblem("a".repeat(AGENT_NAME_MAX + 1))!, /over the limit of 128/);
});

test("a control character is shown, not written", () => {
  assert.ok(!agentNameProblem("rev\u001b[2Jx")!.includes("\u001b"));
});
