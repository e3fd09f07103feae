import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { defaultConfig } from "../config/validate.ts";
import type { XcshConfig } from "../types.ts";
import { CLAUDE_TIERS } from "./claude-tiers.ts";
import { resolveModel, resolvePattern } from "./resolve.ts";

function config(): XcshConfig {
  const c = defaultConfig();
  c.models.default = "anthropic/claude-default";
  c.models.roles = { smol: "ollama/small", slow: "openai/big", plan: "xcsh/slow" };
  c.providers.local = { type: "openai-compatible", baseURL: "http://127.0.0.1:1/v1" };
  return c;
}

/** Every key set: availability never decides. */
const ALL_KEYS = {
  ANTHROPIC_API_KEY: "sk-ant-test",
  OPENAI_API_KEY: "sk-test",
  GEMINI_API_KEY: "g-test",
};

const SONNET = `anthropic/${CLAUDE_TIERS.sonnet.model}`;
const OPUS = `anthropic/${CLAUDE_TIERS.opus.model}`;
const HAIKU = `anthropic/${CLAUDE_TIERS.haiku.model}`;

describe("resolvePattern", () => {
  const rows: {
    pattern: string;
    config?: (c: XcshConfig) => void;
    id?: string;
    reason?: RegExp;
  }[] = [
    // inherit and its spellings
    { pattern: "inherit", id: "anthropic/claude-default" },
    { pattern: "default", id: "anthropic/claude-default" },
    { pattern: "pi/default", id: "anthropic/claude-default" },
    { pattern: "xcsh/default", id: "anthropic/claude-default" },
    // roles, also through another role
    { pattern: "xcsh/smol", id: "ollama/small" },
    { pattern: "pi/plan", id: "openai/big" },
    { pattern: "xcsh/fast", reason: /'xcsh\/fast' names models\.roles\.fast, which is not set/ },
    // bare ids take the provider of their family
    { pattern: "claude-sonnet-4-20250514", id: "anthropic/claude-sonnet-4-20250514" },
    { pattern: "claude-3-5-haiku-latest", id: "anthropic/claude-3-5-haiku-latest" },
    { pattern: "gpt-5.1-codex", id: "openai/gpt-5.1-codex" },
    { pattern: "gpt-5", id: "openai/gpt-5" },
    { pattern: "o3", id: "openai/o3" },
    { pattern: "o4-mini", id: "openai/o4-mini" },
    { pattern: "o1-preview", id: "openai/o1-preview" },
    { pattern: "codex-mini-latest", id: "openai/codex-mini-latest" },
    { pattern: "chatgpt-4o-latest", id: "openai/chatgpt-4o-latest" },
    { pattern: "gemini-2.5-pro", id: "google/gemini-2.5-pro" },
    { pattern: "gemini-3-flash-preview", id: "google/gemini-3-flash-preview" },
    // not a family: the hint shows a correct example
    {
      pattern: "qwen3:8b",
      reason: /'qwen3:8b' names no provider.*write it as provider\/model, e\.g\. ollama\/qwen3:8b$/,
    },
    { pattern: "o2", reason: /names no provider/ },
    { pattern: "omni-model", reason: /names no provider/ },
    // a provider without a model
    {
      pattern: "local/",
      reason:
        /^'local\/' names provider 'local' but no model: write local\/MODEL, MODEL being a model the provider serves, as in ollama\/qwen3:8b$/,
    },
    {
      pattern: "ollama/",
      reason: /e\.g\. ollama\/qwen3:8b$/,
    },
    { pattern: "nope/m", reason: /unknown provider 'nope'/ },
    { pattern: "local/org/model:7b", id: "local/org/model:7b" },
    // Claude's tiers: aliases, then the configured role, then the built-in model
    { pattern: "sonnet", id: SONNET },
    { pattern: "Opus", config: (c) => (c.models.roles = {}), id: OPUS },
    { pattern: "haiku", config: (c) => (c.models.roles = {}), id: HAIKU },
    { pattern: "haiku", id: "ollama/small" },
    { pattern: "opus", id: "openai/big" },
    { pattern: "sonnet", config: (c) => (c.models.roles.default = "local/d"), id: "local/d" },
    {
      pattern: "opus",
      config: (c) => (c.models.aliases = { opus: "local/huge" }),
      id: "local/huge",
    },
    {
      pattern: "haiku",
      config: (c) => (c.models.aliases = { haiku: "gemini-2.5-flash" }),
      id: "google/gemini-2.5-flash",
    },
  ];
  for (const row of rows) {
    test(`${row.pattern}${row.config ? " (config changed)" : ""}`, () => {
      const c = config();
      row.config?.(c);
      const r = resolvePattern(row.pattern, c);
      if (row.id) assert.deepEqual(r, { ok: true, id: row.id });
      else {
        assert.equal(r.ok, false);
        assert.match((r as { reason: string }).reason, row.reason!);
      }
    });
  }

  test("roles that refer to each other stop", () => {
    const c = config();
    c.models.roles.a = "xcsh/b";
    c.models.roles.b = "xcsh/a";
    assert.match((resolvePattern("xcsh/a", c) as { reason: string }).reason, /loop/);
  });
});

describe("resolveModel", () => {
  const base = { agentName: "explore", agentModels: ["xcsh/smol"], env: ALL_KEYS };

  test("the envelope's model wins over everything", () => {
    const c = config();
    c.task.agentModelOverrides.explore = "openai/override";
    const r = resolveModel({ ...base, config: c, envelopeModel: "local/m", envModel: "openai/e" });
    assert.deepEqual(r, {
      ok: true,
      value: { id: "local/m", provider: "local", model: "m", source: "envelope" },
    });
  });

  test("then XCSH_MODEL, then the override, then the agent's list, then the default", () => {
    const c = config();
    c.task.agentModelOverrides.explore = "openai/override";
    const chosen = (inputs: Parameters<typeof resolveModel>[0]) => {
      const r = resolveModel(inputs);
      assert.ok(r.ok);
      return r.value;
    };
    assert.equal(chosen({ ...base, config: c, envModel: "openai/e" }).source, "XCSH_MODEL");
    assert.equal(chosen({ ...base, config: c }).id, "openai/override");
    assert.equal(chosen({ ...base, config: config() }).id, "ollama/small");
    const r = resolveModel({ agentName: "x", config: config(), env: ALL_KEYS });
    assert.deepEqual(r.ok && r.value, {
      id: "anthropic/claude-default",
      provider: "anthropic",
      model: "claude-default",
      source: "default",
    });
  });

  test("the first agent pattern that resolves wins", () => {
    const r = resolveModel({
      ...base,
      agentName: "plan",
      agentModels: ["xcsh/missing", "nope/x", "xcsh/slow"],
      config: config(),
    });
    assert.ok(r.ok);
    assert.equal(r.value.id, "openai/big");
    assert.equal(r.value.note, undefined);
  });

  test("an explicit choice that does not resolve is an error", () => {
    const r = resolveModel({ ...base, config: config(), envelopeModel: "nosuch/x" });
    assert.ok(!r.ok);
    assert.match(
      r.error,
      /^the envelope's model: unknown provider 'nosuch'.*Known providers: anthropic, google, local, ollama, openai/,
    );
  });

  // Availability: which keys are set decides, as a table.
  const c = () => {
    const x = config();
    x.models.default = "ollama/qwen3:8b";
    x.models.roles = {};
    return x;
  };
  const rows: {
    name: string;
    agentModels?: string[];
    env: Record<string, string>;
    config?: () => XcshConfig;
    envelopeModel?: string;
    envModel?: string;
    id?: string;
    note?: string;
    error?: RegExp;
  }[] = [
    {
      name: "a bare Claude id runs on Anthropic when its key is set",
      agentModels: ["claude-sonnet-4-20250514"],
      env: { ANTHROPIC_API_KEY: "sk-ant-x" },
      id: "anthropic/claude-sonnet-4-20250514",
    },
    {
      name: "sonnet is Anthropic's current sonnet with the key",
      agentModels: ["sonnet"],
      env: { ANTHROPIC_API_KEY: "sk-ant-x" },
      id: SONNET,
    },
    {
      name: "sonnet without the key falls back to models.default, announced",
      agentModels: ["sonnet"],
      env: {},
      id: "ollama/qwen3:8b",
      note: "sonnet unavailable (ANTHROPIC_API_KEY not set); using ollama/qwen3:8b",
    },
    {
      name: "a Codex gpt-5.x without OPENAI_API_KEY falls back, announced",
      agentModels: ["gpt-5.1-codex"],
      env: {},
      id: "ollama/qwen3:8b",
      note: "gpt-5.1-codex unavailable (OPENAI_API_KEY not set); using ollama/qwen3:8b",
    },
    {
      name: "a Gemini model runs with GOOGLE_GENERATIVE_AI_API_KEY too",
      agentModels: ["gemini-2.5-flash"],
      env: { GOOGLE_GENERATIVE_AI_API_KEY: "g" },
      id: "google/gemini-2.5-flash",
    },
    {
      name: "the next usable pattern wins before any fallback",
      agentModels: ["opus", "gpt-5"],
      env: { OPENAI_API_KEY: "sk" },
      id: "openai/gpt-5",
    },
    {
      name: "a role config leaves unset means the default: no note",
      agentModels: ["xcsh/fast"],
      env: {},
      id: "ollama/qwen3:8b",
    },
    {
      name: "the note names the first model that could not be used, past unset roles",
      agentModels: ["xcsh/smol", "opus"],
      env: {},
      id: "ollama/qwen3:8b",
      note: "opus unavailable (ANTHROPIC_API_KEY not set); using ollama/qwen3:8b",
    },
    {
      name: "a model that names no provider is announced",
      agentModels: ["mistral-large"],
      env: {},
      id: "ollama/qwen3:8b",
      note: "mistral-large unavailable ('mistral-large' names no provider and is not a known " +
        "model family (claude-…, gpt-…, o1/o3/o4…, codex-…, chatgpt-…, gemini-…): write it as " +
        "provider/model, e.g. ollama/mistral-large); using ollama/qwen3:8b",
    },
    {
      name: "--model without its key is an error naming the variable, never a fallback",
      agentModels: ["sonnet"],
      env: {},
      envelopeModel: "claude-opus-4-1",
      error:
        /^ANTHROPIC_API_KEY is not set: export ANTHROPIC_API_KEY=<your key> to use provider 'anthropic' \(--model claude-opus-4-1\)$/,
    },
    {
      name: "XCSH_MODEL without its key is an error naming the variable",
      env: {},
      envModel: "gemini-2.5-pro",
      error:
        /^GEMINI_API_KEY or GOOGLE_GENERATIVE_AI_API_KEY is not set: .* \(XCSH_MODEL gemini-2\.5-pro\)$/,
    },
    {
      name: "XCSH_MODEL=local/ says what is missing, with a correct example",
      env: {},
      envModel: "local/",
      error: /^XCSH_MODEL: 'local\/' names provider 'local' but no model: write local\/MODEL/,
    },
    {
      name: "nothing usable: one error lists what was tried and what to set",
      agentModels: ["sonnet", "gpt-5"],
      env: {},
      config: () => ({ ...c(), models: { roles: {}, aliases: {} } }),
      error: new RegExp(
        "^no usable model for agent 'explore': tried sonnet → anthropic/claude-sonnet-\\S+ " +
          "\\(ANTHROPIC_API_KEY not set\\); gpt-5 → openai/gpt-5 \\(OPENAI_API_KEY not set\\); " +
          "models\\.default \\(not set, and no built-in provider has its key \\(ANTHROPIC_API_KEY, " +
          "OPENAI_API_KEY, GEMINI_API_KEY\\)\\)\\. To fix: export ANTHROPIC_API_KEY=<your key>, or " +
          "export OPENAI_API_KEY=<your key>, or set models\\.default in ~/\\.xcsh/agent/config\\.yml " +
          "\\(e\\.g\\. 'models\\.default: ollama/qwen3:8b'\\), or set XCSH_MODEL=ollama/qwen3:8b, " +
          "or pass --model ollama/qwen3:8b$",
      ),
    },
    {
      name: "no models.default: a role means the model of the first provider with a key",
      agentModels: ["xcsh/smol"],
      env: { ANTHROPIC_API_KEY: "sk-ant-x" },
      config: () => ({ ...c(), models: { roles: {}, aliases: {} } }),
      id: `anthropic/${CLAUDE_TIERS.haiku.model}`,
    },
    {
      name: "no models.default: plan and slow roles mean the provider's strongest model",
      agentModels: ["xcsh/plan", "xcsh/slow"],
      env: { ANTHROPIC_API_KEY: "sk-ant-x" },
      config: () => ({ ...c(), models: { roles: {}, aliases: {} } }),
      id: `anthropic/${CLAUDE_TIERS.opus.model}`,
    },
    {
      name: "no models.default, no agent model: the default of the provider with a key",
      env: { OPENAI_API_KEY: "sk" },
      config: () => ({ ...c(), models: { roles: {}, aliases: {} } }),
      id: "openai/gpt-5.5",
    },
    {
      name: "no models.default: inherit means the built-in default, quietly",
      agentModels: ["inherit"],
      env: { GEMINI_API_KEY: "g" },
      config: () => ({ ...c(), models: { roles: {}, aliases: {} } }),
      id: "google/gemini-pro-latest",
    },
    {
      name: "no models.default: Anthropic comes before OpenAI when both keys are set",
      env: { OPENAI_API_KEY: "sk", ANTHROPIC_API_KEY: "sk-ant-x" },
      config: () => ({ ...c(), models: { roles: {}, aliases: {} } }),
      id: SONNET,
    },
    {
      name: "no models.default: an agent model without its key is announced",
      agentModels: ["sonnet"],
      env: { GEMINI_API_KEY: "g" },
      config: () => ({ ...c(), models: { roles: {}, aliases: {} } }),
      id: "google/gemini-pro-latest",
      note: "sonnet unavailable (ANTHROPIC_API_KEY not set); using google/gemini-pro-latest",
    },
    {
      name: "a default whose key is missing is part of the one error",
      agentModels: ["haiku"],
      env: {},
      config: () => ({ ...c(), models: { default: "openai/gpt-5", roles: {}, aliases: {} } }),
      error:
        /tried haiku → \S+ \(ANTHROPIC_API_KEY not set\); models\.default openai\/gpt-5 \(OPENAI_API_KEY not set\)/,
    },
  ];
  for (const row of rows) {
    test(row.name, () => {
      const r = resolveModel({
        agentName: "explore",
        agentModels: row.agentModels,
        config: (row.config ?? c)(),
        env: row.env,
        envelopeModel: row.envelopeModel,
        envelopeLabel: "--model",
        envModel: row.envModel,
        modelFlag: "--model",
      });
      if (row.error) {
        assert.equal(r.ok, false, JSON.stringify(r));
        assert.match((r as { error: string }).error, row.error);
        return;
      }
      assert.ok(r.ok, JSON.stringify(r));
      assert.equal(r.value.id, row.id);
      assert.equal(r.value.note, row.note);
    });
  }

  test("without a model flag, the error does not tell an MCP client to pass --model", () => {
    const r = resolveModel({
      agentName: "explore",
      agentModels: ["sonnet"],
      config: { ...config(), models: { roles: {}, aliases: {} } },
      env: {},
    });
    assert.ok(!r.ok);
    assert.doesNotMatch(r.error, /--model/);
    assert.match(r.error, /XCSH_MODEL=ollama\/qwen3:8b/);
  });
});
