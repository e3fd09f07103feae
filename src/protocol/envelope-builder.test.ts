import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  buildEnvelope,
  envelopeAgent,
  type EnvelopeParts,
  envelopeSizeProblem,
  envelopeText,
  LATER_FIELDS,
  SHAPED_FIELDS,
} from "./envelope-builder.ts";
import { ENVELOPE_FIELDS, parseEnvelope as parseWith } from "./envelope.ts";
import { planReaders } from "../child/plan-readers.ts";
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
/** The child's parser, on the text the parent writes. */
const parseEnvelope = (text: string) => parseWith(text, planReaders);

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
    const back = parseEnvelope(envelopeText(env));
    assert.equal(back.ok && back.value.blockedAgent, "explore");
    const loop = buildEnvelope(
      { id: "0", assignment: "a" },
      parts({ agent: { ...agent, recursive: true } }),
    );
    assert.equal("blockedAgent" in loop, false);
  });
  test("what the child's parser accepts, with the task's id and assignment", () => {
    const env = buildEnvelope({ id: "0-explore", assignment: "look" }, parts());
    const back = parseEnvelope(envelopeText(env));
    assert.equal(back.ok, true, back.ok ? "" : back.error);
    assert.equal(env.version, 3);
    assert.equal(env.id, "0-explore");
    assert.equal(env.assignment, "look");
    assert.equal(env.model, "local/m");
  });
  test("the spawn right travels once: in the tool set, not in the agent", () => {
    const env = buildEnvelope(
      { id: "0", assignment: "a" },
      parts({ agent: { ...agent, spawns: "*" } }),
    );
    assert.equal("spawns" in env.agent, false);
    assert.deepEqual(env.toolSet.spawns, []);
  });
  test("on the wire every field is there, in order, null (or empty) for none", () => {
    const wire = JSON.parse(envelopeText(buildEnvelope({ id: "0", assignment: "a" }, parts())));
    assert.deepEqual(Object.keys(wire), [...ENVELOPE_FIELDS]);
    assert.equal(wire.context, null);
    assert.equal(wire.budget, false);
    assert.equal(wire.memory, null);
    assert.deepEqual(wire.modelSettings, {
      thinkingLevel: null,
      temperature: null,
      topP: null,
      topK: null,
      verbosity: null,
    });
    assert.deepEqual(wire.skills, []);
    assert.deepEqual(wire.mcpServers, {});
    assert.deepEqual(wire.sandbox, {
      mode: "workspace-write",
      network: true,
      reach: null,
      required: false,
    });
  });
  test("in memory, optional fields only when they hold something", () => {
    const env = buildEnvelope({ id: "0", assignment: "" }, parts());
    for (
      const k of [
        "context",
        "modelNote",
        "modelSettings",
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
        agent: { ...agent, thinkingLevel: "high", temperature: 0.2, verbosity: "high" },
        modelSettings: { thinkingLevel: "high", temperature: 0.2, verbosity: "low" },
        skills: [{ name: "s", description: "d", filePath: "/s/SKILL.md" }],
        commandGitSettings: [["filter.x.clean", ""]],
      }),
    );
    assert.deepEqual(full.commandGitSettings, [["filter.x.clean", ""]]);
    assert.equal(full.context, "c");
    assert.equal(full.modelNote, "fell back");
    // The plan's decision travels, not the agent's raw fields.
    assert.deepEqual(full.modelSettings, {
      thinkingLevel: "high",
      temperature: 0.2,
      verbosity: "low",
    });
    for (const k of ["thinkingLevel", "temperature", "verbosity"]) {
      assert.equal(k in full.agent, false, k);
    }
    const wire = JSON.parse(envelopeText(full)).modelSettings;
    assert.deepEqual(wire, {
      thinkingLevel: "high",
      temperature: 0.2,
      topP: null,
      topK: null,
      verbosity: "low",
    });
    assert.equal(full.skills?.length, 1);
  });
  test("no model (a dry run): null, which a child refuses", () => {
    const env = buildEnvelope({ id: "0", assignment: "a" }, parts({ model: null }));
    assert.equal(env.model, null);
    const back = parseEnvelope(envelopeText(env));
    assert.equal(
      back.ok ? "" : back.error,
      "invalid envelope: 'model' must be the resolved 'provider/model' (the parent resolves it)",
    );
  });
});

describe("every field of the protocol", () => {
  test("is copied from the part of its name, or named as shaped or set later", () => {
    // Each field given as a part holding a value of its own: a field the
    // builder neither copies nor names is dropped, and this fails naming it.
    const shaped: readonly string[] = SHAPED_FIELDS;
    const later: readonly string[] = LATER_FIELDS;
    const marked = Object.fromEntries(
      ENVELOPE_FIELDS.filter((f) => !shaped.includes(f)).map((f) => [f, [`part ${f}`]]),
    );
    const env = buildEnvelope(
      { id: "0", assignment: "a" },
      { ...parts(), ...marked } as unknown as EnvelopeParts,
    ) as unknown as Record<string, unknown>;
    for (const field of ENVELOPE_FIELDS) {
      // A shaped field's rules have their own tests above.
      if (shaped.includes(field)) continue;
      if (later.includes(field)) {
        assert.equal(field in env, false, `${field} is set after the builder`);
      } else {
        assert.deepEqual(
          env[field],
          [`part ${field}`],
          `'${field}' is neither copied from its part nor named in SHAPED_FIELDS or LATER_FIELDS`,
        );
      }
    }
  });
  test("an empty part is none, but for servers given and a write lane", () => {
    const env = buildEnvelope(
      { id: "0", assignment: "a", writes: [] },
      parts({ context: "", modelSettings: {}, settingsHooks: {}, mcpServers: {} }),
    );
    for (const k of ["context", "modelSettings", "settingsHooks"]) {
      assert.equal(k in env, false, k);
    }
    assert.deepEqual(env.mcpServers, {});
    assert.deepEqual(env.writes, []);
  });
  test("the lists name fields of the protocol, each once", () => {
    const named = [...SHAPED_FIELDS, ...LATER_FIELDS];
    assert.equal(new Set(named).size, named.length);
    for (const f of named) assert.ok((ENVELOPE_FIELDS as readonly string[]).includes(f), f);
  });
});

describe("envelopeAgent", () => {
  test("without its spawn field and the fields of its model settings", () => {
    const full: AgentDefinition = {
      ...agent,
      spawns: "*",
      thinkingLevel: "low",
      temperature: 0.1,
      topP: 0.9,
      topK: 4,
      verbosity: "high",
      maxTurns: 3,
    };
    assert.deepEqual(envelopeAgent(full), { ...agent, maxTurns: 3 });
    assert.equal(full.spawns, "*", "the agent given is left as it was");
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
