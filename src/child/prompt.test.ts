// The skills section of the system prompt: within its budget, and saying
// when the list is not complete.

import { test } from "node:test";
import assert from "node:assert/strict";
import { buildSystemPrompt } from "./prompt.ts";

const skills = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    name: `s-${i}`,
    description: "A skill for one job. ".repeat(10),
    filePath: `/k/s-${i}/SKILL.md`,
  }));

test("all skills fit: all described, nothing said about more", () => {
  const p = buildSystemPrompt({ agentPrompt: "A.", planMode: false, skills: skills(2) });
  assert.match(p, /^- s-0: A skill for one job\./m);
  assert.match(p, /^- s-1: A skill/m);
  assert.doesNotMatch(p, /not complete/);
});

test("past the budget: names only, then a count of the rest and how to find them", () => {
  const p = buildSystemPrompt({
    agentPrompt: "A.",
    planMode: false,
    skills: skills(200),
    skillBudget: 2_000,
  });
  assert.match(p, /^- s-0: A skill/m);
  assert.match(p, /^- s-\d+$/m);
  const m =
    /(\d+) skills are named without a description, and (\d+) more are not listed \(200 in all\)/
      .exec(p);
  assert.ok(m, p);
  assert.match(p, /Search them with the `skill` tool's `query`/);
});

test("a schema the submit tool carries as written is named, not repeated", () => {
  const schema = { kind: "json-schema" as const, value: { type: "object", title: "UNIQUE-TITLE" } };
  const named = buildSystemPrompt({
    agentPrompt: "A.",
    planMode: false,
    schema,
    schemaInTool: true,
  });
  assert.doesNotMatch(named, /UNIQUE-TITLE/);
  assert.match(named, /JSON Schema of that tool's `result\.data` parameter/);
  assert.match(named, /submit_result/);
  const repeated = buildSystemPrompt({ agentPrompt: "A.", planMode: false, schema });
  assert.match(repeated, /```json\n\{"type":"object","title":"UNIQUE-TITLE"\}\n```/);
});
