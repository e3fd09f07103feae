// The built-in role models: each id is one the installed provider package
// lists, every role is filled, and the first provider with a key wins.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { BUILTIN_ROLE_MODELS, builtinModel, isBuiltinRole } from "./builtin-defaults.ts";

const PACKAGES: Record<string, string> = {
  anthropic: "@ai-sdk/anthropic",
  openai: "@ai-sdk/openai",
  google: "@ai-sdk/google",
};

/** Every quoted model-like id in a provider package's type declarations. */
function packageIds(provider: string): Set<string> {
  const file = fileURLToPath(
    new URL(`../../node_modules/${PACKAGES[provider]}/dist/index.d.ts`, import.meta.url),
  );
  return new Set(
    [...readFileSync(file, "utf8").matchAll(/'([a-z][a-z0-9.-]+)'/g)].map((m) => m[1]),
  );
}

describe("BUILTIN_ROLE_MODELS", () => {
  for (const { provider, models } of BUILTIN_ROLE_MODELS) {
    const ids = packageIds(provider);
    for (const [role, model] of Object.entries(models)) {
      test(`${provider} ${role}: ${model} is listed by ${PACKAGES[provider]}`, () => {
        assert.ok(ids.has(model), `${model} is not in ${PACKAGES[provider]}'s model list`);
      });
    }
  }
});

test("builtinModel: the first provider whose key is set, in the documented order", () => {
  const anthropic = BUILTIN_ROLE_MODELS[0].models;
  assert.equal(builtinModel("smol", () => true), `anthropic/${anthropic.smol}`);
  assert.equal(builtinModel("default", (p) => p === "google"), "google/gemini-pro-latest");
  assert.equal(builtinModel("plan", (p) => p !== "anthropic"), "openai/gpt-5.5");
  assert.equal(builtinModel("default", () => false), undefined);
});

test("isBuiltinRole: the roles config knows, not any name", () => {
  for (const role of ["default", "smol", "slow", "plan"]) assert.ok(isBuiltinRole(role));
  for (const role of ["fast", "constructor", ""]) assert.ok(!isBuiltinRole(role));
});
