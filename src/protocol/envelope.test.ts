import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { ENVELOPE_FIELDS, parseEnvelope as parseWith } from "./envelope.ts";
import { DEFAULT_LIMITS } from "./limits.ts";
import { planReaders } from "../child/plan-readers.ts";
import { configOf, planText } from "../../tests/support/plan.ts";

/** The parser with the readers a child passes. */
const parseEnvelope = (text: string) => parseWith(text, planReaders);

const good = JSON.parse(planText({
  id: "0-explore",
  agent: {
    name: "explore",
    description: "Scout",
    systemPrompt: "Look.",
    tools: ["read"],
    model: ["xcsh/smol"],
  },
  assignment: "Find main",
  cwd: "/tmp",
  model: "local/m",
}));

function withField(path: string, value: unknown): string {
  const doc = structuredClone(good) as Record<string, unknown>;
  const keys = path.split(".");
  let o = doc as Record<string, unknown>;
  for (const k of keys.slice(0, -1)) o = o[k] as Record<string, unknown>;
  if (value === undefined) delete o[keys[keys.length - 1]];
  else o[keys[keys.length - 1]] = value;
  return JSON.stringify(doc);
}

describe("parseEnvelope", () => {
  test("a write lane is kept as the parent decided it", () => {
    const r = parseEnvelope(withField("writes", ["src/**", "docs/*.md"]));
    assert.ok(r.ok);
    assert.deepEqual(r.value.writes, ["src/**", "docs/*.md"]);
  });

  test("a complete plan reads back as written", () => {
    const r = parseEnvelope(JSON.stringify(good));
    assert.ok(r.ok, r.ok ? "" : r.error);
    assert.deepEqual(r.value.limits, DEFAULT_LIMITS);
    assert.equal(r.value.model, "local/m");
    assert.equal(r.value.outputSchema, null);
    assert.equal(r.value.planMode, false);
    assert.deepEqual(r.value.agent.tools, ["read"]);
    assert.deepEqual(r.value.toolSet.tools, ["read", "submit_result"]);
    assert.equal(r.value.blockedAgent, "explore");
  });

  test("a verbosity is kept as the parent decided it; null is none", () => {
    const r = parseEnvelope(withField("modelSettings.verbosity", "low"));
    assert.ok(r.ok, r.ok ? "" : r.error);
    assert.deepEqual(r.value.modelSettings, { verbosity: "low" });
    const none = parseEnvelope(JSON.stringify(good));
    assert.equal(good.modelSettings.verbosity, null);
    assert.equal(none.ok && "modelSettings" in none.value, false);
  });

  test("the model settings are kept as the parent decided them", () => {
    const settings = {
      thinkingLevel: "high",
      temperature: 0,
      topP: 0.5,
      topK: 40,
      verbosity: null,
    };
    const r = parseEnvelope(withField("modelSettings", settings));
    assert.ok(r.ok, r.ok ? "" : r.error);
    assert.deepEqual(r.value.modelSettings, {
      thinkingLevel: "high",
      temperature: 0,
      topP: 0.5,
      topK: 40,
    });
  });

  test("the wire holds every field of the protocol, in its order", () => {
    assert.deepEqual(Object.keys(good), [...ENVELOPE_FIELDS]);
  });

  for (const field of ENVELOPE_FIELDS.filter((f) => f !== "version" && f !== "id")) {
    test(`a plan without '${field}' is refused, naming it`, () => {
      const r = parseEnvelope(withField(field, undefined));
      assert.ok(!r.ok);
      assert.equal(
        r.error,
        `invalid envelope: '${field}' is missing (a version 3 plan names every field; null for none)`,
      );
      assert.equal(r.id, "0-explore");
    });
  }

  test("an unknown field is refused, naming it", () => {
    const r = parseEnvelope(withField("fallback", true));
    assert.ok(!r.ok);
    assert.equal(r.error, "invalid envelope: 'fallback' is not a field of a version 3 plan");
  });

  test("a plan of another protocol version: one line naming both versions", () => {
    for (const version of [1, 2, 4]) {
      const r = parseEnvelope(withField("version", version));
      assert.ok(!r.ok);
      assert.equal(
        r.error,
        `invalid envelope: the plan is task envelope version ${version}; ` +
          "this xcsh speaks version 3 (run the same xcsh version on both sides)",
      );
      assert.ok(!r.error.includes("\n"));
    }
  });

  test("the spawn right travels once: an agent's own spawns field is refused", () => {
    const r = parseEnvelope(withField("agent.spawns", "*"));
    assert.ok(!r.ok);
    assert.match(
      r.error,
      /'agent\.spawns' is not part of a plan: the spawn right is 'toolSet\.spawns'/,
    );
  });

  const bad: [string, unknown, RegExp][] = [
    ["version", undefined, /the plan is task envelope version none; this xcsh speaks version 3/],
    ["id", "", /'id' must be a non-empty string/],
    ["agent", "explore", /'agent' must be an object/],
    ["agent.name", 3, /'agent\.name'/],
    ["agent.systemPrompt", undefined, /'agent\.systemPrompt' must be a string/],
    ["agent.tools", "read", /'agent\.tools' must be a list of strings/],
    ["agent.thinkingLevel", "max", /'agent\.thinkingLevel' must be one of off, minimal/],
    ["assignment", undefined, /'assignment'/],
    ["cwd", "relative/dir", /'cwd' must be an absolute path/],
    ["model", 5, /'model' must be the resolved 'provider\/model'/],
    ["model", null, /'model' must be the resolved 'provider\/model' \(the parent resolves it\)/],
    ["model", "mock", /'model' must be 'provider\/model', not 'mock'/],
    ["budget", null, /'budget' must be true or false/],
    ["toolSet", null, /'toolSet' must be an object \{tools, spawns, mcp\}/],
    ["toolSet.spawns", undefined, /'toolSet\.spawns' is missing/],
    ["toolSet.mcp.readOnlyOnly", "no", /'toolSet\.mcp\.readOnlyOnly' must be true or false/],
    ["toolSet.extra", 1, /'toolSet\.extra' is not a field of a version 3 plan/],
    ["promptContext", null, /'promptContext' must be an object/],
    ["keys", null, /'keys' must be an object/],
    ["sandbox", null, /'sandbox' must be an object/],
    ["sandbox.required", undefined, /'sandbox\.required' is missing/],
    ["limits.maxTurns", undefined, /'limits\.maxTurns' is missing/],
    ["config", null, /'config' must be an object/],
    ["mcpServers", null, /'mcpServers' must be a mapping of server names/],
    ["skills", null, /'skills' must be a list/],
    ["settingsHooks", null, /'settingsHooks' must be a mapping/],
    ["planMode", "yes", /'planMode' must be true or false/],
    ["planMode", null, /'planMode' must be true or false/],
    ["writes", "src/**", /'writes' must be a list of strings/],
    ["writes", ["../x/**"], /'writes': '\.\.\/x\/\*\*' leaves the project/],
    ["writes", [], /'writes': a lane needs at least one glob/],
    ["modelSettings", null, /'modelSettings' must be an object \{thinkingLevel, temperature/],
    [
      "modelSettings.thinkingLevel",
      "huge",
      /^invalid envelope: 'modelSettings\.thinkingLevel' must be one of off, minimal/,
    ],
    [
      "modelSettings.temperature",
      3,
      /^invalid envelope: 'modelSettings\.temperature' must be a number from 0 to 2, or null$/,
    ],
    ["modelSettings.topP", "0.5", /'modelSettings\.topP' must be a number from 0 to 1, or null/],
    ["modelSettings.topK", -1, /'modelSettings\.topK' must be a number from 0 to 1000, or null/],
    [
      "modelSettings.verbosity",
      "loud",
      /^invalid envelope: 'modelSettings\.verbosity' must be one of low, medium, high, or null$/,
    ],
    [
      "modelSettings.verbosity",
      1,
      /'modelSettings\.verbosity' must be one of low, medium, high, or null/,
    ],
    [
      "modelSettings.verbosity",
      undefined,
      /^invalid envelope: 'modelSettings\.verbosity' is missing$/,
    ],
    ["modelSettings.seed", 1, /'modelSettings\.seed' is not a field of a version 3 plan/],
    ["limits.timeoutMs", 1.5, /'limits\.timeoutMs' must be a positive integer/],
    ["limits.submitRetries", -1, /'limits\.submitRetries' must be an integer ≥ 0/],
    ["config", "yes", /'config' must be an object/],
    ["sandbox", "off", /'sandbox' must be an object/],
    ["sandbox.mode", "none", /'sandbox\.mode' must be one of read-only, workspace-write, off/],
    ["sandbox.network", "no", /'sandbox\.network' must be true or false/],
    ["sandbox.reach", { allow: ["a"] }, /'sandbox\.reach\.allow' must be/],
    ["agent.sandbox", "loose", /'agent\.sandbox' must be one of/],
    ["session", 5, /'session' must be a string/],
    ["artifacts", "rel/dir", /'artifacts' must be an absolute path/],
    ["artifacts", 7, /'artifacts' must be a string/],
    ["commandGitSettings", { a: "b" }, /'commandGitSettings' must be a list of \[key, value\]/],
    ["commandGitSettings", [["a.b"]], /'commandGitSettings' must be a list of \[key, value\]/],
    ["commandGitSettings", [["", "x"]], /'commandGitSettings' must be a list of \[key, value\]/],
    ["history", "earlier", /'history' must be a list of messages/],
    ["history", [{ content: "no role" }], /'history' must be a list of messages/],
    ["config", { task: { maxConcurrency: 0 } }, /'config' is invalid: .*maxConcurrency/],
    ["config", { tasks: {} }, /'config' is invalid: .*tasks/],
    [
      "config",
      { providers: { mine: { baseURL: "http://x" } } },
      /'providers\.mine\.type' is required/,
    ],
    ["keys", "sk-x", /'keys' must be an object of variable names to key values/],
    ["keys", { "BAD NAME": "x" }, /'keys' must be an object of variable names/],
    ["keys", { OPENAI_API_KEY: 5 }, /'keys' must be an object of variable names/],
    ["agentSet", ["explore"], /'agentSet' must be an object of agent names to fingerprints/],
    ["agentSet", { explore: 1 }, /'agentSet' must be an object of agent names/],
    ["mcpServers", ["fs"], /'mcpServers' must be a mapping of server names/],
    ["mcpServers", { fs: { command: "" } }, /'mcpServers\.fs\.command' must be a non-empty string/],
    ["agent.mcpServers", "fs", /'agent\.mcpServers' must be a list/],
    ["agent.mcpServers", [{ definition: {} }], /'agent\.mcpServers\[0\]\.name'/],
    [
      "agent.mcpServers",
      [{ name: "x", definition: { url: "file:///x" } }],
      /'agent\.mcpServers\[0\]\.definition\.url' must be an http\(s\) URL/,
    ],
  ];
  for (const [field, value, message] of bad) {
    test(`a bad ${field} is named: ${JSON.stringify(value) ?? "absent"}`, () => {
      const r = parseEnvelope(withField(field, value));
      assert.ok(!r.ok);
      assert.match(r.error, /^invalid envelope: /);
      assert.match(r.error, message);
      assert.equal(r.id, field === "id" ? "" : "0-explore");
    });
  }

  test("keys and agentSet are carried as given", () => {
    const doc = { ...good, keys: { OPENAI_API_KEY: " sk-1 " }, agentSet: { explore: "ab12" } };
    const r = parseEnvelope(JSON.stringify(doc));
    assert.ok(r.ok);
    assert.deepEqual(r.value.keys, { OPENAI_API_KEY: " sk-1 " });
    assert.deepEqual(r.value.agentSet, { explore: "ab12" });
  });

  test("commandGitSettings: carried as given; none is []", () => {
    const pairs = [["filter.evil.clean", ""], ["filter.evil.required", "false"]];
    const r = parseEnvelope(withField("commandGitSettings", pairs));
    assert.ok(r.ok);
    assert.deepEqual(r.value.commandGitSettings, pairs);
    const none = parseEnvelope(JSON.stringify(good));
    assert.ok(none.ok);
    assert.equal(none.value.commandGitSettings, undefined);
  });

  test("the sandbox is read as the parent decided it", () => {
    const sandbox = { mode: "read-only", network: true, reach: null, required: false };
    const r = parseEnvelope(withField("sandbox", sandbox));
    assert.ok(r.ok);
    assert.deepEqual(r.value.sandbox, { mode: "read-only", network: true, required: false });
    const reach = { allow: [["a.example"], ["b.example"]], publicOnly: true };
    const withReach = parseEnvelope(withField("sandbox", { ...sandbox, reach }));
    assert.ok(withReach.ok);
    assert.deepEqual(withReach.value.sandbox?.reach, reach);
  });

  test("MCP servers and an agent's declarations pass through, checked", () => {
    const doc = {
      ...good,
      agent: {
        ...good.agent,
        mcpServers: [{ name: "fs" }, { name: "own", definition: { command: "x" } }],
      },
      mcpServers: { fs: { command: "npx", args: ["fs"] } },
    };
    const r = parseEnvelope(JSON.stringify(doc));
    assert.ok(r.ok, r.ok ? "" : r.error);
    assert.deepEqual(r.value.mcpServers, {
      fs: { type: "stdio", command: "npx", args: ["fs"], env: {} },
    });
    assert.deepEqual(r.value.agent.mcpServers, [
      { name: "fs" },
      { name: "own", definition: { type: "stdio", command: "x", args: [], env: {} } },
    ]);
  });

  test("a session and a resumed conversation are read", () => {
    const history = [{ role: "user", content: "before" }, { role: "assistant", content: "ok" }];
    const r = parseEnvelope(withField("history", history));
    assert.ok(r.ok);
    assert.deepEqual(r.value.history, history);
    const s = parseEnvelope(withField("session", "20260101-000000-abcdef"));
    assert.ok(s.ok && s.value.session === "20260101-000000-abcdef");
  });

  test("text that is not a JSON object", () => {
    assert.match(
      (parseEnvelope("[1]") as { error: string }).error,
      /'\(root\)' must be a JSON object/,
    );
    assert.match((parseEnvelope("{") as { error: string }).error, /not valid JSON/);
  });

  test("the parent's config survives JSON and the child's checks unchanged", () => {
    const yaml = `providers:
  local: { type: openai-compatible, baseURL: "http://127.0.0.1:1/v1", apiKeyEnv: LOCAL_KEY }
models:
  default: local/m
  roles: { smol: local/s }
  aliases: { sonnet: local/m }
task:
  maxRecursionDepth: 3
  maxConcurrency: 2
  timeout: 30
  disabledAgents: [plan]
  agentModelOverrides: { explore: local/s }
  sandbox: read-only
  sandboxNetwork: false
  additionalDirectories: [/data]
`;
    const config = configOf(yaml);
    // What the parent sends survives JSON and the child's checks unchanged.
    const r = parseEnvelope(withField("config", JSON.parse(JSON.stringify(config))));
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual(r.value.config, config);
  });
});
