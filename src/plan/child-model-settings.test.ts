// What a child's model calls are sent: the agent's thinking level and
// sampling settings as it asks, and the verbosity by each rule of
// child-model-settings.ts, with the one warning when it is not sent.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { childModelSettings, childVerbosity, verbosityFor } from "./child-model-settings.ts";
import { defaultConfig } from "../config/validate.ts";
import type { AgentDefinition, Diagnostic, Verbosity } from "../types.ts";

describe("verbosityFor", () => {
  test("the module's example", () => {
    assert.deepEqual(verbosityFor("low", "openai", "gpt-5-mini"), { send: "low" });
    assert.deepEqual(verbosityFor("low", "openai", "gpt-4.1"), { why: "takes only medium" });
  });

  test("the GPT-5 family takes low, medium and high", () => {
    const family = [
      "gpt-5",
      "gpt-5-2025-08-07",
      "gpt-5-mini",
      "gpt-5-nano",
      "gpt-5-pro",
      "gpt-5.1",
      "gpt-5.1-chat-latest",
      "gpt-5.2-chat-latest",
      "gpt-5.2-pro",
      "gpt-5.3-codex",
      "gpt-5.5",
    ];
    for (const model of family) {
      for (const v of ["low", "medium", "high"] as Verbosity[]) {
        assert.deepEqual(verbosityFor(v, "openai", model), { send: v }, `${model} ${v}`);
      }
    }
  });

  test("gpt-5-chat-latest, the early Codex models and models before GPT-5 take only medium", () => {
    const older = [
      "gpt-5-chat-latest",
      "gpt-5-codex",
      "gpt-5.1-codex-mini",
      "gpt-5.2-codex",
      "gpt-4.1",
      "gpt-4o",
      "o3",
      "codex-mini-latest",
    ];
    for (const model of older) {
      for (const v of ["low", "high"] as Verbosity[]) {
        assert.deepEqual(verbosityFor(v, "openai", model), { why: "takes only medium" }, model);
      }
    }
  });

  test("medium on a medium-only model: nothing sent, nothing said", () => {
    for (const model of ["gpt-4.1", "o3", "gpt-5-chat-latest"]) {
      assert.deepEqual(verbosityFor("medium", "openai", model), {}, model);
    }
  });

  test("Anthropic, Gemini and OpenAI-compatible servers have no verbosity setting", () => {
    for (const type of ["anthropic", "google", "openai-compatible"] as const) {
      for (const v of ["low", "medium", "high"] as Verbosity[]) {
        assert.deepEqual(verbosityFor(v, type, "gpt-5"), { why: "has no verbosity setting" });
      }
    }
  });
});

describe("childVerbosity", () => {
  const agent: AgentDefinition = {
    name: "brief",
    description: "d",
    systemPrompt: "",
    source: "project",
    family: "codex",
    filePath: "/p/.codex/agents/brief.toml",
    verbosity: "low",
  };
  const config = defaultConfig();
  const on = (id: string) => {
    const [provider, model] = [id.slice(0, id.indexOf("/")), id.slice(id.indexOf("/") + 1)];
    return { id, provider, model };
  };
  const decide = (a: AgentDefinition, id: string | undefined, c = config) => {
    const warnings: Diagnostic[] = [];
    const sent = childVerbosity(a, id ? on(id) : undefined, c, (w) => warnings.push(...w));
    return { sent, warnings };
  };

  test("sent to an OpenAI model that takes it, without a word", () => {
    assert.deepEqual(decide(agent, "openai/gpt-5"), { sent: "low", warnings: [] });
  });

  test("not sent elsewhere: one warning naming the agent, the field, the model and why", () => {
    const r = decide(agent, "anthropic/claude-sonnet-4-5");
    assert.equal(r.sent, undefined);
    assert.deepEqual(r.warnings, [{
      level: "warning",
      file: "/p/.codex/agents/brief.toml",
      field: "model_verbosity",
      message: "agent 'brief': 'model_verbosity' low not sent: anthropic/claude-sonnet-4-5 " +
        "has no verbosity setting",
    }]);
    const old = decide({ ...agent, verbosity: "high" }, "openai/gpt-4.1");
    assert.equal(old.sent, undefined);
    assert.equal(
      old.warnings[0].message,
      "agent 'brief': 'model_verbosity' high not sent: openai/gpt-4.1 takes only medium",
    );
  });

  test("a configured provider counts by its type", () => {
    const c = defaultConfig();
    c.providers.azure = { type: "openai", baseURL: "https://a.example/v1" };
    c.providers.router = { type: "openai-compatible", baseURL: "https://r.example/v1" };
    assert.equal(decide(agent, "azure/gpt-5.1", c).sent, "low");
    const r = decide(agent, "router/gpt-5.1", c);
    assert.equal(r.sent, undefined);
    assert.match(r.warnings[0].message, /router\/gpt-5\.1 has no verbosity setting/);
  });

  test("no verbosity asked, or no model (a dry run, a remote agent): nothing, no warning", () => {
    const { verbosity: _v, ...plain } = agent;
    assert.deepEqual(decide(plain, "anthropic/claude-sonnet-4-5"), {
      sent: undefined,
      warnings: [],
    });
    assert.deepEqual(decide(agent, undefined), { sent: undefined, warnings: [] });
  });
});

describe("childModelSettings", () => {
  const agent: AgentDefinition = {
    name: "tuned",
    description: "d",
    systemPrompt: "",
    source: "project",
    family: "codex",
    thinkingLevel: "high",
    temperature: 0,
    topP: 0.5,
    topK: 7,
    verbosity: "low",
  };
  const config = defaultConfig();

  test("the agent's settings, and the verbosity where the model takes it", () => {
    const gpt5 = { id: "openai/gpt-5", provider: "openai", model: "gpt-5" };
    assert.deepEqual(childModelSettings(agent, gpt5, config), {
      thinkingLevel: "high",
      temperature: 0,
      topP: 0.5,
      topK: 7,
      verbosity: "low",
    });
  });

  test("a verbosity the model is not sent is left out, with its warning", () => {
    const claude = {
      id: "anthropic/claude-sonnet-4-5",
      provider: "anthropic",
      model: "claude-sonnet-4-5",
    };
    const warnings: Diagnostic[] = [];
    const settings = childModelSettings(agent, claude, config, (w) => warnings.push(...w));
    assert.equal("verbosity" in settings, false);
    assert.equal(settings.temperature, 0);
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0].field, "model_verbosity");
  });

  test("no model (a dry run): the settings the file asks for, no verbosity; none asked: {}", () => {
    assert.deepEqual(childModelSettings(agent, undefined, config), {
      thinkingLevel: "high",
      temperature: 0,
      topP: 0.5,
      topK: 7,
    });
    const { thinkingLevel: _t, temperature: _a, topP: _p, topK: _k, verbosity: _v, ...plain } =
      agent;
    assert.deepEqual(childModelSettings(plain, undefined, config), {});
  });
});
