// End-to-end tests of the child `xcsh run` starts before it plans
// (src/runner/spawn/spare-child.ts): the first task runs in it, with the spawn
// right and blocked agent its envelope carries; a task it cannot serve
// starts its own child; a run that starts no task leaves none behind.
//
// Needs `npm run build` first (npm test runs it).

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import process from "node:process";
import { cleanEnv, runXcsh, XCSH } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import { agentMd, toolResults, type World } from "../support/world.ts";

let w: World;
const { server, world } = modelHarness({
  setup: () => {
    w = world({
      agents: {
        shell: agentMd("shell", "tools: bash\n"),
        boss: agentMd("boss", "tools: bash, task\nspawns: explore\n"),
      },
    });
  },
});

const SHOW = "echo mark=$XCSH_TASK_MARK spawns=$XCSH_SPAWNS blocked=$PI_BLOCKED_AGENT";

/** The marks, spawn rights and blocked agents a task's bash saw. */
async function seen(agent: string, extra: string[] = []): Promise<string> {
  server.script([
    { toolCalls: [{ name: "bash", args: { command: SHOW } }] },
    { text: "done" },
  ]);
  const before = server.requests.length;
  const r = await runXcsh(["run", agent, "look", ...extra], { cwd: w.cwd, home: w.home });
  assert.equal(r.code, 0, r.stderr);
  return toolResults(server.requests[before + 1]);
}

test("the first task runs in the child started before planning, with its envelope's rights", async () => {
  const shell = await seen("shell");
  assert.match(shell, /mark=\d+-spare1-\w+ spawns= blocked=shell/);
  const boss = await seen("boss");
  assert.match(boss, /mark=\d+-spare1-\w+ spawns=explore blocked=boss/);
});

test("a task the spare cannot serve (its own worktree) starts its own child", {
  skip: spawnSync("git", ["--version"]).status === 0 ? false : "needs git",
}, async () => {
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
      cwd: w.cwd,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: w.home },
    });
  git("init", "-q");
  git("add", ".");
  git("commit", "-q", "--allow-empty", "-m", "start");
  const out = await seen("shell", ["--isolation", "worktree"]);
  assert.match(out, /mark=\d+-\d+-\w+ spawns= blocked=shell/, "a child of its own");
  assert.doesNotMatch(out, /spare/);
});

test("a run that starts no task leaves no child behind", {
  skip: process.platform === "linux" ? false : "reads other processes' environments in /proc",
}, async () => {
  const child = spawn(XCSH, ["run", "no-such-agent", "look"], {
    cwd: w.cwd,
    env: cleanEnv(w.home),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const code = await new Promise<number | null>((done) => child.on("close", done));
  assert.equal(code, 2, stderr);
  const prefix = `XCSH_TASK_MARK=${child.pid}-spare`;
  const left = readdirSync("/proc").filter((n) => /^\d+$/.test(n)).filter((n) => {
    try {
      return readFileSync(`/proc/${n}/environ`, "utf8").split("\0").some((v) =>
        v.startsWith(prefix)
      );
    } catch {
      return false;
    }
  });
  assert.deepEqual(left, []);
});
