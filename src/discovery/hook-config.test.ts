// The hooks: block of an agent file in Claude Code's shape.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseHooks } from "./hook-config.ts";

const cmd = (command: string, extra: Record<string, unknown> = {}) => ({
  type: "command",
  command,
  ...extra,
});

describe("parseHooks", () => {
  test("the three events of a subagent; SubagentStop is Stop; * and empty match all", () => {
    const r = parseHooks({
      PreToolUse: [{ matcher: "Bash", hooks: [cmd("./pre.sh", { timeout: 5 })] }],
      PostToolUse: [{ matcher: "*", hooks: [cmd("./post.sh")] }],
      SubagentStop: [{ hooks: [cmd("./stop.sh")] }],
    });
    assert.deepEqual(r, {
      ok: true,
      hooks: {
        PreToolUse: [{ matcher: "Bash", hooks: [{ command: "./pre.sh", timeout: 5 }] }],
        PostToolUse: [{ hooks: [{ command: "./post.sh" }] }],
        Stop: [{ hooks: [{ command: "./stop.sh" }] }],
      },
      warnings: [],
    });
  });
  test("events a subagent never has, and hooks that are not commands, are warnings", () => {
    const r = parseHooks({
      Notification: [{ hooks: [cmd("x")] }],
      SessionEnd: [{ hooks: [cmd("x")] }],
      Stop: [{
        hooks: [{ type: "prompt", prompt: "check" }, { type: "http" }, cmd("./stop.sh")],
      }],
    });
    assert.ok(r.ok);
    assert.deepEqual(r.hooks, { Stop: [{ hooks: [{ command: "./stop.sh" }] }] });
    assert.deepEqual(r.warnings.map((w) => w.field), [
      "hooks.Notification",
      "hooks.SessionEnd",
      "hooks.Stop[0].hooks[0]",
      "hooks.Stop[0].hooks[1]",
    ]);
    assert.match(r.warnings[1].message, /not run \(it never happens in a subagent\)/);
    assert.match(r.warnings[2].message, /'prompt' hook, which xcsh does not run/);
    assert.match(r.warnings[3].message, /'http' hook/);
  });
  test("PreCompact is read, its matcher (auto) kept", () => {
    const r = parseHooks({ PreCompact: [{ matcher: "auto", hooks: [cmd("./save.sh")] }] });
    assert.ok(r.ok);
    assert.deepEqual(r.hooks, {
      PreCompact: [{ matcher: "auto", hooks: [{ command: "./save.sh" }] }],
    });
    assert.deepEqual(r.warnings, []);
  });
  test("the start events are read; in a settings file Stop is the main session's", () => {
    const value = {
      SessionStart: [{ hooks: [cmd("a")] }],
      SubagentStart: [{ hooks: [cmd("b")] }],
      UserPromptSubmit: [{ hooks: [cmd("c")] }],
      Stop: [{ hooks: [cmd("d")] }],
      SubagentStop: [{ hooks: [cmd("e")] }],
    };
    const agent = parseHooks(value);
    assert.ok(agent.ok);
    assert.deepEqual(Object.keys(agent.hooks), [
      "SessionStart",
      "SubagentStart",
      "UserPromptSubmit",
      "Stop",
    ]);
    assert.equal(agent.hooks.Stop?.length, 2);
    const settings = parseHooks(value, { settings: true });
    assert.ok(settings.ok);
    assert.deepEqual(settings.hooks.Stop, [{ hooks: [{ command: "e" }] }]);
    assert.deepEqual(settings.warnings.map((w) => w.field), ["hooks.Stop"]);
    assert.match(settings.warnings[0].message, /use SubagentStop/);
  });
  const bad: [string, unknown, RegExp][] = [
    ["not a mapping", ["x"], /'hooks' must be a mapping/],
    ["an event that is no list", { PreToolUse: "x" }, /'hooks\.PreToolUse' must be a list/],
    ["a group without hooks", { PreToolUse: [{ matcher: "Bash" }] }, /must be \{matcher, hooks/],
    [
      "a bad regex",
      { PreToolUse: [{ matcher: "(", hooks: [cmd("x")] }] },
      /not a regular expression/,
    ],
    [
      "no command",
      { PreToolUse: [{ hooks: [{ type: "command" }] }] },
      /command' must be a command line/,
    ],
    [
      "a bad timeout",
      { Stop: [{ hooks: [cmd("x", { timeout: -1 })] }] },
      /timeout' must be a number/,
    ],
  ];
  for (const [name, value, error] of bad) {
    test(name, () => {
      const r = parseHooks(value);
      assert.ok(!r.ok);
      assert.match(r.message, error);
    });
  }
});
