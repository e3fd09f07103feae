// Hook matchers and what a hook's exit code and JSON answer mean.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { hookVerdict, matcherSelects, signalOfStatus } from "./hooks.ts";

test("a shell's status 128+N names the signal", () => {
  assert.equal(signalOfStatus(137), "SIGKILL");
  assert.equal(signalOfStatus(143), "SIGTERM");
  assert.equal(signalOfStatus(127), undefined);
  assert.equal(signalOfStatus(1), undefined);
});

describe("matcherSelects", () => {
  const rows: [string | undefined, string, boolean][] = [
    [undefined, "bash", true],
    ["Bash", "bash", true],
    ["Bash", "read", false],
    ["Edit|Write", "write", true],
    ["Edit|Write", "edit", true],
    ["Glob", "find", true],
    // Claude Code's matchers are case-sensitive, on its own names only.
    ["bash", "bash", false],
    ["read", "read", false],
    ["Read", "read", true],
    ["Agent", "task", true],
    ["Task", "task", true],
    ["mcp__.*", "mcp__github__create_issue", true],
    ["*", "bash", true],
    ["", "read", true],
    ["Bas", "bash", false],
    ["mcp__github__.*", "mcp__github__create_issue", true],
  ];
  for (const [matcher, tool, expected] of rows) {
    test(`${matcher} selects ${tool}: ${expected}`, () => {
      assert.equal(matcherSelects(matcher, tool), expected);
    });
  }
});

describe("hookVerdict", () => {
  const ok = (stdout: string) => ({ code: 0, stdout, stderr: "" });
  test("exit 2 blocks with stderr", () => {
    assert.deepEqual(hookVerdict("PreToolUse", { code: 2, stdout: "", stderr: "no rm\n" }), {
      block: "no rm",
    });
  });
  test("exit 0 without JSON lets it through", () => {
    assert.deepEqual(hookVerdict("PreToolUse", ok("fine")), {});
  });
  test("other exit codes are failures (undefined)", () => {
    assert.equal(hookVerdict("PreToolUse", { code: 1, stdout: "", stderr: "x" }), undefined);
  });
  test("PreToolUse JSON: deny, ask, continue false, additionalContext", () => {
    const deny = JSON.stringify({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: "not here",
      },
    });
    assert.deepEqual(hookVerdict("PreToolUse", ok(deny)), { block: "not here" });
    const ask = JSON.stringify({ hookSpecificOutput: { permissionDecision: "ask" } });
    assert.match(hookVerdict("PreToolUse", ok(ask))?.block ?? "", /cannot give/);
    assert.deepEqual(hookVerdict("PreToolUse", ok('{"continue": false, "stopReason": "s"}')), {
      stop: "s",
    });
    const updated = JSON.stringify({
      hookSpecificOutput: {
        permissionDecision: "allow",
        updatedInput: { command: "ls" },
        additionalContext: "checked",
      },
    });
    assert.deepEqual(hookVerdict("PreToolUse", ok(updated)), {
      updatedInput: { command: "ls" },
      context: "checked",
    });
    const allow = JSON.stringify({ hookSpecificOutput: { permissionDecision: "allow" } });
    assert.deepEqual(hookVerdict("PreToolUse", ok(allow)), {});
  });
  test("PostToolUse and Stop: decision block, additionalContext", () => {
    assert.deepEqual(hookVerdict("Stop", ok('{"decision": "block", "reason": "tests fail"}')), {
      block: "tests fail",
    });
    const ctx = JSON.stringify({ hookSpecificOutput: { additionalContext: "lint: 2 issues" } });
    assert.deepEqual(hookVerdict("PostToolUse", ok(ctx)), { context: "lint: 2 issues" });
    assert.deepEqual(hookVerdict("PostToolUse", ok("{not json")), {});
    assert.deepEqual(hookVerdict("PostToolUse", ok('{"continue": false}')), {
      stop: "a hook ended the task (continue: false)",
    });
  });
  test("start events: plain stdout is context; exit 2 blocks only UserPromptSubmit", () => {
    assert.deepEqual(hookVerdict("SessionStart", ok("branch main\n")), { context: "branch main" });
    assert.deepEqual(hookVerdict("PostToolUse", ok("ignored")), {});
    const two = { code: 2, stdout: "", stderr: "no secrets in prompts" };
    assert.deepEqual(hookVerdict("UserPromptSubmit", two), { block: "no secrets in prompts" });
    assert.deepEqual(hookVerdict("SessionStart", two), {});
  });
});
