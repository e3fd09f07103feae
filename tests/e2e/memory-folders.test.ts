// End to end: `memory:` in an agent file. The folder is laid out as Claude
// Code lays it, MEMORY.md's head is in the prompt, the agent's file tools
// may write there, and a repository's agent gets no folder outside its
// project until the project is trusted.
//
// Needs `npm run build` first (npm test runs it).

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { requireBinary, runXcsh } from "../support/cli.ts";
import {
  type ModelServer,
  type RecordedRequest,
  startModelServer,
  type Turn,
} from "../support/model-server.ts";
import {
  agentMd,
  isAfterTool,
  localConfig,
  makeWorld,
  systemPrompt,
  toolResults,
  type World,
} from "../support/world.ts";

let server: ModelServer;
let respond: (req: RecordedRequest, index: number) => Turn = () => ({ text: "unexpected" });
const worlds: World[] = [];

before(async () => {
  requireBinary();
  server = await startModelServer({ respond: (req, i) => respond(req, i) });
});
after(async () => {
  await server.close();
  for (const w of worlds) w.cleanup();
});

describe("memory", () => {
  test("user scope: ~/.claude/agent-memory/<name>, MEMORY.md in the prompt, writable", async () => {
    const w = makeWorld(localConfig(server.url));
    worlds.push(w);
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
    respond = (req) =>
      isAfterTool(req)
        ? { text: `saw: ${toolResults(req)}` }
        : { toolCalls: [{ name: "write", args: { path: join(dir, "notes.md"), content: "new" } }] };
    const r = await runXcsh(["run", "rev", "review"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    const prompt = systemPrompt(server.requests[0]);
    assert.ok(prompt.includes(dir), prompt);
    assert.match(prompt, /- the team prefers tabs/);
    assert.equal(readFileSync(join(dir, "notes.md"), "utf8"), "new");
  });

  test("a project's agent: local scope in the project; user scope refused until trusted", async () => {
    const w = makeWorld(localConfig(server.url), {
      near: agentMd("near", "memory: local\n"),
      far: agentMd("far", "memory: user\n"),
    });
    worlds.push(w);
    server.script([{ text: "done" }, { text: "done" }]);
    server.requests.length = 0;
    respond = () => ({ text: "done" });
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
