// Unit tests for which launcher a call uses and the command line it gets.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  chooseLauncher,
  jobName,
  launchCommand,
  protocolVariables,
  shellQuote,
} from "./launch-command.ts";

const task = {
  launcher: "cluster" as string[] | string,
  launchers: { cluster: ["srun", "--"], local2: [] as string[] },
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
      plan: { name: "cluster", key: "task.launchers.cluster", args: ["srun", "--"] },
    });
    const dflt = chooseLauncher(task, 0, {});
    assert.equal(dflt.ok && dflt.plan?.name, "cluster");
    const list = chooseLauncher({ launcher: ["ssh", "box"] }, 0, {});
    assert.deepEqual(list.ok && list.plan, {
      name: "task.launcher",
      key: "task.launcher",
      args: ["ssh", "box"],
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

describe("launchCommand", () => {
  const values = { task: "t 1", agent: "explore", session: "s9", cwd: "/work dir" };
  test("fills placeholders and appends the protocol variables and the binary", () => {
    const c = launchCommand(
      { name: "c", key: "k", args: ["srun", "-J", "{job}", "--chdir={cwd}", "{session}", "--"] },
      values,
      { XCSH_TASK_DEPTH: "1", XCSH_SPAWNS: "" },
      ["/bin/xcsh"],
    );
    assert.deepEqual(c, {
      command: "srun",
      args: [
        "-J",
        "xcsh-explore-t-1",
        "--chdir=/work dir",
        "s9",
        "--",
        "env",
        "XCSH_TASK_DEPTH=1",
        "XCSH_SPAWNS=",
        "/bin/xcsh",
        "__child",
      ],
    });
  });
  test("through ssh every value and word after the program is shell-quoted", () => {
    const c = launchCommand(
      { name: "c", key: "k", args: ["ssh", "box", "cd", "{cwd}", "&&"] },
      values,
      { XCSH_SPAWNS: "*", PI_BLOCKED_AGENT: "it's" },
      ["/opt/x y/xcsh"],
    );
    assert.deepEqual(c.args, [
      "box",
      "cd",
      "'/work dir'",
      "&&",
      "env",
      "'XCSH_SPAWNS=*'",
      `'PI_BLOCKED_AGENT=it'\\''s'`,
      "'/opt/x y/xcsh'",
      "__child",
    ]);
  });
});

test("jobName keeps what every engine accepts, at most 63 characters", () => {
  assert.equal(jobName("explore", "0-explore"), "xcsh-explore-0-explore");
  assert.equal(jobName("Quick_Task", "x/y;z"), "xcsh-quick-task-x-y-z");
  assert.equal(jobName("a".repeat(100), "t").length, 63);
  assert.equal(jobName("a", "b--"), "xcsh-a-b");
  assert.equal(jobName("a".repeat(57), "-x"), "xcsh-" + "a".repeat(57));
});

test("shellQuote leaves plain words alone and quotes the rest", () => {
  assert.equal(shellQuote("XCSH_TASK_DEPTH=1"), "XCSH_TASK_DEPTH=1");
  assert.equal(shellQuote("a b"), "'a b'");
  assert.equal(shellQuote("$(rm -rf ~)"), "'$(rm -rf ~)'");
  assert.equal(shellQuote(""), "''");
});

test("protocolVariables keeps xcsh's variables only", () => {
  assert.deepEqual(
    protocolVariables({ XCSH_TASK_DEPTH: "1", PI_BLOCKED_AGENT: "a", HOME: "/h", PATH: "/bin" }),
    { XCSH_TASK_DEPTH: "1", PI_BLOCKED_AGENT: "a" },
  );
});
