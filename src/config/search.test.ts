import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { checkSearchConfig } from "./search.ts";
import { validateConfig } from "./validate.ts";

describe("search config", () => {
  test("defaults per provider", () => {
    assert.deepEqual(checkSearchConfig({ provider: "tavily" }), {
      provider: "tavily",
      apiKeyEnv: "TAVILY_API_KEY",
      baseURL: "https://api.tavily.com",
    });
    assert.deepEqual(
      checkSearchConfig({
        provider: "brave",
        apiKeyEnv: "MY_KEY",
        baseURL: "http://127.0.0.1:8/b/",
      }),
      { provider: "brave", apiKeyEnv: "MY_KEY", baseURL: "http://127.0.0.1:8/b" },
    );
  });
  const bad: [unknown, string, RegExp][] = [
    ["brave", "search", /'search' must be a mapping/],
    [{}, "search.provider", /must be one of brave, tavily, got nothing/],
    [{ provider: "google" }, "search.provider", /got "google"/],
    [
      { provider: "brave", apiKeyEnv: "not a var" },
      "search.apiKeyEnv",
      /name of an environment variable/,
    ],
    [{ provider: "brave", baseURL: "ftp://x" }, "search.baseURL", /http\(s\) URL/],
  ];
  for (const [value, field, message] of bad) {
    test(`${JSON.stringify(value)} is an error naming ${field}`, () => {
      const r = validateConfig({ search: value }, "c.yml");
      assert.ok(!r.ok);
      assert.equal(r.error.field, field);
      assert.equal(r.error.file, "c.yml");
      assert.match(r.error.message, message);
    });
  }
  test("unknown keys under search warn", () => {
    const r = validateConfig({ search: { provider: "brave", key: "x" } }, "c.yml");
    assert.ok(r.ok);
    assert.equal(r.warnings[0].field, "search.key");
  });
});
