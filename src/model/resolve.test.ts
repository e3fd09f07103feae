import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { defaultConfig } from "../config/validate.ts";
import type { XcshConfig } from "../types.ts";
import { resolveModel, resolvePattern } from "./resolve.ts";

function config(): XcshConfig {
  const c = defaultConfig();
  c.models.default = "anthropic/claude-default";
  c.models.roles = { smol: "ollama/small", slow: "openai/big", plan: "xcsh/slow" };
  c.providers.local = { type: "openai-compatible", baseURL: "http://127.0.0.1:1/v1" };
  return c;
}

describe("resolvePattern", () => {
  test("inherit, default and the pi/xcsh spellings mean models.default", () => {
    for (const p of ["inherit", "default", "pi/default", "xcsh/default", "sonnet"]) {
      assert.deepEqual(resolvePattern(p, config()), { ok: true, id: "anthropic/claude-default" });
    }
  });

  test("roles follow config, also through another role", () => {
    assert.deepEqual(resolvePattern("xcsh/smol", config()), { ok: true, id: "ollama/small" });
    assert.deepEqual(resolvePattern("haiku", config()), { ok: true, id: "ollama/small" });
    assert.deepEqual(resolvePattern("pi/plan", config()), { ok: true, id: "openai/big" });
  });

  test("config aliases remap Claude names", () => {
    const c = config();
    c.models.aliases = { opus: "local/huge" };
    assert.deepEqual(resolvePattern("opus", c), { ok: true, id: "local/huge" });
  });

  test("unset roles, bare names, unknown providers and loops do not resolve", () => {
    const c = config();
    assert.match(
      (resolvePattern("xcsh/fast", c) as { reason: string }).reason,
      /models\.roles\.fast/,
    );
    assert.match((resolvePattern("gpt-5", c) as { reason: string }).reason, /provider\/model/);
    assert.match(
      (resolvePattern("nope/m", c) as { reason: string }).reason,
      /unknown provider 'nope'/,
    );
    c.models.roles.a = "xcsh/b";
    c.models.roles.b = "xcsh/a";
    assert.match((resolvePattern("xcsh/a", c) as { reason: string }).reason, /loop/);
  });

  test("model ids may contain more slashes", () => {
    assert.deepEqual(resolvePattern("local/org/model:7b", config()), {
      ok: true,
      id: "local/org/model:7b",
    });
  });
});

describe("resolveModel", () => {
  const base = { agentName: "explore", agentModels: ["xcsh/smol"] };

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
    const r = resolveModel({ agentName: "x", config: config() });
    assert.deepEqual(r.ok && r.value, {
      id: "anthropic/claude-default",
      provider: "anthropic",
      model: "claude-default",
      source: "default",
    });
  });

  test("the first agent pattern that resolves wins", () => {
    const r = resolveModel({
      agentName: "plan",
      agentModels: ["xcsh/missing", "nope/x", "xcsh/slow"],
      config: config(),
    });
    assert.ok(r.ok);
    assert.equal(r.value.id, "openai/big");
  });

  test("an explicit choice that does not resolve is an error", () => {
    const r = resolveModel({ ...base, config: config(), envelopeModel: "nosuch/x" });
    assert.ok(!r.ok);
    assert.match(
      r.error,
      /^the envelope's model: unknown provider 'nosuch'.*Known providers: anthropic, google, local, ollama, openai/,
    );
  });

  test("nothing to resolve says how to fix it", () => {
    const r = resolveModel({
      agentName: "explore",
      agentModels: ["xcsh/smol"],
      config: { ...config(), models: { roles: {}, aliases: {} } },
    });
    assert.ok(!r.ok);
    assert.match(r.error, /no model to run agent 'explore'/);
    assert.match(r.error, /models\.roles\.smol/);
    assert.match(r.error, /XCSH_MODEL/);
  });
});
