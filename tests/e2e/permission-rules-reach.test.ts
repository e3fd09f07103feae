// End to end: permission rules reach what their words name, through the
// built binary and the scripted model server, with a model that tries the
// ways around them: a deny rule for `rm` against a second shell reading of
// the words (`bash -c`, `| sh`, `eval`, a git alias); `Bash(git status:*)`
// in a repository whose config and hooks name programs (a shell alias
// among them), and `git -c`; a
// deny `Read(…)` rule against an agent the task starts; a deny
// `WebFetch(domain:127.0.0.1)` rule against `localhost` and the
// IPv4-mapped spelling of the address.
//
// Needs `npm run build` first (npm test runs it) and git (the git test
// skips without it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runXcsh } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import { ran, trap, trappedRepo } from "../support/git-traps.ts";
import { agentMd, isAfterTool, systemPrompt, toolResults, type World } from "../support/world.ts";
import { startWebServer, type WebServer } from "../support/web-server.ts";

let web: WebServer;
const harness = modelHarness({
  respond: () => ({ text: "unexpected" }),
  setup: async () => {
    web = await startWebServer();
  },
  teardown: () => web.close(),
});
const { server, respond } = harness;
const world = (agents: Record<string, string>, extraConfig = ""): World =>
  harness.world({ agents, extraConfig });

/** The model calls `calls` in one turn, then answers with the tool results it saw. */
function callThenEcho(calls: { name: string; args: unknown }[]): void {
  server.script([]);
  server.requests.length = 0;
  respond((req) => isAfterTool(req) ? { text: `saw: ${toolResults(req)}` } : { toolCalls: calls });
}

const bash = (command: string) => ({ name: "bash", args: { command } });

let hasGit = true;
try {
  execFileSync("git", ["--version"], { stdio: "ignore" });
} catch {
  hasGit = false;
}

describe("a deny rule for a program and a second reading of the words", () => {
  test("bash -c, | sh, eval and a git alias neither run rm nor slip past the rule", async () => {
    const w = world({
      careful: agentMd("careful", "tools: Read, Bash\ndisallowedTools: Bash(rm:*)\n"),
    });
    if (hasGit) execFileSync("git", ["init", "-q", w.cwd]);
    const kept = ["k1", "k2", "k3", "k4", "k5", "k6"];
    for (const k of kept) writeFileSync(join(w.cwd, k), "keep\n");
    callThenEcho([
      bash("bash -c 'true && rm k1'"),
      bash("echo cm0gazI= | base64 -d | sh"),
      bash("eval 'true; rm k3'"),
      bash("git -c alias.tidy='!rm k4' tidy"),
      bash("find . -name k5 -exec sh -c 'true; rm k5' \\;"),
      bash("echo cm0gazY= | base64 -d | xargs env"),
      bash("echo still-fine"),
    ]);
    const r = await runXcsh(["run", "careful", "try"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    const seen = toolResults(server.requests.at(-1)!);
    assert.ok(seen.includes("still-fine"), seen);
    assert.deepEqual(kept.filter((k) => !existsSync(join(w.cwd, k))), [], "files removed");
    assert.match(seen, /'bash -c true && rm k1' is refused by Bash\(rm:\*\)/);
    assert.match(seen, /'sh' hands text to a second shell reading \(sh\)/);
    assert.match(seen, /'eval true; rm k3' is refused by Bash\(rm:\*\)/);
    assert.match(seen, /'git -c alias\.tidy=!rm k4 tidy' is refused by Bash\(rm:\*\)/);
    assert.match(seen, /second shell reading \(sh\)/);
    assert.match(seen, /'xargs env' hands text to a second shell reading \(xargs env\)/);
  });
});

describe("Bash(git status:*) in a repository whose config names programs", () => {
  test("git status runs none of them, and git -c is refused", {
    skip: hasGit ? false : "needs git",
  }, async () => {
    const w = world({
      gitonly: agentMd("gitonly", "tools: Read, Bash(git status:*), Bash(git stat:*)\n"),
    });
    // The marks folder sits in the project, where a sandboxed command may write.
    const { marks } = trappedRepo(w.root, w.cwd, join(w.cwd, "marks"));
    // A shell alias in the repository's config is a program it names too.
    execFileSync("git", ["config", "alias.stat", `!${trap(marks, "alias")}`], { cwd: w.cwd });
    callThenEcho([
      bash("git status --short"),
      bash("git stat"),
      bash("git -c core.fsmonitor=./marks/fsmonitor.sh status"),
    ]);
    const r = await runXcsh(["run", "gitonly", "look"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    const seen = toolResults(server.requests.at(-1)!);
    assert.match(seen, /a\.txt/, "git status ran");
    assert.deepEqual(ran(marks), []);
    assert.match(seen, /sets git configuration with -c/);
  });
});

describe("deny rules and the agents a task starts", () => {
  test("Read(secret.txt) refuses the read in the agent the task starts too", async () => {
    const w = world({
      lead: agentMd("lead", "tools: Read, Agent(peek)\ndisallowedTools: Read(secret.txt)\n"),
      peek: agentMd("peek", "tools: Read\n"),
    });
    writeFileSync(join(w.cwd, "secret.txt"), "SECRET-VALUE\n");
    server.script([]);
    server.requests.length = 0;
    respond((req) => {
      const lead = systemPrompt(req).includes("You are lead.");
      if (isAfterTool(req)) return { text: `${lead ? "lead" : "peek"} saw: ${toolResults(req)}` };
      return lead
        ? {
          toolCalls: [{
            name: "task",
            args: { agent: "peek", tasks: [{ id: "p", assignment: "read secret.txt" }] },
          }],
        }
        : { toolCalls: [{ name: "read", args: { path: "secret.txt" } }] };
    });
    const r = await runXcsh(["run", "lead", "find the secret"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!r.stdout.includes("SECRET-VALUE"), r.stdout);
    assert.match(r.stdout, /secret\.txt is refused by Read\(secret\.txt\) \(disallowedTools\)/);
    const peekRequests = server.requests.filter((q) => systemPrompt(q).includes("You are peek."));
    assert.ok(peekRequests.length > 0, "peek ran");
  });
});

describe("WebFetch(domain:…) deny rules and the spellings of an address", () => {
  test("domain:127.0.0.1 refuses localhost and [::ffff:127.0.0.1]; the server sees nothing", async () => {
    const w = world(
      {
        reader: agentMd(
          "reader",
          "tools: Read, WebFetch\ndisallowedTools: WebFetch(domain:127.0.0.1)\n",
        ),
      },
      'task:\n  webFetchAllow: [localhost, "127.0.0.0/8", "::ffff:127.0.0.0/104", "::1"]\n',
    );
    const port = new URL(web.url).port;
    callThenEcho([
      { name: "web_fetch", args: { url: `http://localhost:${port}/json` } },
      { name: "web_fetch", args: { url: `http://LOCALHOST.:${port}/json` } },
      { name: "web_fetch", args: { url: `http://[::ffff:127.0.0.1]:${port}/json` } },
      { name: "web_fetch", args: { url: `http://127.0.0.1:${port}/json` } },
    ]);
    const before = web.connections();
    const r = await runXcsh(["run", "reader", "read"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    const seen = toolResults(server.requests.at(-1)!);
    assert.equal(seen.match(/refused by WebFetch\(domain:127\.0\.0\.1\)/g)?.length, 4, seen);
    assert.ok(!seen.includes("answer"), seen);
    assert.equal(web.connections(), before, "the page server got no connection");
  });
});
