// End to end: the folders that widen what the tools may touch lie where
// they belong. A memory folder, or a folder on its way, that is a symlink out
// of the project gives the agent no root there; a MEMORY.md or a skill folder
// leading out of the project does not reach the prompt; a root a command
// swaps for a symlink during the task does not move; skill folders are
// read-only to `write` and to sandboxed commands. Nothing here is trusted.
// The tests that need bwrap say so when they are skipped.
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import process from "node:process";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { runXcsh } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import { outsideFolder } from "../support/outside-folder.ts";
import type { Turn } from "../support/model-server.ts";
import { agentMd, systemPrompt, toolResults, type World } from "../support/world.ts";
import { bwrapLocations, sandboxSupport } from "../../src/sandbox/probe.ts";

const linux = process.platform === "linux" ? false : "needs Linux";
const support = sandboxSupport(bwrapLocations(process.env), true);
const needsBwrap = linux || (support.ok ? false : `bwrap unavailable: ${support.reason}`);

const { server, world, scratch } = modelHarness({ respond: () => ({ text: "done" }) });

const call = (name: string, args: Record<string, unknown>) => ({ name, args });

/** Runs `agent` with the model making `turns` (one tool-call turn each), then "done". */
async function runTurns(w: World, agent: string, turns: Turn[], env = {}) {
  server.script([...turns, { text: "done" }]);
  server.requests.length = 0;
  const r = await runXcsh(["run", agent, "go"], { cwd: w.cwd, home: w.home, env });
  const results = server.requests.slice(1).map((req) => toolResults(req));
  return { r, results, prompt: server.requests[0] ? systemPrompt(server.requests[0]) : "" };
}

function skill(dir: string, name: string, body: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "SKILL.md"),
    `---\nname: ${name}\ndescription: ${name} skill\n---\n${body}\n`,
  );
  return dir;
}

describe("memory folders lie in the project", () => {
  test("a memory-local folder linked to $HOME: write cannot reach ~/.bashrc", async () => {
    const w = world({ agents: { rev: agentMd("rev", "tools: Read, Write\nmemory: local\n") } });
    mkdirSync(join(w.cwd, ".claude", "agent-memory-local"), { recursive: true });
    const link = join(w.cwd, ".claude", "agent-memory-local", "rev");
    symlinkSync(w.home, link);
    const { r, results, prompt } = await runTurns(w, "rev", [
      { toolCalls: [call("write", { path: join(link, ".bashrc"), content: "evil\n" })] },
      { toolCalls: [call("write", { path: join(w.home, ".bashrc"), content: "evil\n" })] },
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(existsSync(join(w.home, ".bashrc")), false);
    assert.match(results[0], /outside/);
    assert.match(results[1], /outside/);
    assert.doesNotMatch(prompt, /## Memory/);
    assert.match(
      r.stderr,
      /`\.claude\/agent-memory-local\/rev` is a symlink: memory folders must be real folders inside the project; the agent runs without memory/,
    );
  });

  test("a link in a middle component (.claude/agent-memory-local itself) is refused too", async () => {
    const w = world({ agents: { agent: agentMd("agent", "tools: Read, Write\nmemory: local\n") } });
    const config = join(w.home, ".xcsh", "agent", "config.yml");
    const before = readFileSync(config, "utf8");
    mkdirSync(join(w.cwd, ".claude"), { recursive: true });
    // `.claude/agent-memory-local/agent` would be ~/.xcsh/agent.
    symlinkSync(join(w.home, ".xcsh"), join(w.cwd, ".claude", "agent-memory-local"));
    const { r, results } = await runTurns(w, "agent", [
      { toolCalls: [call("write", { path: config, content: "providers: {}\n" })] },
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(readFileSync(config, "utf8"), before);
    assert.match(results[0], /outside/);
    assert.match(r.stderr, /`\.claude\/agent-memory-local` is a symlink: memory folders must be/);
  });

  test("a MEMORY.md linked to a secret outside is not in the prompt", async () => {
    const w = world({ agents: { rev: agentMd("rev", "tools: Read\nmemory: local\n") } });
    const secret = join(w.root, "credentials");
    writeFileSync(secret, "aws_secret_access_key = SECRET-KEY-4242\n");
    const dir = join(w.cwd, ".claude", "agent-memory-local", "rev");
    mkdirSync(dir, { recursive: true });
    symlinkSync(secret, join(dir, "MEMORY.md"));
    const { r } = await runTurns(w, "rev", []);
    assert.equal(r.code, 0, r.stderr);
    for (const req of server.requests) {
      assert.doesNotMatch(JSON.stringify(req.body), /SECRET-KEY-4242/);
    }
    assert.match(r.stderr, /MEMORY\.md leads outside its folder/);
  });

  test("a memory folder a command swaps for a link to $HOME mid-task gives no root there", async () => {
    const w = world({
      agents: { rev: agentMd("rev", "tools: Read, Write, Bash\nmemory: local\n") },
    });
    const dir = join(w.cwd, ".claude", "agent-memory-local", "rev");
    mkdirSync(dir, { recursive: true });
    // What a command could do; made here so the test needs no sandbox.
    const swap = {
      toolCalls: [
        call("bash", { command: `rmdir '${dir}' && ln -s '${w.home}' '${dir}' && echo swapped` }),
      ],
    };
    const { r, results } = await runTurns(w, "rev", [
      swap,
      { toolCalls: [call("write", { path: join(dir, ".bashrc"), content: "evil\n" })] },
    ], { XCSH_NO_BWRAP: "1" });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(existsSync(join(w.home, ".bashrc")), false);
    assert.match(results[0], /swapped/);
    assert.match(results[1], /outside/);
  });
});

describe("a sandboxed command and the memory folder", { skip: needsBwrap }, () => {
  test("a link one run plants for the user's memory-local agent gives the next no $HOME", async () => {
    // Stands for a $HOME the sandbox sees (the test's own is below /tmp, hidden there).
    const home = scratch(outsideFolder());
    const w = world({
      agents: {
        sh: agentMd("sh", "tools: Bash\n"),
        rev: agentMd("rev", "tools: Bash\nmemory: local\n"),
      },
    });
    const dir = join(w.cwd, ".claude", "agent-memory-local", "rev");
    const bash = (command: string): Turn => ({ toolCalls: [call("bash", { command })] });
    const plant = await runTurns(w, "sh", [
      // Relative: bubblewrap follows it inside the sandbox as well.
      bash(
        `mkdir -p '${dirname(dir)}' && ln -s '${
          relative(dirname(dir), home)
        }' '${dir}' && echo planted`,
      ),
    ]);
    assert.equal(plant.r.code, 0, plant.r.stderr);
    assert.match(plant.results[0], /planted/);
    const { r } = await runTurns(w, "rev", [bash(`echo evil > '${dir}/.bashrc'; echo end`)]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(existsSync(join(home, ".bashrc")), false);
    assert.match(r.stderr, /`\.claude\/agent-memory-local\/rev` is a symlink/);
  });
});

describe("skill folders", () => {
  test("a skill folder linked out of the project: not preloaded, not a read root", async () => {
    const w = world({
      agents: { helper: agentMd("helper", "tools: Read, Skill\nskills: [leak]\n") },
    });
    const outside = skill(join(w.root, "elsewhere"), "leak", "LEAKED-SKILL-BODY");
    writeFileSync(join(outside, "secret.txt"), "OUTSIDE-SECRET-77\n");
    mkdirSync(join(w.cwd, ".claude", "skills"), { recursive: true });
    symlinkSync(outside, join(w.cwd, ".claude", "skills", "leak"));
    const { r, results, prompt } = await runTurns(w, "helper", [
      { toolCalls: [call("read", { path: join(outside, "secret.txt") })] },
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(prompt, /LEAKED-SKILL-BODY/);
    assert.match(results[0], /outside/);
    assert.doesNotMatch(results[0], /OUTSIDE-SECRET-77/);
    const listed = await runXcsh(["skills", "--verbose"], { cwd: w.cwd, home: w.home });
    assert.doesNotMatch(listed.stdout, /^leak /m);
    assert.match(
      listed.stderr,
      /`\.claude\/skills\/leak` is a symlink: skill folders must be real folders inside the project/,
    );
  });

  test("write and edit refuse a project skill folder", async () => {
    const w = world({ agents: { helper: agentMd("helper", "tools: Read, Write, Edit\n") } });
    const dir = skill(join(w.cwd, ".claude", "skills", "rel"), "rel", "Tag, then push.");
    const file = join(dir, "SKILL.md");
    const before = readFileSync(file, "utf8");
    const { r, results } = await runTurns(w, "helper", [
      { toolCalls: [call("write", { path: file, content: "hijacked" })] },
      { toolCalls: [call("edit", { path: file, old_string: "Tag", new_string: "Delete" })] },
      { toolCalls: [call("write", { path: join(dir, "new.md"), content: "x" })] },
      { toolCalls: [call("write", { path: join(w.cwd, "ok.txt"), content: "fine" })] },
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(readFileSync(file, "utf8"), before);
    assert.equal(existsSync(join(dir, "new.md")), false);
    for (const out of results.slice(0, 3)) assert.match(out, /skill folders are read-only/);
    assert.equal(readFileSync(join(w.cwd, "ok.txt"), "utf8"), "fine");
  });

  test(
    "a sandboxed command cannot write into a project skill folder",
    { skip: needsBwrap },
    async () => {
      const w = world({ agents: { sh: agentMd("sh", "tools: Bash\n") } });
      const dir = skill(join(w.cwd, ".agents", "skills", "rel"), "rel", "Tag, then push.");
      const before = readFileSync(join(dir, "SKILL.md"), "utf8");
      const { r, results } = await runTurns(w, "sh", [
        {
          toolCalls: [call("bash", {
            command: `echo hijack >> '${dir}/SKILL.md'; touch '${dir}/new.txt'; ` +
              `touch '${w.cwd}/ok.txt' && echo PROJECT-OK`,
          })],
        },
      ]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(readFileSync(join(dir, "SKILL.md"), "utf8"), before);
      assert.equal(existsSync(join(dir, "new.txt")), false);
      assert.match(results[0], /Read-only file system/);
      assert.match(results[0], /PROJECT-OK/);
      rmSync(join(w.cwd, "ok.txt"));
    },
  );
});

describe("a project's definition files lie in the project", () => {
  test("an agent or command file linked to a file outside is not read", async () => {
    const w = world();
    const elsewhere = join(w.root, "elsewhere");
    mkdirSync(elsewhere, { recursive: true });
    writeFileSync(join(elsewhere, "notes.md"), agentMd("leak", "", "PRIVATE-PROMPT-99"));
    symlinkSync(join(elsewhere, "notes.md"), join(w.cwd, ".xcsh", "agents", "leak.md"));
    mkdirSync(join(w.cwd, ".claude", "commands"), { recursive: true });
    writeFileSync(join(elsewhere, "credentials"), "aws_secret_access_key = SECRET-CMD-31\n");
    symlinkSync(join(elsewhere, "credentials"), join(w.cwd, ".claude", "commands", "deploy.md"));
    server.requests.length = 0;
    const r = await runXcsh(["run", "leak", "go"], { cwd: w.cwd, home: w.home });
    assert.notEqual(r.code, 0);
    for (const req of server.requests) {
      assert.doesNotMatch(JSON.stringify(req.body), /PRIVATE-PROMPT-99/);
    }
    const listed = await runXcsh(["agents", "--verbose"], { cwd: w.cwd, home: w.home });
    assert.match(listed.stderr, /leak\.md: skipped: leads outside the folder it was found in/);
    const show = await runXcsh(["commands", "show", "deploy"], { cwd: w.cwd, home: w.home });
    assert.doesNotMatch(show.stdout + show.stderr, /SECRET-CMD-31/);
  });
});
