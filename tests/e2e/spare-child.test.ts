// End-to-end tests of the child `xcsh run` starts before it plans
// (src/runner/spawn/spare-child.ts): the first task runs in it, with the spawn
// right and blocked agent its envelope carries; a task it cannot serve
// starts its own child; a run that starts no task leaves none behind. The
// spare starts before the config is read; a config that names a key
// variable set in the environment, or a launcher, has it released (the key
// never reaches a child that way), and none is left behind.
//
// Needs `npm run build` first (npm test runs it).

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import process from "node:process";
import { cleanEnv, runXcsh, XCSH } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import type { RecordedRequest, Turn } from "../support/model-server.ts";
import { agentMd, isAfterTool, toolResults, type World } from "../support/world.ts";

let w: World;
const { server, world, respond } = modelHarness({
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

/** `xcsh ARGS` in `world`'s project, with its pid. */
async function runWithPid(
  args: string[],
  world: World,
  env: Record<string, string> = {},
): Promise<{ pid: number; code: number | null; stdout: string; stderr: string }> {
  const child = spawn(XCSH, args, {
    cwd: world.cwd,
    env: { ...cleanEnv(world.home), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const code = await new Promise<number | null>((done) => child.on("close", done));
  return { pid: child.pid ?? -1, code, stdout, stderr };
}

test("a run that starts no task leaves no child behind", {
  skip: process.platform === "linux" ? false : "reads other processes' environments in /proc",
}, async () => {
  const r = await runWithPid(["run", "no-such-agent", "look"], w);
  assert.equal(r.code, 2, r.stderr);
  assert.deepEqual(marked(`${r.pid}-spare`), []);
});

/** Pids of the processes whose environment holds `XCSH_TASK_MARK=<prefix>…`. */
function marked(prefix: string): string[] {
  return readdirSync("/proc").filter((n) => /^\d+$/.test(n)).filter((n) => {
    try {
      return readFileSync(`/proc/${n}/environ`, "utf8").split("\0").some((v) =>
        v.startsWith(`XCSH_TASK_MARK=${prefix}`)
      );
    } catch {
      return false;
    }
  });
}

/** A model that runs `command` with bash, then says it is done. */
const bashThenDone = (command: string) => (req: RecordedRequest): Turn =>
  isAfterTool(req) ? { text: "done" } : { toolCalls: [{ name: "bash", args: { command } }] };

/** Waits until no process holds a mark starting with `prefix` (a released spare exits). */
async function noneLeft(prefix: string): Promise<string[]> {
  for (let i = 0; i < 50 && marked(prefix).length > 0; i++) {
    await new Promise((r) => setTimeout(r, 20));
  }
  return marked(prefix);
}

test("a key variable the config names is set: the spare started before the config is released", {
  skip: process.platform === "linux" ? false : "reads other processes' environments in /proc",
}, async () => {
  const k = world({
    config: `providers:\n  local: { type: openai-compatible, baseURL: "${server.url}/v1", ` +
      `apiKeyEnv: XT_LOCAL_CREDENTIAL }\nmodels:\n  default: local/mock-large\n` +
      `  roles: { smol: local/mock-small }\n`,
    agents: { shell: agentMd("shell", "tools: bash\n") },
  });
  const key = "xt-credential-0123456789abcdef";
  respond(bashThenDone(SHOW));
  const before = server.requests.length;
  const r = await runWithPid(["run", "shell", "look", "--json"], k, { XT_LOCAL_CREDENTIAL: key });
  respond(undefined);
  assert.equal(r.code, 0, r.stderr);
  // The first spare (started before the config was read) held the key in
  // its environment: the task ran in the second, started once the config
  // named the variable.
  assert.match(JSON.parse(r.stdout).results[0].text ?? "", /done/);
  assert.match(
    toolResults(server.requests[before + 1]),
    /mark=\d+-spare2-\w+ spawns= blocked=shell/,
  );
  // The key reached the model call through the envelope.
  assert.equal(server.requests[before].headers.authorization, `Bearer ${key}`);
  assert.deepEqual(await noneLeft(`${r.pid}-spare`), []);
});

test("a launcher the config sets: the spare started before the config is released", {
  skip: process.platform === "linux" ? false : "reads other processes' environments in /proc",
}, async () => {
  const l = world({
    extraConfig: `task:\n  launcher: ["env", "XCSH_TEST_LAUNCHED=yes"]\n`,
    agents: { shell: agentMd("shell", "tools: bash\n") },
  });
  respond(bashThenDone(`${SHOW} launched=$XCSH_TEST_LAUNCHED`));
  const before = server.requests.length;
  const r = await runWithPid(["run", "shell", "look"], l);
  respond(undefined);
  assert.equal(r.code, 0, r.stderr);
  const seen = toolResults(server.requests[before + 1]);
  assert.match(seen, /launched=yes/);
  assert.doesNotMatch(seen, /spare/, "the task ran behind the launcher, not in a spare");
  assert.deepEqual(await noneLeft(`${r.pid}-spare`), []);
});
