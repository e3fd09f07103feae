// Unit tests for which of an agent's hooks a child runs.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { trustedHooks } from "./child-hooks.ts";
import type { AgentDefinition } from "../types.ts";

const hooks = { PreToolUse: [{ hooks: [{ command: "echo hi" }] }] };

function agent(over: Partial<AgentDefinition>): AgentDefinition {
  return { name: "a", description: "d", systemPrompt: "", source: "user", family: "xcsh", ...over };
}

describe("trustedHooks", () => {
  const home = mkdtempSync(join(tmpdir(), "xcsh-hooks-"));
  const env = { cwd: home, home, env: { HOME: home } };
  test("an agent without hooks is unchanged, with no warning", () => {
    const a = agent({});
    assert.deepEqual(trustedHooks(a, env), { agent: a });
  });
  test("the user's own file keeps its hooks", () => {
    const a = agent({ hooks, filePath: join(home, "a.md") });
    assert.deepEqual(trustedHooks(a, env), { agent: a });
  });
  test("a plugin agent's hooks are dropped, with a warning naming the field", () => {
    const r = trustedHooks(agent({ hooks, family: "plugin", filePath: "/p/a.md" }), env);
    assert.equal(r.agent.hooks, undefined);
    assert.equal(r.warning?.field, "hooks");
    assert.equal(r.warning?.file, "/p/a.md");
    assert.match(r.warning?.message ?? "", /plugin agent's hooks are not run/);
  });
  test("an untrusted project's file loses its hooks, with how to allow them", () => {
    const file = join(home, "project", ".claude", "agents", "a.md");
    const r = trustedHooks(agent({ hooks, source: "project", filePath: file }), env);
    assert.equal(r.agent.hooks, undefined);
    assert.match(r.warning?.message ?? "", /not trusted \(run 'xcsh trust'/);
  });
  test("cleanup", () => rmSync(home, { recursive: true, force: true }));
});
