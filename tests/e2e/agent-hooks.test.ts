// End to end: an agent file's command hooks with Claude Code's semantics,
// through the built binary against the scripted model server. A
// PreToolUse hook blocks a call (exit 2, stderr to the model), a
// PostToolUse hook adds context, a Stop hook sends the agent back once;
// hooks of a project's agent file run only once the project is trusted;
// a hook that is missing, hangs, floods its output or is killed is one
// warning and the task goes on.
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runXcsh } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import { isAfterTool, localConfig, toolResults, type World } from "../support/world.ts";

const harness = modelHarness({ respond: () => ({ text: "unexpected" }) });
const { server, respond } = harness;
const world = (): World => harness.world();

/** Writes an executable script into the project and returns its path. */
function script(w: World, name: string, body: string): string {
  const dir = join(w.cwd, "hooks");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

/** An agent file with `hooks` (YAML text, indented two spaces). */
function hooked(name: string, hooks: string): string {
  return `---\nname: ${name}\ndescription: Hooked ${name}\ntools: Read, Bash\nhooks:\n${hooks}---\nYou are ${name}.\n`;
}

function userAgent(w: World, name: string, md: string): void {
  mkdirSync(join(w.home, ".claude", "agents"), { recursive: true });
  writeFileSync(join(w.home, ".claude", "agents", `${name}.md`), md);
}

const bash = (command: string) => ({ name: "bash", args: { command } });

/** The model calls `calls`, then answers with what it saw. */
function callThenEcho(calls: { name: string; args: unknown }[]): void {
  server.script([]);
  server.requests.length = 0;
  respond((req) => isAfterTool(req) ? { text: `saw: ${toolResults(req)}` } : { toolCalls: calls });
}

describe("PreToolUse and PostToolUse", () => {
  test("exit 2 blocks the call with its stderr; the JSON answer adds context; stdin is the event", async () => {
    const w = world();
    const pre = script(
      w,
      "pre.sh",
      `input=$(cat)\necho "$input" > "${join(w.cwd, "pre-input.json")}"\n` +
        `case "$input" in *'rm '*) echo "no rm in this project" >&2; exit 2;; esac\nexit 0`,
    );
    const post = script(
      w,
      "post.sh",
      `cat > /dev/null\necho '{"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "POST-CONTEXT"}}'`,
    );
    writeFileSync(join(w.cwd, "keep.txt"), "keep\n");
    userAgent(
      w,
      "guarded",
      hooked(
        "guarded",
        `  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: ${pre}\n` +
          `  PostToolUse:\n    - matcher: "Bash|Read"\n      hooks:\n        - type: command\n          command: ${post}\n`,
      ),
    );
    callThenEcho([bash("rm keep.txt"), bash("echo fine")]);
    const r = await runXcsh(["run", "guarded", "go"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    const seen = toolResults(server.requests.at(-1)!);
    assert.match(seen, /blocked by a PreToolUse hook: no rm in this project/);
    assert.ok(existsSync(join(w.cwd, "keep.txt")), "the blocked command did not run");
    assert.match(seen, /fine/);
    assert.match(seen, /POST-CONTEXT/);
    const input = JSON.parse(
      (await import("node:fs")).readFileSync(join(w.cwd, "pre-input.json"), "utf8"),
    );
    assert.equal(input.hook_event_name, "PreToolUse");
    assert.equal(input.tool_name, "Bash");
    assert.equal(typeof input.tool_input.command, "string");
    assert.equal(input.cwd, w.cwd);
  });
});

describe("Stop", () => {
  test("exit 2 sends the agent back once with the reason; then it finishes", async () => {
    const w = world();
    const marker = join(w.cwd, "stopped-once");
    const stop = script(
      w,
      "stop.sh",
      `cat > /dev/null\nif [ -e "${marker}" ]; then exit 0; fi\ntouch "${marker}"\necho "run the tests first" >&2\nexit 2`,
    );
    userAgent(
      w,
      "finisher",
      hooked(
        "finisher",
        `  Stop:\n    - hooks:\n        - type: command\n          command: ${stop}\n`,
      ),
    );
    server.script([{ text: "first answer" }, { text: "second answer" }]);
    server.requests.length = 0;
    respond(() => ({ text: "unexpected" }));
    const r = await runXcsh(["run", "finisher", "go"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "second answer\n");
    const last = JSON.stringify(server.requests[1].body.messages);
    assert.match(last, /You are not finished: a Stop hook says: run the tests first/);
  });
});

describe("trust", () => {
  test("a project's agent hooks run only once the project is trusted", async () => {
    const w = world();
    const flag = join(w.cwd, "hook-ran");
    const pre = script(w, "pre.sh", `cat > /dev/null\ntouch "${flag}"\nexit 0`);
    w.addAgent(
      "proj",
      hooked(
        "proj",
        `  PreToolUse:\n    - hooks:\n        - type: command\n          command: ${pre}\n`,
      ),
    );
    callThenEcho([bash("echo hi")]);
    const r = await runXcsh(["run", "proj", "go"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!existsSync(flag), "an untrusted project's hook did not run");
    const lines = r.stderr.split("\n").filter((l) => l.includes("hooks of this project"));
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0], /not trusted \(run 'xcsh trust' in it to allow them\)/);
    const t = await runXcsh(["trust", w.cwd], { cwd: w.cwd, home: w.home });
    assert.equal(t.code, 0, t.stderr);
    callThenEcho([bash("echo hi")]);
    const again = await runXcsh(["run", "proj", "go"], { cwd: w.cwd, home: w.home });
    assert.equal(again.code, 0, again.stderr);
    assert.ok(existsSync(flag), "the trusted project's hook ran");
  });
});

describe("plugin agents", () => {
  test("a Claude plugin agent's hooks are not run, and one warning says so", async () => {
    const w = world();
    const flag = join(w.cwd, "plugin-hook-ran");
    const pre = script(w, "pre.sh", `cat > /dev/null\ntouch "${flag}"`);
    const root = join(w.home, "plugin-root");
    mkdirSync(join(root, "agents"), { recursive: true });
    writeFileSync(
      join(root, "agents", "plug.md"),
      hooked(
        "plug",
        `  PreToolUse:\n    - hooks:\n        - type: command\n          command: ${pre}\n`,
      ),
    );
    mkdirSync(join(w.home, ".claude", "plugins"), { recursive: true });
    writeFileSync(
      join(w.home, ".claude", "plugins", "installed_plugins.json"),
      JSON.stringify({ version: 2, plugins: { "p@m": [{ scope: "user", installPath: root }] } }),
    );
    callThenEcho([bash("echo hi")]);
    const r = await runXcsh(["run", "plug", "go"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!existsSync(flag));
    assert.match(r.stderr, /a plugin agent's hooks are not run \(as in Claude Code\)/);
  });
});

describe("hooks that go wrong", () => {
  test("missing, hanging, flooding and killed hooks: one warning each, the task goes on", async () => {
    const w = world();
    const hang = script(w, "hang.sh", "cat > /dev/null\nsleep 30");
    const flood = script(
      w,
      "flood.sh",
      "cat > /dev/null\nhead -c 52428800 /dev/zero | tr '\\\\0' x\nexit 0",
    );
    const killed = script(w, "killed.sh", "cat > /dev/null\nkill -9 $$");
    const entry = (command: string, extra = "") =>
      `        - type: command\n          command: ${command}\n${extra}`;
    userAgent(
      w,
      "shaky",
      hooked(
        "shaky",
        "  PreToolUse:\n    - hooks:\n" +
          entry(join(w.cwd, "hooks", "no-such-hook")) +
          entry(hang, "          timeout: 1\n") +
          entry(flood) +
          entry(killed),
      ),
    );
    callThenEcho([bash("echo still-ran")]);
    const r = await runXcsh(["run", "shaky", "go"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    assert.match(toolResults(server.requests.at(-1)!), /still-ran/);
    const warned = (re: RegExp) => {
      const lines = r.stderr.split("\n").filter((l) => re.test(l));
      assert.equal(lines.length, 1, `${re}\n${r.stderr}`);
      assert.match(lines[0], /✗ hook failed: .*shaky\.md: hooks\.PreToolUse\[0\]\.hooks\[\d\]: /);
    };
    warned(/no-such-hook' failed with exit code 127/);
    warned(/hang\.sh' did not finish within 1 s and was ended/);
    warned(/killed\.sh' was killed by SIGKILL/);
    assert.doesNotMatch(r.stderr, /flood\.sh/, "a hook that prints a lot and exits 0 is fine");
    assert.ok(r.stderr.length < 100_000, "the flood did not reach stderr");
  });

  test("a hooks block xcsh cannot read makes the file invalid", async () => {
    const w = world();
    userAgent(w, "bad", hooked("bad", "  PreToolUse:\n    - matcher: Bash\n"));
    const check = await runXcsh(["agents", "check"], { cwd: w.cwd, home: w.home });
    assert.notEqual(check.code, 0);
    assert.match(check.stdout, /bad\.md: .*hooks\.PreToolUse\[0\].*the agent is not loaded/);
  });
});

describe("hooks in config", () => {
  test("the user's config hooks run for every task; a project config's wait for trust", async () => {
    const w = world();
    const userFlag = join(w.cwd, "user-hook-ran");
    const projectFlag = join(w.cwd, "project-hook-ran");
    const userHook = script(w, "user.sh", `cat > /dev/null\ntouch "${userFlag}"`);
    const projectHook = script(w, "project.sh", `cat > /dev/null\ntouch "${projectFlag}"`);
    const hooksYaml = (command: string) =>
      `hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: ${command}\n`;
    writeFileSync(
      join(w.home, ".xcsh", "agent", "config.yml"),
      localConfig(server.url) + hooksYaml(userHook),
    );
    writeFileSync(join(w.cwd, ".xcsh", "config.yml"), hooksYaml(projectHook));
    w.addAgent("plain", `---\nname: plain\ndescription: d\ntools: Bash\n---\nGo.\n`);
    callThenEcho([bash("echo hi")]);
    const r = await runXcsh(["run", "plain", "go"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(existsSync(userFlag), "the user's config hook ran");
    assert.ok(!existsSync(projectFlag), "the untrusted project config's hook did not");
    assert.match(r.stderr, /hooks\.PreToolUse/);
    assert.equal((await runXcsh(["trust", w.cwd], { cwd: w.cwd, home: w.home })).code, 0);
    callThenEcho([bash("echo hi")]);
    const again = await runXcsh(["run", "plain", "go"], { cwd: w.cwd, home: w.home });
    assert.equal(again.code, 0, again.stderr);
    assert.ok(existsSync(projectFlag), "the trusted project config's hook ran");
  });
});
