// End to end: the fields of an agent file that take power away, run through
// the built binary against the scripted model server, with a model that
// tries to use what its author withheld: `disallowedTools` (a tool absent
// from the request), `Agent(a)` (spawns), `Bash(…)` rules (calls refused
// before they run, compound commands and substitutions included),
// `Read(…)`/`Edit(…)` rules and `permissionMode: plan`.
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runXcsh } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import {
  agentMd,
  isAfterTool,
  offeredTools,
  systemPrompt,
  toolResults,
  type World,
} from "../support/world.ts";

const harness = modelHarness({ respond: () => ({ text: "unexpected" }) });
const { server, respond } = harness;
const world = (agents: Record<string, string>): World => harness.world({ agents });

/** The model calls `calls` in one turn, then answers with the tool results it saw. */
function callThenEcho(calls: { name: string; args: unknown }[]): void {
  server.script([]);
  server.requests.length = 0;
  respond((req) => isAfterTool(req) ? { text: `saw: ${toolResults(req)}` } : { toolCalls: calls });
}

const bash = (command: string) => ({ name: "bash", args: { command } });

describe("disallowedTools", () => {
  test("a tool listed in tools and in disallowedTools is not offered; calling it fails", async () => {
    const w = world({
      safe: agentMd("safe", "tools: Read, Write, Bash\ndisallowedTools: Bash\n"),
    });
    callThenEcho([bash("touch pwned")]);
    const r = await runXcsh(["run", "safe", "try bash"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    const offered = offeredTools(server.requests[0]);
    assert.ok(!offered.includes("bash"), offered.join(","));
    assert.ok(offered.includes("read") && offered.includes("write"));
    assert.match(toolResults(server.requests.at(-1)!), /unknown tool 'bash'/);
    assert.ok(!existsSync(join(w.cwd, "pwned")));
  });

  test("disallowedTools removes from an all-tools agent too", async () => {
    const w = world({ most: agentMd("most", "disallowedTools: [Bash, Edit, Write]\n") });
    callThenEcho([]);
    respond(() => ({ text: "done" }));
    const r = await runXcsh(["run", "most", "look"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    const offered = offeredTools(server.requests[0]);
    for (const t of ["bash", "edit", "write"]) assert.ok(!offered.includes(t), offered.join(","));
    assert.ok(offered.includes("read") && offered.includes("grep"));
  });
});

describe("Agent(…) in tools", () => {
  test("Agent(explore) offers task and may spawn only explore", async () => {
    const w = world({ lead: agentMd("lead", "tools: Read, Agent(explore)\n") });
    callThenEcho([{
      name: "task",
      args: { agent: "plan", tasks: [{ id: "p", assignment: "plan it" }] },
    }]);
    const r = await runXcsh(["run", "lead", "delegate"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(offeredTools(server.requests[0]).includes("task"));
    assert.match(toolResults(server.requests.at(-1)!), /Cannot spawn 'plan'. Allowed: explore/);
  });
});

describe("Bash(…) rules", () => {
  test("only the allowed commands run; compound commands, subshells and substitutions are refused", async () => {
    const w = world({
      gitonly: agentMd("gitonly", "tools: Read, Bash(echo ok:*), Bash(pwd)\n"),
    });
    callThenEcho([
      bash("echo ok one && pwd"),
      bash("echo ok; touch pwned1"),
      bash("echo ok && (touch pwned2)"),
      bash("echo ok $(touch pwned3)"),
      bash("FOO=1 echo ok"),
      bash("touch pwned4"),
    ]);
    const r = await runXcsh(["run", "gitonly", "try"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    const seen = toolResults(server.requests.at(-1)!);
    assert.ok(seen.includes("ok one"), seen);
    assert.match(
      seen,
      /'touch pwned1' is not allowed: this agent may run only Bash\(echo ok:\*\), Bash\(pwd\)/,
    );
    assert.match(seen, /'touch pwned2' is not allowed/);
    assert.match(seen, /command substitution/);
    assert.match(seen, /sets a variable before the command/);
    assert.match(seen, /'touch pwned4' is not allowed/);
    for (const f of ["pwned1", "pwned2", "pwned3", "pwned4"]) {
      assert.ok(!existsSync(join(w.cwd, f)), `${f} was created`);
    }
  });

  test("a deny rule in disallowedTools refuses matching commands and keeps the tool", async () => {
    const w = world({
      careful: agentMd("careful", "tools: Read, Bash\ndisallowedTools: Bash(rm:*)\n"),
    });
    writeFileSync(join(w.cwd, "keep.txt"), "keep\n");
    callThenEcho([bash("echo fine"), bash("echo x && rm keep.txt"), bash("/bin/rm keep.txt")]);
    const r = await runXcsh(["run", "careful", "try"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    const seen = toolResults(server.requests.at(-1)!);
    assert.ok(seen.includes("fine"), seen);
    assert.match(seen, /'rm keep.txt' is refused by Bash\(rm:\*\) \(disallowedTools\)/);
    assert.match(seen, /'\/bin\/rm keep.txt' is refused by Bash\(rm:\*\)/);
    assert.equal(readFileSync(join(w.cwd, "keep.txt"), "utf8"), "keep\n");
  });

  test("an unreadable rule makes the file invalid: agents check says so and nothing runs", async () => {
    const w = world({ broken: agentMd("broken", "tools: Read, Bash(git status\n") });
    const check = await runXcsh(["agents", "check"], { cwd: w.cwd, home: w.home });
    assert.notEqual(check.code, 0);
    assert.match(check.stdout + check.stderr, /broken\.md.*unbalanced parentheses/);
    const r = await runXcsh(["run", "broken", "x"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /Unknown agent "broken"/);
  });
});

describe("Read(…) and Edit(…) rules", () => {
  test("reads outside Read(./src/**) and edits outside Edit(docs/**) are refused", async () => {
    const w = world({
      scoped: agentMd(
        "scoped",
        "tools: Read(./src/**), Write, Edit(docs/**)\n" +
          "disallowedTools: Write(*.lock)\n",
      ),
    });
    writeFileSync(join(w.cwd, "secret.txt"), "SECRET-VALUE\n");
    callThenEcho([
      { name: "read", args: { path: "secret.txt" } },
      { name: "write", args: { path: "a.lock", content: "x" } },
      { name: "write", args: { path: "fine.txt", content: "x" } },
    ]);
    const r = await runXcsh(["run", "scoped", "try"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    const seen = toolResults(server.requests.at(-1)!);
    assert.ok(!seen.includes("SECRET-VALUE"), seen);
    assert.match(
      seen,
      /secret\.txt is not allowed: this agent may use read only on Read\(\.\/src\/\*\*\)/,
    );
    assert.match(seen, /a\.lock is refused by Write\(\*\.lock\)/);
    assert.ok(!existsSync(join(w.cwd, "a.lock")));
    assert.ok(existsSync(join(w.cwd, "fine.txt")));
  });
});

describe("deny Read(…) rules and grep", () => {
  test("grep leaves out the files a deny rule covers", async () => {
    const w = world({
      searcher: agentMd("searcher", "tools: Grep\ndisallowedTools: Read(*.env)\n"),
    });
    writeFileSync(join(w.cwd, "app.env"), "TOKEN=HUNT-ME-env\n");
    writeFileSync(join(w.cwd, "notes.txt"), "HUNT-ME-notes\n");
    callThenEcho([{ name: "grep", args: { pattern: "HUNT-ME" } }]);
    const r = await runXcsh(["run", "searcher", "find it"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    const seen = toolResults(server.requests.at(-1)!);
    assert.ok(seen.includes("HUNT-ME-notes"), seen);
    assert.ok(!seen.includes("HUNT-ME-env"), seen);
  });
});

describe("permissionMode", () => {
  test("plan: the agent runs in plan mode, bash and write absent whatever tools says", async () => {
    const w = world({
      planner: agentMd("planner", "tools: Read, Bash, Write\npermissionMode: plan\n"),
    });
    callThenEcho([bash("touch pwned")]);
    const r = await runXcsh(["run", "planner", "plan it"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    const offered = offeredTools(server.requests[0]);
    assert.ok(!offered.includes("bash") && !offered.includes("write"), offered.join(","));
    assert.ok(offered.includes("read"));
    assert.match(systemPrompt(server.requests[0]), /You are running in plan mode/);
    assert.ok(!existsSync(join(w.cwd, "pwned")));
  });

  test("bypassPermissions loosens nothing: the deny rule still refuses", async () => {
    const w = world({
      bold: agentMd(
        "bold",
        "tools: Bash\ndisallowedTools: Bash(touch:*)\npermissionMode: bypassPermissions\n",
      ),
    });
    callThenEcho([bash("touch pwned")]);
    const r = await runXcsh(["run", "bold", "go"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    assert.match(toolResults(server.requests.at(-1)!), /refused by Bash\(touch:\*\)/);
    assert.ok(!existsSync(join(w.cwd, "pwned")));
  });
});

describe("fields that are named, not dropped", () => {
  test("agents check names unused keys once each and typos with the nearest key; a run says so once", async () => {
    const w = world({
      a: agentMd("a", "initialPrompt: hello\nmodel_reasoning_summary: concise\ncolor: blue\n"),
      b: agentMd("b", "initialPrompt: hi\ndissallowedTools: Bash\n"),
    });
    const check = await runXcsh(["agents", "check"], { cwd: w.cwd, home: w.home });
    const out = check.stdout;
    const lines = out.split("\n").filter((l) => l.includes("'initialPrompt' is not used by xcsh"));
    assert.equal(lines.length, 1, out);
    assert.match(lines[0], /a subagent's first message is its assignment \(2 agents: a, b\)/);
    assert.match(out, /'model_reasoning_summary' is not used by xcsh/);
    assert.match(
      out,
      /b\.md: .*unknown key 'dissallowedTools' \(did you mean 'disallowedTools'\?\)/,
    );
    assert.doesNotMatch(out, /color/);
    server.script([{ text: "done" }]);
    server.requests.length = 0;
    const r = await runXcsh(["run", "a", "go"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    const notes = r.stderr.split("\n").filter((l) => l.includes("not used by xcsh"));
    assert.equal(notes.length, 1, r.stderr);
    assert.match(notes[0], /initialPrompt, model_reasoning_summary are not used by xcsh/);
  });

  test("Gemini temperature, top_p and top_k reach the model call", async () => {
    const w = world({ g: agentMd("g", "temperature: 0.2\ntop_p: 0.5\ntop_k: 7\n") });
    server.script([{ text: "done" }]);
    server.requests.length = 0;
    const r = await runXcsh(["run", "g", "go"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(server.requests[0].body.temperature, 0.2);
    assert.equal(server.requests[0].body.top_p, 0.5);
  });

  test("Gemini tools: ['*'] is every tool", async () => {
    const w = world({ star: agentMd("star", "tools: ['*']\n") });
    server.script([{ text: "done" }]);
    server.requests.length = 0;
    const r = await runXcsh(["run", "star", "go"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    const offered = offeredTools(server.requests[0]);
    for (const t of ["read", "bash", "edit", "write"]) {
      assert.ok(offered.includes(t), offered.join(","));
    }
  });

  test("a project's kind: remote is refused until trusted; an unsupported auth type is named", async () => {
    const w = world({
      far: agentMd("far", "kind: remote\nagent_card_url: http://127.0.0.1:1/card\n"),
      gcp: agentMd(
        "gcp",
        "kind: remote\nagent_card_url: http://127.0.0.1:1/card\nauth:\n  type: oauth\n",
      ),
    });
    server.requests.length = 0;
    const r = await runXcsh(["run", "far", "go"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /Cannot run 'far': it is a remote \(A2A\) agent of this project \(.*far\.md\).*'xcsh trust'/,
    );
    assert.equal(server.requests.length, 0, "no model call");
    const check = await runXcsh(["agents", "check"], { cwd: w.cwd, home: w.home });
    assert.notEqual(check.code, 0);
    assert.match(
      check.stdout,
      /gcp\.md: .*agent 'gcp' cannot run: its auth type 'oauth' is not supported/,
    );
  });
});

describe("xcsh run --agents", () => {
  test("a session-defined agent runs and shadows a file of the same name; bad JSON is one line", async () => {
    const w = world({ rev: agentMd("rev", "tools: Bash\n", "From the file.") });
    server.script([{ text: "done" }]);
    server.requests.length = 0;
    const agents = JSON.stringify({
      rev: { description: "Session reviewer", prompt: "From the flag.", tools: ["Read"] },
    });
    const r = await runXcsh(["run", "--agents", agents, "rev", "go"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(offeredTools(server.requests[0]), ["read", "submit_result"]);
    assert.match(systemPrompt(server.requests[0]), /From the flag\./);
    assert.doesNotMatch(systemPrompt(server.requests[0]), /From the file\./);
    const bad = await runXcsh(["run", "--agents", "{nope", "rev", "go"], {
      cwd: w.cwd,
      home: w.home,
    });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--agents: not valid JSON/);
    assert.doesNotMatch(bad.stderr, /at .*\.ts:\d+/);
  });
});

describe("background: true", () => {
  test("xcsh run detaches as --background does; the result waits for xcsh wait", async () => {
    const w = world({ bg: agentMd("bg", "background: true\n") });
    server.script([{ text: "done in the background" }]);
    server.requests.length = 0;
    const started = await runXcsh(["run", "bg", "go"], { cwd: w.cwd, home: w.home });
    assert.equal(started.code, 0, started.stderr);
    const id = started.stdout.trim();
    assert.match(id, /^\d{8}-\d{6}-[0-9a-f]{6}$/);
    assert.match(started.stderr, /bg runs in the background \('background: true' in its file\)/);
    const waited = await runXcsh(["wait", id], { cwd: w.cwd, home: w.home });
    assert.equal(waited.code, 0, waited.stderr);
    assert.equal(waited.stdout, "done in the background\n");
    server.script([{ text: "here" }]);
    const json = await runXcsh(["run", "bg", "go", "--json"], { cwd: w.cwd, home: w.home });
    assert.equal(json.code, 0, json.stderr);
    assert.equal(JSON.parse(json.stdout).results[0].text, "here", "--json runs here");
  });
});
