import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { chooseSandbox, describeSource, parseSandboxMode, startsCommands } from "./mode.ts";
import type { SandboxSetting } from "../types.ts";

describe("parseSandboxMode", () => {
  test("the three modes, and Codex's danger-full-access as off", () => {
    assert.equal(parseSandboxMode("read-only"), "read-only");
    assert.equal(parseSandboxMode("workspace-write"), "workspace-write");
    assert.equal(parseSandboxMode(" Off "), "off");
    assert.equal(parseSandboxMode("danger-full-access"), "off");
  });
  test("anything else names no mode", () => {
    for (const v of ["readonly", "", "none", true, 1, null, undefined]) {
      assert.equal(parseSandboxMode(v), undefined, String(v));
    }
  });
});

describe("chooseSandbox", () => {
  test("the flag, then the agent, then the config, then the default", () => {
    const all = {
      flag: "off",
      agent: "read-only",
      config: "workspace-write",
      network: true,
    } as const;
    assert.deepEqual(chooseSandbox(all), {
      mode: "off",
      network: true,
      required: true,
      source: "--sandbox",
    });
    assert.equal(chooseSandbox({ ...all, flag: undefined }).source, "agent");
    assert.equal(
      chooseSandbox({ ...all, flag: undefined }).required,
      false,
      "an agent's wish degrades",
    );
    assert.equal(chooseSandbox({ ...all, flag: undefined, agent: undefined }).required, true);
    assert.equal(
      chooseSandbox({ ...all, flag: undefined, agent: undefined }).source,
      "task.sandbox",
    );
    assert.deepEqual(chooseSandbox({ network: false }), {
      mode: "workspace-write",
      network: false,
      required: false,
      source: "default",
    });
  });

  test("a delegated task is never less confined than its caller", () => {
    const caller = { mode: "read-only", network: true, required: true } as const;
    assert.deepEqual(chooseSandbox({ agent: "off", network: true, caller }), {
      mode: "read-only",
      network: true,
      required: true,
      source: "caller",
    });
    const looser = { mode: "off", network: true, required: true } as const;
    assert.equal(
      chooseSandbox({ agent: "read-only", network: true, caller: looser }).mode,
      "read-only",
    );
    const noNet = { mode: "off", network: false, required: false } as const;
    assert.equal(chooseSandbox({ network: true, caller: noNet }).network, false);
  });

  test("a delegated task's network is no looser than its caller's: lists add up", () => {
    const caller: SandboxSetting = {
      mode: "workspace-write",
      network: true,
      reach: { allow: [["a.example"]] },
      required: false,
    };
    const shared = chooseSandbox({ network: { host: true }, caller });
    assert.deepEqual(shared.reach, { allow: [["a.example"]] });
    const own = chooseSandbox({ network: { allow: [["b.example"]] }, caller });
    assert.deepEqual(own.reach, { allow: [["b.example"], ["a.example"]] });
    const publicOnly = chooseSandbox({
      network: { allow: [["localhost"]] },
      caller: { mode: "workspace-write", network: true, required: false },
    });
    assert.deepEqual(publicOnly.reach, { allow: [["localhost"]], publicOnly: true });
    assert.deepEqual(chooseSandbox({ network: { host: true } }).reach, { host: true });
  });

  test("the default stays optional unless the caller required the same mode", () => {
    const explicitOff = { mode: "off", network: true, required: true } as const;
    assert.equal(chooseSandbox({ network: true, caller: explicitOff }).required, false);
    const explicitWs = { mode: "workspace-write", network: true, required: true } as const;
    assert.equal(chooseSandbox({ network: true, caller: explicitWs }).required, true);
  });

  test("messages name where the mode came from", () => {
    assert.equal(
      describeSource(chooseSandbox({ flag: "read-only", network: true })),
      "--sandbox read-only",
    );
    assert.equal(
      describeSource(chooseSandbox({ config: "read-only", network: true })),
      "task.sandbox: read-only",
    );
  });
});

describe("startsCommands", () => {
  const hook = { hooks: [{ command: "./check.sh" }] };
  test("bash, or every tool, starts commands", () => {
    assert.equal(startsCommands({ tools: ["read", "bash"] }), true);
    assert.equal(startsCommands({}), true);
  });
  test("hooks start commands whether or not the agent has bash", () => {
    assert.equal(startsCommands({ tools: ["read"], hooks: { Stop: [hook] } }), true);
    assert.equal(startsCommands({ tools: [], hooks: { PreToolUse: [hook] } }), true);
  });
  test("no bash and no hook: nothing to sandbox", () => {
    assert.equal(startsCommands({ tools: ["read", "grep"] }), false);
    assert.equal(startsCommands({ tools: ["read"], hooks: {} }), false);
    assert.equal(startsCommands({ tools: ["read"], hooks: { Stop: [{ hooks: [] }] } }), false);
  });
});
