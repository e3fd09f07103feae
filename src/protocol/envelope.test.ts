import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { DEFAULT_LIMITS, parseEnvelope } from "./envelope.ts";
import { parseConfigText as configOnDemand } from "../config/load.ts";
import { mergeConfigs } from "../config/validate.ts";
import { loadParsers, parsedNow } from "../formats/full-parsers.ts";

await loadParsers();

/** parseConfigText with the parsers loaded above. */
const parseConfigText = (...a: Parameters<typeof configOnDemand>) =>
  parsedNow(configOnDemand(...a));

const good = {
  version: 1,
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
};

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

  test("fills in defaults", () => {
    const r = parseEnvelope(JSON.stringify(good));
    assert.ok(r.ok);
    assert.deepEqual(r.value.limits, DEFAULT_LIMITS);
    assert.equal(r.value.model, null);
    assert.equal(r.value.outputSchema, null);
    assert.equal(r.value.planMode, false);
    assert.deepEqual(r.value.agent.tools, ["read"]);
  });

  const bad: [string, unknown, RegExp][] = [
    ["version", 2, /'version' must be 1/],
    ["id", "", /'id' must be a non-empty string/],
    ["agent", "explore", /'agent' must be an object/],
    ["agent.name", 3, /'agent\.name'/],
    ["agent.systemPrompt", undefined, /'agent\.systemPrompt' must be a string/],
    ["agent.tools", "read", /'agent\.tools' must be a list of strings/],
    ["agent.thinkingLevel", "max", /'agent\.thinkingLevel' must be one of off, minimal/],
    ["assignment", undefined, /'assignment'/],
    ["cwd", "relative/dir", /'cwd' must be an absolute path/],
    ["model", 5, /'model' must be a non-empty string or null/],
    ["planMode", "yes", /'planMode' must be true or false/],
    ["writes", "src/**", /'writes' must be a list of strings/],
    ["writes", ["../x/**"], /'writes': '\.\.\/x\/\*\*' leaves the project/],
    ["writes", [], /'writes': a lane needs at least one glob/],
    ["thinkingLevel", "huge", /'thinkingLevel'/],
    ["limits", { timeoutMs: 1.5 }, /'limits\.timeoutMs' must be a positive integer/],
    ["limits", { submitRetries: -1 }, /'limits\.submitRetries' must be an integer ≥ 0/],
    ["config", "yes", /'config' must be an object/],
    ["sandbox", "off", /'sandbox' must be an object/],
    ["sandbox", { mode: "none" }, /'sandbox\.mode' must be one of read-only, workspace-write, off/],
    ["sandbox", { mode: "off", network: "no" }, /'sandbox\.network' must be true or false/],
    ["sandbox", { mode: "off", reach: { allow: ["a"] } }, /'sandbox\.reach\.allow' must be/],
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

  test("commandGitSettings: carried as given; absent stays absent", () => {
    const pairs = [["filter.evil.clean", ""], ["filter.evil.required", "false"]];
    const r = parseEnvelope(withField("commandGitSettings", pairs));
    assert.ok(r.ok);
    assert.deepEqual(r.value.commandGitSettings, pairs);
    const none = parseEnvelope(JSON.stringify(good));
    assert.ok(none.ok);
    assert.equal(none.value.commandGitSettings, undefined);
  });

  test("the sandbox: absent stays absent; given, its defaults are filled in", () => {
    const none = parseEnvelope(JSON.stringify(good));
    assert.ok(none.ok);
    assert.equal(none.value.sandbox, undefined);
    const r = parseEnvelope(withField("sandbox", { mode: "read-only" }));
    assert.ok(r.ok);
    assert.deepEqual(r.value.sandbox, { mode: "read-only", network: true, required: false });
    const reach = { allow: [["a.example"], ["b.example"]], publicOnly: true };
    const withReach = parseEnvelope(withField("sandbox", { mode: "read-only", reach }));
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

  test("without config the child reads the files; with it, it uses the parent's", () => {
    const none = parseEnvelope(JSON.stringify(good));
    assert.ok(none.ok);
    assert.equal(none.value.config, undefined);

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
    const parsed = parseConfigText(yaml, "config.yml");
    assert.ok(parsed.ok);
    const config = mergeConfigs([parsed.value]);
    // What the parent sends survives JSON and the child's checks unchanged.
    const r = parseEnvelope(withField("config", JSON.parse(JSON.stringify(config))));
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual(r.value.config, config);
  });
});
