import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  buildEnvelope,
  type EnvelopeParts,
  envelopeSizeProblem,
  sampling,
} from "./envelope-builder.ts";
import { parseEnvelope } from "./envelope.ts";
import { MAX_ENVELOPE_BYTES } from "./limits.ts";
import type { AgentDefinition } from "../types.ts";
import { defaultConfig } from "../config/validate.ts";

const agent: AgentDefinition = {
  name: "explore",
  description: "d",
  systemPrompt: "You explore.",
  source: "bundled",
  family: "bundled",
};
const config = defaultConfig();

function parts(extra: Partial<EnvelopeParts> = {}): EnvelopeParts {
  return {
    agent,
    outputSchema: null,
    model: { id: "local/m" },
    cwd: "/p",
    planMode: false,
    toolSet: {
      tools: ["read"],
      spawns: [],
      mcp: { patterns: [], declared: [], deny: [], readOnlyOnly: false },
    },
    limits: { maxTurns: 50, timeoutMs: 600_000, submitRetries: 3 },
    config,
    promptContext: {
      version: 1,
      files: [],
      environment: { date: "2026-12-01", os: "linux", shell: "sh", cwd: "/p" },
    },
    keys: {},
    agentSet: {},
    sandbox: { mode: "workspace-write", network: true, required: false },
    skills: [],
    preloadedSkills: [],
    ...extra,
  };
}

describe("buildEnvelope", () => {
  test("the blocked agent travels in the envelope: the agent itself, none when recursive", () => {
    const env = buildEnvelope({ id: "0", assignment: "a" }, parts());
    assert.equal(env.blockedAgent, "explore");
    const back = parseEnvelope(JSON.stringify(env));
    assert.equal(back.ok && back.value.blockedAgent, "explore");
    const loop = buildEnvelope(
      { id: "0", assignment: "a" },
      parts({ agent: { ...agent, recursive: true } }),
    );
    assert.equal("blockedAgent" in loop, false);
  });
  test("what the child's parser accepts, with the task's id and assignment", () => {
    const env = buildEnvelope({ id: "0-explore", assignment: "look" }, parts());
    const back = parseEnvelope(JSON.stringify(env));
    assert.equal(back.ok, true, back.ok ? "" : back.error);
    assert.equal(env.version, 1);
    assert.equal(env.id, "0-explore");
    assert.equal(env.assignment, "look");
    assert.equal(env.model, "local/m");
  });
  test("optional fields only when they hold something", () => {
    const env = buildEnvelope({ id: "0", assignment: "" }, parts());
    for (
      const k of [
        "context",
        "modelNote",
        "thinkingLevel",
        "mcpServers",
        "skills",
        "memory",
        "preloadedSkills",
        "commandGitSettings",
      ]
    ) {
      assert.equal(k in env, false, k);
    }
    const full = buildEnvelope(
      { id: "0", assignment: "" },
      parts({
        context: "c",
        model: { id: "m", note: "fell back" },
        agent: { ...agent, thinkingLevel: "high", temperature: 0.2 },
        skills: [{ name: "s", description: "d", filePath: "/s/SKILL.md" }],
        commandGitSettings: [["filter.x.clean", ""]],
      }),
    );
    assert.deepEqual(full.commandGitSettings, [["filter.x.clean", ""]]);
    assert.equal(full.context, "c");
    assert.equal(full.modelNote, "fell back");
    assert.equal(full.thinkingLevel, "high");
    assert.equal(full.temperature, 0.2);
    assert.equal(full.skills?.length, 1);
  });
  test("no model: null, for the child to resolve", () => {
    assert.equal(buildEnvelope({ id: "0", assignment: "" }, parts({ model: null })).model, null);
  });
});

describe("sampling", () => {
  test("only the settings the agent sets", () => {
    assert.deepEqual(sampling(agent), {});
    assert.deepEqual(sampling({ ...agent, topP: 0.9, topK: 4 }), { topP: 0.9, topK: 4 });
  });
});

describe("envelopeSizeProblem", () => {
  test("under the limit: none; over it: a message naming the task", () => {
    const small = buildEnvelope({ id: "a", assignment: "x" }, parts());
    assert.equal(envelopeSizeProblem(small), undefined);
    const big = buildEnvelope({ id: "a", assignment: "x".repeat(MAX_ENVELOPE_BYTES) }, parts());
    assert.match(envelopeSizeProblem(big) ?? "", /^task "a": the task envelope is 16\.0 MiB, over/);
  });
});
