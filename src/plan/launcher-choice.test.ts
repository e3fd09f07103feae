// Unit tests for which launcher a call uses.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { childLauncher, chooseLauncher } from "./launcher-choice.ts";
import type { AgentDefinition, LauncherEntry } from "../types.ts";

const task = {
  launcher: "cluster" as LauncherEntry | string,
  launchers: {
    cluster: { args: ["srun", "--"], shell: false },
    local2: { args: [] as string[], shell: false },
  },
};

describe("chooseLauncher", () => {
  test("the call, then the agent, then task.launcher", () => {
    assert.equal(chooseLauncher(task, 0, { call: "local" }).ok, true);
    assert.equal(
      (chooseLauncher(task, 0, { call: "local" }) as { plan?: unknown }).plan,
      undefined,
    );
    const byAgent = chooseLauncher({ launchers: task.launchers }, 0, { agent: "cluster" });
    assert.deepEqual(byAgent, {
      ok: true,
      plan: { name: "cluster", key: "task.launchers.cluster", args: ["srun", "--"], shell: false },
    });
    const dflt = chooseLauncher(task, 0, {});
    assert.equal(dflt.ok && dflt.plan?.name, "cluster");
    const list = chooseLauncher({ launcher: { args: ["ssh", "box"], shell: true } }, 0, {});
    assert.deepEqual(list.ok && list.plan, {
      name: "task.launcher",
      key: "task.launcher",
      args: ["ssh", "box"],
      shell: true,
    });
    assert.deepEqual(chooseLauncher({}, 0, {}), { ok: true });
  });
  test("an empty named launcher means local", () => {
    assert.deepEqual(chooseLauncher(task, 0, { call: "local2" }), { ok: true });
  });
  test("below the top level children start where their parent runs", () => {
    assert.deepEqual(chooseLauncher(task, 1, { call: "cluster" }), { ok: true });
  });
  test("an unknown name says where it came from and what is known", () => {
    const r = chooseLauncher(task, 0, { agent: "grid", agentFile: "/p/a.md" });
    assert.equal(r.ok, false);
    assert.match(
      (r as { message: string }).message,
      /^\/p\/a\.md: 'launcher' names the launcher 'grid', .*\(known: local, cluster, local2\)$/,
    );
  });
});

describe("childLauncher", () => {
  const config = {
    launchers: { grid: { args: ["no-such-launcher-program", "--"], shell: false } },
  } as unknown as Parameters<typeof childLauncher>[2]["task"];
  const req = { agent: "a", tasks: [], launcher: "grid" };
  const agent: AgentDefinition = {
    name: "a",
    description: "d",
    systemPrompt: "",
    source: "user",
    family: "xcsh",
  };
  test("a launcher whose program is missing starts no task, naming the launcher", () => {
    const warned: unknown[] = [];
    const r = childLauncher(req, agent, {
      task: config,
      depth: 0,
      path: "/nonexistent",
      dryRun: false,
      warn: (w) => warned.push(w),
    });
    assert.deepEqual(r, {
      ok: false,
      message: "launcher 'grid' (task.launchers.grid): the program 'no-such-launcher-program' " +
        "was not found on PATH; no task was started",
    });
    assert.deepEqual(warned, []);
  });
  test("a dry run warns instead and shows the launcher", () => {
    const warned: { field?: string; message: string }[] = [];
    const r = childLauncher(req, agent, {
      task: config,
      depth: 0,
      path: "/nonexistent",
      dryRun: true,
      warn: (w) => warned.push(w),
    });
    assert.equal(r.ok && r.value?.plan.name, "grid");
    assert.equal(warned.length, 1);
    assert.equal(warned[0].field, "task.launchers.grid");
    assert.match(warned[0].message, /a real run would start no task$/);
  });
  test("no launcher asked for or configured: none", () => {
    const r = childLauncher({ agent: "a", tasks: [] }, agent, {
      task: config,
      depth: 0,
      path: undefined,
      dryRun: false,
      warn: () => {},
    });
    assert.deepEqual(r, { ok: true });
  });
});
