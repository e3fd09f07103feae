import { test } from "node:test";
import assert from "node:assert/strict";
import { agentFingerprint, agentFingerprints, changedSince } from "./agent-set.ts";
import type { AgentDefinition } from "../types.ts";

const explore: AgentDefinition = {
  name: "explore",
  description: "Finds things",
  systemPrompt: "Look.",
  tools: ["read", "submit_result"],
  source: "bundled",
  family: "bundled",
};

test("the same definition, keys in another order or undefined fields, matches", () => {
  // The same fields, written in reverse order, plus one left undefined.
  const reordered = Object.fromEntries(Object.entries(explore).reverse()) as AgentDefinition;
  reordered.model = undefined;
  assert.deepEqual(Object.keys(reordered)[0], "family");
  assert.equal(agentFingerprint(reordered), agentFingerprint(explore));
  assert.equal(changedSince(agentFingerprints([explore]), explore), undefined);
});

test("a changed or added agent is named with its file", () => {
  const set = agentFingerprints([explore]);
  const wider: AgentDefinition = {
    ...explore,
    tools: undefined,
    source: "project",
    filePath: "/p/.xcsh/agents/explore.md",
  };
  assert.equal(
    changedSince(set, wider),
    'Agent "explore" changed during this run (/p/.xcsh/agents/explore.md)',
  );
  assert.equal(
    changedSince(set, { ...explore, name: "evil", filePath: "/p/evil.md" }),
    'Agent "evil" was added during this run (/p/evil.md)',
  );
});
