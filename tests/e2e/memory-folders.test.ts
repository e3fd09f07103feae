// End to end: `memory:` in an agent file. The folder is laid out as Claude
// Code lays it, MEMORY.md's head is in the prompt, the agent's file tools
// may write there, and a repository's agent gets no folder outside its
// project until the project is trusted.
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runXcsh } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import { agentMd, isAfterTool, systemPrompt, toolResults } from "../support/world.ts";

const { server, respond, world } = modelHarness({ respond: () => ({ text: "unexpected" }) });

describe("memory", () => {
  test("user scope: ~/.claude/agent-memory/<name>, MEMORY.md in the prompt, writable", async () => {
    const w = world();
    mkdirSync(join(w.home, ".claude", "agents"), { recursive: true });
    writeFileSync(
      join(w.home, ".claude", "agents", "rev.md"),
      agentMd("rev", "tools: Read, Write\nmemory: user\n"),
    );
    const dir = join(w.home, ".claude", "agent-memory", "rev");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "MEMORY.md"), "- the team prefers tabs\n");
    server.script([]);
    server.requests.length = 0;
    respond((req) =>
      isAfterTool(req)
        ? { text: `saw: ${toolResults(req)}` }
        : { toolCalls: [{ name: "write", args: { path: join(dir, "notes.md"), content: "new" } }] }
    );
    const r = await runXcsh(["run", "rev", "review"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    const prompt = systemPrompt(server.requests[0]);
    assert.ok(prompt.includes(dir), prompt);
    assert.match(prompt, /- the team prefers tabs/);
    assert.equal(readFileSync(join(dir, "notes.md"), "utf8"), "new");
  });

  test("a project's agent: local scope in the project; user scope refused until trusted", async () => {
    const w = world({
      agents: { near: agentMd("near", "memory: local\n"), far: agentMd("far", "memory: user\n") },
    });
    server.script([{ text: "done" }, { text: "done" }]);
    server.requests.length = 0;
    respond(() => ({ text: "done" }));
    const near = await runXcsh(["run", "near", "go"], { cwd: w.cwd, home: w.home });
    assert.equal(near.code, 0, near.stderr);
    assert.ok(existsSync(join(w.cwd, ".claude", "agent-memory-local", "near")));
    const far = await runXcsh(["run", "far", "go"], { cwd: w.cwd, home: w.home });
    assert.equal(far.code, 0, far.stderr);
    assert.match(far.stderr, /'memory: user' of a project's agent file is not kept/);
    assert.ok(!existsSync(join(w.home, ".claude", "agent-memory", "far")));
    assert.doesNotMatch(systemPrompt(server.requests.at(-1)!), /## Memory/);
  });
});
