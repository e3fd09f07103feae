// The built-in Claude tier models must be ids the installed Anthropic provider
// package lists, and the newest of each tier there.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { CLAUDE_TIERS } from "./claude-tiers.ts";

const TYPES = fileURLToPath(
  new URL("../../node_modules/@ai-sdk/anthropic/dist/index.d.ts", import.meta.url),
);

/** The model ids of the package's `languageModelDefinitions` type. */
function packageModelIds(): string[] {
  const text = readFileSync(TYPES, "utf8");
  const start = text.indexOf("declare const languageModelDefinitions");
  assert.ok(start >= 0, "the package no longer declares languageModelDefinitions");
  const end = text.indexOf("\n};", start);
  return [...text.slice(start, end).matchAll(/^\s*'(claude-[^']+)':/gm)].map((m) => m[1]);
}

/** Version numbers of an undated `claude-<tier>-<major>[-<minor>]` id, or undefined. */
function version(id: string, tier: string): number[] | undefined {
  const m = new RegExp(`^claude-${tier}-(\\d+)(?:-(\\d{1,2}))?$`).exec(id);
  return m ? [Number(m[1]), Number(m[2] ?? 0)] : undefined;
}

describe("CLAUDE_TIERS", () => {
  const ids = packageModelIds();
  test("the package lists models", () => assert.ok(ids.length > 5, ids.join(", ")));
  for (const [tier, t] of Object.entries(CLAUDE_TIERS)) {
    test(`${tier}: ${t.model} is in the installed package and the newest of its tier`, () => {
      assert.ok(ids.includes(t.model), `${t.model} not in ${ids.join(", ")}`);
      const newest = ids
        .map((id) => ({ id, v: version(id, tier) }))
        .filter((x) => x.v !== undefined)
        .sort((a, b) => b.v![0] - a.v![0] || b.v![1] - a.v![1])[0];
      assert.equal(t.model, newest.id);
    });
  }
});
