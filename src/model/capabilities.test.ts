import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  claudeVersion,
  droppable,
  MAX_OUTPUT_TOKENS,
  modelRequest,
  type ModelRequestInput,
  nearest,
  samplingFor,
  thinkingParameter,
} from "./capabilities.ts";
import type { ThinkingLevel } from "../types.ts";
import { BUILTIN_ROLE_MODELS } from "./builtin-defaults.ts";

const req = (
  type: ModelRequestInput["type"],
  model: string,
  level: ThinkingLevel | undefined,
  extra: Partial<ModelRequestInput> = {},
) =>
  modelRequest({
    type,
    provider: type === "openai-compatible" ? "ollama" : type,
    model,
    level,
    ...extra,
  });

describe("nearest", () => {
  test("a level the model has is kept", () => assert.equal(nearest("low", ["low", "high"]), "low"));
  test("else the closest lower one", () => assert.equal(nearest("medium", ["low", "high"]), "low"));
  test("else the closest higher one, never none", () => {
    assert.equal(nearest("minimal", ["none", "low", "medium"]), "low");
  });
  test("off is none when offered, else the lowest", () => {
    assert.equal(nearest("off", ["none", "low"]), "none");
    assert.equal(nearest("off", ["minimal", "low"]), "minimal");
  });
});

describe("claudeVersion", () => {
  const cases: [string, { major: number; minor: number } | undefined][] = [
    ["claude-opus-4-1", { major: 4, minor: 1 }],
    ["claude-opus-4-1-20250805", { major: 4, minor: 1 }],
    ["claude-opus-4-20250514", { major: 4, minor: 0 }],
    ["claude-haiku-5-5", { major: 5, minor: 5 }],
    ["claude-3-7-sonnet-20250219", { major: 3, minor: 7 }],
    ["claude-3-5-haiku-latest", { major: 3, minor: 5 }],
    ["claude-test", undefined],
  ];
  for (const [id, v] of cases) test(id, () => assert.deepEqual(claudeVersion(id), v));
});

describe("OpenAI (row 1, 2)", () => {
  test("gpt-5.4-mini has no minimal: low is sent, and no summary is asked for", () => {
    const r = req("openai", "gpt-5.4-mini", "minimal");
    assert.equal(r.reasoning, "low");
    assert.deepEqual(r.providerOptions, { openai: { reasoningSummary: null } });
    assert.match(r.sent, /reasoning\.effort low \(gpt-5\.4-mini has no minimal\)/);
  });
  const cases: [string, ThinkingLevel, string | undefined][] = [
    ["gpt-5", "minimal", "minimal"],
    ["gpt-5-mini", "off", "minimal"],
    ["gpt-5.1", "minimal", "low"],
    ["gpt-5.1", "xhigh", "high"],
    ["gpt-5.5", "xhigh", "xhigh"],
    ["gpt-5.5", "off", "none"],
    ["gpt-6-sol", "minimal", "low"],
    ["o3", "off", "low"],
    ["o4-mini", "high", "high"],
    ["gpt-5-pro", "low", "high"],
    ["gpt-4o", "high", undefined],
    ["gpt-4.1-mini", "high", undefined],
    ["gpt-5-chat-latest", "high", undefined],
  ];
  for (const [model, level, effort] of cases) {
    test(`${model} at ${level}`, () => assert.equal(req("openai", model, level).reasoning, effort));
  }
  test("no level sends nothing", () => {
    const r = req("openai", "gpt-5.5", undefined);
    assert.equal(r.reasoning, undefined);
    assert.deepEqual(r.providerOptions, {});
  });
});

describe("Anthropic (rows 7, 8, 9)", () => {
  test("Claude 4.6 and later get an effort, so levels differ (row 9)", () => {
    const low = req("anthropic", "claude-sonnet-4-6", "minimal");
    const high = req("anthropic", "claude-sonnet-4-6", "high");
    assert.deepEqual(low.providerOptions, {
      anthropic: { thinking: { type: "adaptive" }, effort: "low" },
    });
    assert.deepEqual(high.providerOptions.anthropic.effort, "high");
    assert.equal(
      req("anthropic", "claude-sonnet-4-6", "xhigh").providerOptions.anthropic.effort,
      "high",
    );
    assert.equal(
      req("anthropic", "claude-opus-4-7", "xhigh").providerOptions.anthropic.effort,
      "xhigh",
    );
  });
  test("the built-in Claude models all take an effort", () => {
    const models = BUILTIN_ROLE_MODELS.find((p) => p.provider === "anthropic")!.models;
    for (const m of Object.values(models)) {
      assert.equal(thinkingParameter("anthropic", m).kind, "anthropic-effort", m);
    }
  });
  test("the xhigh budget on Opus 4.1 stays below max_tokens within 32 000 (row 8)", () => {
    const r = req("anthropic", "claude-opus-4-1", "xhigh");
    const budget = r.providerOptions.anthropic.thinking.budgetTokens;
    assert.ok(budget < budget + r.maxOutputTokens);
    assert.ok(budget + r.maxOutputTokens <= 32000);
    assert.ok(r.maxOutputTokens >= 4096);
  });
  test("budgets on 64k models keep the full answer room", () => {
    const r = req("anthropic", "claude-sonnet-4-5", "xhigh");
    assert.deepEqual(r.providerOptions.anthropic.thinking, {
      type: "enabled",
      budgetTokens: 32000,
    });
    assert.equal(r.maxOutputTokens, MAX_OUTPUT_TOKENS);
  });
  test("thinking on: no forced tool choice (row 7)", () => {
    assert.equal(req("anthropic", "claude-haiku-5-5", "minimal").forcedToolChoice, false);
    assert.equal(req("anthropic", "claude-sonnet-4-5", "low").forcedToolChoice, false);
    assert.equal(req("anthropic", "claude-sonnet-4-5", "off").forcedToolChoice, true);
    assert.equal(req("anthropic", "claude-haiku-5-5", undefined).forcedToolChoice, true);
    assert.equal(req("anthropic", "claude-sonnet-5-5", undefined).forcedToolChoice, false);
  });
  test("off disables thinking where the model can", () => {
    assert.deepEqual(req("anthropic", "claude-haiku-5-5", "off").providerOptions, {
      anthropic: { thinking: { type: "disabled" } },
    });
    assert.equal(
      req("anthropic", "claude-opus-5-5", "off").providerOptions.anthropic.effort,
      "low",
    );
  });
  test("old models get nothing", () => {
    assert.deepEqual(req("anthropic", "claude-3-5-haiku-latest", "high").providerOptions, {});
  });
});

describe("Gemini (row 5)", () => {
  const level = (l: string) => ({
    google: { thinkingConfig: { thinkingLevel: l, includeThoughts: false } },
  });
  const budget = (n: number) => ({
    google: { thinkingConfig: { thinkingBudget: n, includeThoughts: false } },
  });
  const cases: [string, ThinkingLevel, unknown][] = [
    ["gemini-3-pro-preview", "medium", level("low")],
    ["gemini-3-pro-preview", "high", level("high")],
    ["gemini-3-pro-preview", "xhigh", level("high")],
    ["gemini-3-pro-preview", "off", level("low")],
    ["gemini-3.1-pro-preview", "medium", level("medium")],
    ["gemini-3-flash-preview", "minimal", level("minimal")],
    ["gemini-pro-latest", "medium", level("medium")],
    ["gemini-flash-latest", "minimal", level("low")],
    ["gemini-2.5-flash", "off", budget(0)],
    ["gemini-2.5-pro", "off", {}],
    ["gemini-2.5-pro", "minimal", budget(512)],
    ["gemini-2.0-flash", "xhigh", {}],
    ["gemini-1.5-pro", "high", {}],
  ];
  for (const [model, lvl, expected] of cases) {
    test(`${model} at ${lvl}`, () =>
      assert.deepEqual(req("google", model, lvl).providerOptions, expected));
  }
});

describe("OpenAI-compatible (rows 3, 4)", () => {
  test("Ollama takes none, low, medium, high", () => {
    assert.deepEqual(req("openai-compatible", "qwen3", "minimal").providerOptions, {
      ollama: { reasoningEffort: "low" },
    });
    assert.equal(
      req("openai-compatible", "qwen3", "xhigh").providerOptions.ollama.reasoningEffort,
      "high",
    );
    assert.equal(
      req("openai-compatible", "qwen3", "off").providerOptions.ollama.reasoningEffort,
      "none",
    );
  });
  test("before the server is asked, the line says it may still send nothing", () => {
    assert.match(req("openai-compatible", "qwen3", "low").sent, /unless the server says/);
    const asked = req("openai-compatible", "qwen3", "low", { facts: { thinking: true } });
    assert.equal(asked.sent, "reasoning_effort low");
  });
  test("a model the server says cannot think gets nothing", () => {
    const r = req("openai-compatible", "llama3.2", "high", { facts: { thinking: false } });
    assert.deepEqual(r.providerOptions, {});
    assert.match(r.sent, /cannot think/);
  });
  test("Ollama is known by name or by its port", () => {
    const r = modelRequest(
      { type: "openai-compatible", provider: "box", model: "qwen3", level: "minimal" },
      "http://10.0.0.1:11434/v1",
    );
    assert.equal(r.providerOptions.box.reasoningEffort, "low");
  });
  test("other servers get the level as is, until they refuse it", () => {
    const i = {
      type: "openai-compatible",
      provider: "local",
      model: "m",
      level: "minimal",
    } as const;
    assert.deepEqual(modelRequest(i).providerOptions, { local: { reasoningEffort: "minimal" } });
    assert.deepEqual(modelRequest({ ...i, level: "off" }).providerOptions, {});
    const dropped = modelRequest({ ...i, dropped: new Set(["reasoning_effort"]) });
    assert.deepEqual(dropped.providerOptions, {});
    assert.match(dropped.sent, /refused/);
  });
});

describe("droppable", () => {
  test("a forced tool choice, when one was sent", () => {
    assert.equal(droppable("anthropic", "tool_choice", true), true);
    assert.equal(droppable("anthropic", "tool_choice", false), false);
  });
  test("what xcsh sends an OpenAI-compatible server, and only there", () => {
    assert.equal(droppable("openai-compatible", "reasoning_effort", false), true);
    assert.equal(droppable("openai-compatible", "stream_options", false), true);
    assert.equal(droppable("openai-compatible", "strict", false), false);
    assert.equal(droppable("openai", "reasoning_effort", false), false);
  });
});

describe("samplingFor", () => {
  const all = { temperature: 0.3, topP: 0.9, topK: 40 };
  test("Gemini and OpenAI-compatible servers get what was asked", () => {
    assert.deepEqual(samplingFor("google", "gemini-2.5-pro", "high", all), { sampling: all });
    assert.deepEqual(samplingFor("openai-compatible", "qwen3", "low", all), { sampling: all });
  });
  test("a thinking Claude keeps only a top_p of at least 0.95", () => {
    const r = samplingFor("anthropic", "claude-sonnet-4-5", "medium", { ...all, topP: 0.97 });
    assert.deepEqual(r.sampling, { topP: 0.97 });
    assert.match(r.note!, /^temperature, top_k left out: claude-sonnet-4-5 thinks here/);
    assert.deepEqual(samplingFor("anthropic", "claude-sonnet-4-5", "off", all).sampling, all);
    assert.deepEqual(samplingFor("anthropic", "claude-sonnet-4-5", undefined, all).sampling, all);
  });
  test("OpenAI: no top_k anywhere; reasoning models take no temperature or top_p", () => {
    const r = samplingFor("openai", "gpt-5.5", "low", all);
    assert.deepEqual(r.sampling, {});
    assert.match(r.note!, /gpt-5\.5 is a reasoning model/);
    const chat = samplingFor("openai", "gpt-4o", undefined, all);
    assert.deepEqual(chat.sampling, { temperature: 0.3, topP: 0.9 });
    assert.equal(chat.note, "top_k left out: OpenAI takes no top_k");
  });
});
