// Unit tests for classifyModelPattern: inherit aliases, roles, Claude model
// family names and config remapping.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { classifyModelPattern, type ModelPattern } from "./patterns.ts";

const INHERIT: ModelPattern = { kind: "inherit" };
const role = (r: string): ModelPattern => ({ kind: "role", role: r });
const id = (i: string): ModelPattern => ({ kind: "id", id: i });
const tier = (t: string): ModelPattern => ({ kind: "tier", tier: t });

describe("classifyModelPattern", () => {
  const rows: {
    input: string;
    aliases?: Record<string, string>;
    expect: ModelPattern;
  }[] = [
    { input: "default", expect: INHERIT },
    { input: "inherit", expect: INHERIT },
    { input: "Inherit", expect: INHERIT },
    { input: "pi/default", expect: INHERIT },
    { input: "xcsh/default", expect: INHERIT },
    { input: " xcsh/default ", expect: INHERIT },
    { input: "xcsh/smol", expect: role("smol") },
    { input: "xcsh/slow", expect: role("slow") },
    { input: "xcsh/plan", expect: role("plan") },
    { input: "pi/smol", expect: role("smol") },
    { input: "xcsh/my-role_2", expect: role("my-role_2") },
    { input: "sonnet", expect: tier("sonnet") },
    { input: "opus", expect: tier("opus") },
    { input: "haiku", expect: tier("haiku") },
    { input: "Opus", expect: tier("opus") },
    { input: "claude-sonnet-4-20250514", expect: id("claude-sonnet-4-20250514") },
    { input: "anthropic/claude-sonnet-4-5", expect: id("anthropic/claude-sonnet-4-5") },
    { input: "openai/gpt-5", expect: id("openai/gpt-5") },
    { input: "ollama/qwen3:8b", expect: id("ollama/qwen3:8b") },
    { input: "gpt-4o", expect: id("gpt-4o") },
    { input: "  openai/gpt-5  ", expect: id("openai/gpt-5") },
    { input: "xcsh/a/b", expect: id("xcsh/a/b") },
    // Config remaps Claude's names (and other bare names).
    {
      input: "opus",
      aliases: { opus: "anthropic/claude-opus-4-5" },
      expect: id("anthropic/claude-opus-4-5"),
    },
    { input: "Haiku", aliases: { haiku: "xcsh/fast" }, expect: role("fast") },
    { input: "sonnet", aliases: { sonnet: "inherit" }, expect: INHERIT },
    { input: "sonnet", aliases: { opus: "openai/o3" }, expect: tier("sonnet") },
    { input: "fast", aliases: { fast: "ollama/qwen3" }, expect: id("ollama/qwen3") },
    // Inherit and roles are not remappable.
    { input: "default", aliases: { default: "openai/gpt-5" }, expect: INHERIT },
    // Prototype keys are plain ids, never lookups (no crash, no function values).
    { input: "constructor", expect: id("constructor") },
    { input: "__proto__", expect: id("__proto__") },
    { input: "constructor", aliases: {}, expect: id("constructor") },
  ];
  for (const row of rows) {
    const label = row.aliases
      ? `${JSON.stringify(row.input)} with ${JSON.stringify(row.aliases)}`
      : JSON.stringify(row.input);
    test(label, () => {
      assert.deepEqual(classifyModelPattern(row.input, row.aliases), row.expect);
    });
  }
});
