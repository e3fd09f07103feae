// The field catalogue: every key the ecosystems write has one place, typos
// find their nearest key, and honoured keys never read as unknown.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { DISPLAY_FIELDS, fieldNotes, IGNORED_FIELDS, nearestField } from "./field-catalogue.ts";
import { HONOURED_FIELDS, parseAgentFields } from "./agent-fields.ts";

/** The subagent keys each ecosystem documents (Claude Code 2.1, Gemini CLI, Codex). */
const ECOSYSTEM_KEYS = {
  claude: [
    "name",
    "description",
    "tools",
    "disallowedTools",
    "model",
    "permissionMode",
    "maxTurns",
    "skills",
    "mcpServers",
    "hooks",
    "memory",
    "background",
    "effort",
    "isolation",
    "color",
    "initialPrompt",
  ],
  gemini: [
    "name",
    "description",
    "kind",
    "tools",
    "model",
    "temperature",
    "max_turns",
    "timeout_mins",
    "display_name",
    "agent_card_url",
    "agent_card_json",
    "auth",
  ],
  codex: [
    "name",
    "description",
    "developer_instructions",
    "nickname_candidates",
    "model",
    "model_reasoning_effort",
    "model_verbosity",
    "sandbox_mode",
    "mcp_servers",
  ],
};

describe("field catalogue", () => {
  test("every documented key is honoured, display-only or named as not used", () => {
    const codexMapped = ["developer_instructions", "model_reasoning_effort"];
    for (const [eco, keys] of Object.entries(ECOSYSTEM_KEYS)) {
      for (const key of keys) {
        if (codexMapped.includes(key)) continue;
        const known = HONOURED_FIELDS.includes(key) || DISPLAY_FIELDS.includes(key) ||
          Object.hasOwn(IGNORED_FIELDS, key);
        assert.ok(known, `${eco}: ${key}`);
      }
    }
  });

  test("a key has one place", () => {
    const all = [...HONOURED_FIELDS, ...DISPLAY_FIELDS, ...Object.keys(IGNORED_FIELDS)];
    assert.equal(new Set(all).size, all.length);
  });

  test("honoured keys draw no unknown-key warning from parseAgentFields", () => {
    for (const key of HONOURED_FIELDS.filter((k) => k !== "name" && k !== "description")) {
      const r = parseAgentFields({ name: "a", description: "d", [key]: undefined }, {
        file: "a.md",
      });
      assert.ok(r.ok, key);
      assert.ok(!r.warnings.some((w) => /unknown key/.test(w.message)), key);
    }
  });

  test("the honoured keys are exactly the keys parseAgentFields reads", () => {
    // Every key the reader looks up, whatever the file holds: a local agent
    // and a remote one (whose card keys are read only for `kind: remote`).
    const read = new Set<string>();
    const watched = (fm: Record<string, unknown>) =>
      new Proxy(fm, {
        get(target, key, receiver) {
          if (typeof key === "string") read.add(key);
          return Reflect.get(target, key, receiver);
        },
      });
    for (
      const fm of [
        { name: "a", description: "d" },
        { name: "a", description: "d", kind: "remote", agent_card_url: "https://x/card" },
      ]
    ) assert.ok(parseAgentFields(watched(fm), { file: "a.md" }).ok);
    assert.deepEqual([...read].sort(), [...HONOURED_FIELDS].sort());
  });

  const typos: [string, string | undefined][] = [
    ["dissallowedTools", "disallowedTools"],
    ["disalowedTools", "disallowedTools"],
    ["maxturns", "maxTurns"],
    ["toolz", "tools"],
    ["permisionMode", "permissionMode"],
    ["descripton", "description"],
    ["x-custom", undefined],
    ["frobnicate", undefined],
  ];
  for (const [typo, nearest] of typos) {
    test(`nearest key of ${typo}`, () =>
      assert.equal(nearestField(typo, HONOURED_FIELDS), nearest));
  }

  test("fieldNotes sorts a file's keys", () => {
    assert.deepEqual(
      fieldNotes(
        { name: "a", color: "red", initialPrompt: "hi", dissallowedTools: "Bash" },
        HONOURED_FIELDS,
      ),
      {
        ignored: ["initialPrompt"],
        unknown: [{ key: "dissallowedTools", nearest: "disallowedTools" }],
      },
    );
  });
});
