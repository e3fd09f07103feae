import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { defaultConfig } from "../config/validate.ts";
import { modelReport, noUsableModel, providerReport } from "./doctor-models.ts";
import { formatTable } from "./output.ts";
import { CLAUDE_TIERS } from "../model/claude-tiers.ts";

describe("doctor's model report", () => {
  test("nothing set and no key: the warning says what to set", () => {
    const c = defaultConfig();
    const why = noUsableModel(modelReport(c, {}), providerReport(c, {}));
    assert.match(
      why ?? "",
      /^no model is usable here: .*Export ANTHROPIC_API_KEY, OPENAI_API_KEY or GEMINI_API_KEY, or set models\.default .*ollama\/qwen3:8b/,
    );
  });

  const rows: [string, (c: ReturnType<typeof defaultConfig>) => void, Record<string, string>][] = [
    ["a key for a built-in provider", () => {}, { GEMINI_API_KEY: "g" }],
    ["a default on a local provider", (c) => (c.models.default = "ollama/qwen3:8b"), {}],
    ["a role whose provider has its key", (c) => (c.models.roles.smol = "gpt-5-mini"), {
      OPENAI_API_KEY: "k",
    }],
  ];
  for (const [name, setup, env] of rows) {
    test(`no warning with ${name}`, () => {
      const c = defaultConfig();
      setup(c);
      assert.equal(noUsableModel(modelReport(c, env), providerReport(c, env)), undefined);
    });
  }

  test("unset default and roles show the built-in model a key brings", () => {
    const rows = modelReport(defaultConfig(), { ANTHROPIC_API_KEY: "k" });
    const of = (name: string) => rows.find((r) => r.name === name);
    assert.deepEqual(of("models.default"), {
      name: "models.default",
      resolved: `anthropic/${CLAUDE_TIERS.sonnet.model} (built-in)`,
    });
    assert.equal(of("roles.smol")?.resolved, `anthropic/${CLAUDE_TIERS.haiku.model} (built-in)`);
    assert.equal(of("roles.plan")?.resolved, `anthropic/${CLAUDE_TIERS.opus.model} (built-in)`);
    assert.deepEqual(modelReport(defaultConfig(), {}).find((r) => r.name === "roles.smol"), {
      name: "roles.smol",
    });
  });

  test("a default whose key is missing is shown as not runnable", () => {
    const c = defaultConfig();
    c.models.default = "claude-sonnet-4-20250514";
    const [row] = modelReport(c, {}).filter((r) => r.name === "models.default");
    assert.deepEqual(row, {
      name: "models.default",
      value: "claude-sonnet-4-20250514",
      resolved: "anthropic/claude-sonnet-4-20250514",
      problem: "ANTHROPIC_API_KEY not set",
    });
    assert.ok(noUsableModel(modelReport(c, {}), providerReport(c, {})));
  });

  test("the provider table lines up whatever the base URL's length", () => {
    const c = defaultConfig();
    const table = formatTable(
      ["provider", "type", "base URL", "status"],
      providerReport(c, {}).map((p) => [p.name, p.type, p.baseURL, p.status]),
    );
    const lines = table.trimEnd().split("\n");
    const starts = lines.map((l) => l.search(/(status|not usable|no key needed|key from)/));
    assert.ok(starts.every((s) => s === starts[0] && s > 0), table);
  });
});
