import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { defaultConfig } from "../config/validate.ts";
import type { XcshConfig } from "../types.ts";
import {
  keyVariables,
  normalizeBaseURL,
  providerTypeNamed,
  resolveProvider,
  runSecrets,
  splitModelId,
} from "./providers.ts";

describe("resolveProvider", () => {
  test("built-ins have their endpoints and keys", () => {
    const r = resolveProvider("anthropic", defaultConfig(), { ANTHROPIC_API_KEY: "k-123" });
    assert.deepEqual(r, {
      ok: true,
      value: {
        name: "anthropic",
        type: "anthropic",
        baseURL: "https://api.anthropic.com/v1",
        apiKey: "k-123",
        keyEnv: "ANTHROPIC_API_KEY",
      },
    });
  });

  test("base URL variables move built-ins (a bare host gets its version path)", () => {
    const env = { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "http://127.0.0.1:9" };
    const r = resolveProvider("anthropic", defaultConfig(), env);
    assert.ok(r.ok);
    assert.equal(r.value.baseURL, "http://127.0.0.1:9/v1");
    const g = resolveProvider("google", defaultConfig(), {
      GOOGLE_GENERATIVE_AI_API_KEY: "k",
      GEMINI_BASE_URL: "http://proxy/gem/v1beta/",
    });
    assert.ok(g.ok);
    assert.equal(g.value.baseURL, "http://proxy/gem/v1beta");
    assert.equal(g.value.keyEnv, "GOOGLE_GENERATIVE_AI_API_KEY");
    const o = resolveProvider("ollama", defaultConfig(), { OLLAMA_BASE_URL: "http://gpu:11434" });
    assert.ok(o.ok);
    assert.equal(o.value.baseURL, "http://gpu:11434/v1");
    assert.equal(o.value.apiKey, undefined);
  });

  test("a missing key names the variable", () => {
    for (
      const [name, variable] of [["anthropic", "ANTHROPIC_API_KEY"], ["openai", "OPENAI_API_KEY"], [
        "google",
        "GEMINI_API_KEY",
      ]]
    ) {
      const r = resolveProvider(name, defaultConfig(), {});
      assert.ok(!r.ok);
      assert.ok(r.error.startsWith(variable), r.error);
      assert.ok(!r.error.includes("\n"));
    }
  });

  test("custom providers come from config, with an optional key variable", () => {
    const c = defaultConfig();
    c.providers.local = { type: "openai-compatible", baseURL: "http://127.0.0.1:8080/v1" };
    c.providers.corp = { type: "anthropic", baseURL: "https://llm.corp/v1", apiKeyEnv: "CORP_KEY" };
    assert.deepEqual(resolveProvider("local", c, {}), {
      ok: true,
      value: { name: "local", type: "openai-compatible", baseURL: "http://127.0.0.1:8080/v1" },
    });
    const missing = resolveProvider("corp", c, {});
    assert.ok(!missing.ok);
    assert.match(missing.error, /^CORP_KEY is not set/);
    const ok = resolveProvider("corp", c, { CORP_KEY: "s3cret-key" });
    assert.ok(ok.ok);
    assert.equal(ok.value.apiKey, "s3cret-key");
    assert.ok(keyVariables(c).includes("CORP_KEY"));
  });

  test("an unknown provider lists the known ones", () => {
    const r = resolveProvider("nope", defaultConfig(), {});
    assert.ok(!r.ok);
    assert.match(
      r.error,
      /unknown provider 'nope'\. Known providers: anthropic, google, ollama, openai/,
    );
  });

  test("splitModelId and normalizeBaseURL", () => {
    assert.deepEqual(splitModelId("a/b/c"), { provider: "a", model: "b/c" });
    assert.equal(splitModelId("plain"), undefined);
    assert.equal(splitModelId("a/"), undefined);
    assert.equal(normalizeBaseURL("https://x/api/", "openai-compatible"), "https://x/api");
    assert.equal(normalizeBaseURL("https://x", "google"), "https://x/v1beta");
  });
});

describe("providerTypeNamed", () => {
  test("the config entry's type, else the built-in's, else none", () => {
    const config = {
      providers: {
        local: { type: "openai-compatible" as const, baseURL: "http://127.0.0.1:1/v1" },
        openai: { baseURL: "http://127.0.0.1:2/v1" },
        anthropic: { type: "openai-compatible" as const, baseURL: "http://127.0.0.1:3/v1" },
        // A config entry for a built-in may leave out its type.
      } as unknown as XcshConfig["providers"],
    };
    assert.equal(providerTypeNamed("local", config), "openai-compatible");
    assert.equal(providerTypeNamed("openai", config), "openai", "an entry without a type");
    assert.equal(providerTypeNamed("anthropic", config), "openai-compatible", "the entry wins");
    assert.equal(providerTypeNamed("google", config), "google");
    assert.equal(providerTypeNamed("nowhere", config), undefined);
    assert.equal(providerTypeNamed("constructor", config), undefined, "no inherited names");
  });
});

describe("runSecrets", () => {
  test("the keys by value whatever their names, secret variables, base URL credentials", () => {
    const config = defaultConfig();
    config.providers.local = {
      type: "openai-compatible",
      baseURL: "http://user:pa55word-long@127.0.0.1:1/v1",
      apiKeyEnv: "CORP_LLM",
    };
    const out = runSecrets(config, {
      CORP_LLM: " corp-llm-value-1 ",
      DB_CREDENTIAL: "db-cred-value-1",
      HOME: "/home/someone",
    });
    for (
      const v of [" corp-llm-value-1 ", "corp-llm-value-1", "db-cred-value-1", "pa55word-long"]
    ) {
      assert.ok(out.includes(v), v);
    }
    assert.ok(!out.includes("/home/someone"));
    assert.deepEqual(out, [...out].sort((a, b) => b.length - a.length));
  });
});
