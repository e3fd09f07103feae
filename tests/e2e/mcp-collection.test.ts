// End-to-end tests of `xcsh mcp` (and `xcsh run`) with a generated project
// of 1 000 agents, Claude-shaped (long descriptions full of <example>
// blocks): the `agents` tool answers bounded pages with a query and signed
// cursors, an unknown agent is a short error with the nearest names, the
// `task` description keeps its pointer to `agents` near the top, and the
// protocol errors of JSON-RPC 2.0 (-32700, -32600, -32602) are answered on a
// raw stdio session without breaking it. No case here reaches a model.
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client";
// The SDK's wildcard export maps types to `*.js.d.ts`, which do not exist: point Deno at them.
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.d.ts"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { cleanEnv, runXcsh, XCSH } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import type { World } from "../support/world.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

const COUNT = 1000;
/** What a client may receive from one `agents` call: about 20 000 tokens at 4 characters each. */
const MAX_ANSWER_CHARS = 80_000;

/** A description shaped like the public Claude Code collections' (about 900 characters). */
function description(i: number): string {
  const topic = i === 777 ? "kubernetes helm charts" : `area number ${i}`;
  return `"Use this agent when you need expert help with ${topic}, including reviews, ` +
    `refactors and migrations.\\n\\nExamples:\\n<example>\\nContext: The user is working on ` +
    `${topic}.\\nuser: \\"Can you look at this change?\\"\\nassistant: \\"I'll use the ` +
    `specialist-${i} agent to review it.\\"\\n<commentary>Domain work: delegate.</commentary>\\n` +
    `</example>\\n<example>\\nContext: A migration is planned.\\nuser: \\"Plan the move\\"\\n` +
    `assistant: \\"Let me ask specialist-${i} for a plan that keeps the build green and ` +
    `lists every file it touches, with the risks it sees.\\"\\n</example>"`;
}

function agentFile(i: number): string {
  const name = `specialist-${String(i).padStart(4, "0")}`;
  return `---\nname: ${name}\ndescription: ${description(i)}\ntools: Read, Grep, Glob\n` +
    `model: sonnet\ncolor: blue\n---\nYou are ${name}.\n`;
}

let w: World;
let client: Client;
let other: Client;

function connect(world: World): Promise<Client> {
  const transport = new StdioClientTransport({
    command: XCSH,
    args: ["mcp"],
    cwd: world.cwd,
    env: cleanEnv(world.home),
    stderr: "pipe",
  });
  const c = new Client({ name: "xcsh-tests", version: "1.0.0" });
  return c.connect(transport).then(() => c);
}

const { server: model, world } = modelHarness({
  setup: async () => {
    const agents: Record<string, string> = {};
    for (let i = 0; i < COUNT; i++) agents[`specialist-${i}`] = agentFile(i);
    w = world({ agents });
    [client, other] = await Promise.all([connect(w), connect(w)]);
  },
  teardown: async () => {
    await client?.close();
    await other?.close();
  },
});

const agentsCall = (c: Client, args: Record<string, unknown>) =>
  c.callTool({ name: "agents", arguments: args }) as Promise<Any>;

describe(`xcsh mcp with ${COUNT} project agents`, () => {
  test(`one agents call answers a bounded page, not every agent in full`, async () => {
    const r = await agentsCall(client, {});
    assert.notEqual(r.isError, true, JSON.stringify(r).slice(0, 500));
    const size = JSON.stringify(r).length;
    assert.ok(size <= MAX_ANSWER_CHARS, `${size} characters`);
    const page = r.structuredContent;
    assert.equal(page.total, COUNT + 6, "the project's agents and the bundled ones");
    assert.ok(page.agents.length >= 50, `${page.agents.length} entries`);
    assert.deepEqual(Object.keys(page.agents[0]), ["name", "source", "description"]);
    assert.deepEqual(page.agents[0], {
      name: "specialist-0000",
      source: "project",
      description:
        "Use this agent when you need expert help with area number 0, including reviews, refactors and migrations.",
    });
    assert.equal(typeof page.nextCursor, "string");
    assert.match(r.content[0].text, /^Agents: 1–\d+ of 1006\.\n- specialist-0000 \(project\): /);
  });

  test("following nextCursor visits every agent once, each page bounded", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 50; pages++) {
      const r = await agentsCall(client, { limit: 1000, ...(cursor ? { cursor } : {}) });
      assert.notEqual(r.isError, true, r.content?.[0]?.text);
      assert.ok(JSON.stringify(r).length <= MAX_ANSWER_CHARS);
      seen.push(...r.structuredContent.agents.map((a: Any) => a.name));
      cursor = r.structuredContent.nextCursor;
      if (!cursor) break;
    }
    assert.equal(seen.length, COUNT + 6);
    assert.equal(new Set(seen).size, seen.length, "no agent twice");
    assert.ok(seen.includes("explore") && seen.includes("specialist-0999"));
  });

  test("query finds by description words and by a typo of a name; limit bounds", async () => {
    const helm = await agentsCall(client, { query: "Helm Charts" });
    assert.deepEqual(helm.structuredContent.agents.map((a: Any) => a.name), ["specialist-0777"]);
    const typo = await agentsCall(client, { query: "specailist-0777" });
    assert.equal(typo.structuredContent.agents[0].name, "specialist-0777");
    const few = await agentsCall(client, { query: "specialist-09", limit: 3 });
    assert.deepEqual(few.structuredContent.agents.map((a: Any) => a.name), [
      "specialist-0900",
      "specialist-0901",
      "specialist-0902",
    ]);
    assert.equal(few.structuredContent.total, 100);
    const next = await agentsCall(client, { cursor: few.structuredContent.nextCursor });
    assert.equal(next.structuredContent.agents[0].name, "specialist-0903");
  });

  test("name shows one agent in full", async () => {
    const r = await agentsCall(client, { name: "specialist-0042" });
    assert.notEqual(r.isError, true);
    assert.match(r.structuredContent.agent.description, /<example>/);
    assert.deepEqual(r.structuredContent.agent.tools, ["read", "grep", "find", "submit_result"]);
  });

  test("a cursor from another server process or changed by hand is a clear error", async () => {
    const theirs = (await agentsCall(other, { limit: 10 })).structuredContent.nextCursor;
    const ours = (await agentsCall(client, { limit: 10 })).structuredContent.nextCursor;
    assert.notEqual(theirs, ours, "each server signs with its own key");
    const [payload, mac] = ours.split(".");
    const forged = Buffer.from(JSON.stringify({ v: 1, q: "", o: 500 })).toString("base64url");
    for (const cursor of [theirs, `${forged}.${mac}`, `${payload}.${mac.slice(1)}`, "page-2"]) {
      const r = await agentsCall(client, { cursor });
      assert.equal(r.isError, true, cursor);
      assert.match(
        r.content[0].text,
        /^'cursor' is not one this server issued \(it was changed, or comes from another server process\); call agents again without a cursor$/,
      );
    }
    const ok = await agentsCall(client, { cursor: ours });
    assert.equal(ok.structuredContent.offset, 10);
  });

  test("an unknown agent is a short tool error with the nearest names", async () => {
    model.requests.length = 0;
    const r: Any = await client.callTool({
      name: "task",
      arguments: { agent: "specialist-777", tasks: [{ id: "a", assignment: "x" }] },
    });
    assert.equal(r.isError, true);
    const text: string = r.content[0].text;
    assert.ok(text.length <= 1024, `${text.length} characters`);
    assert.match(
      text,
      /^Unknown agent "specialist-777"\. Nearest: specialist-0777, .* \(of 1006 agents; the `agents` tool lists them all and finds them by `query`\)$/,
    );
    assert.equal(text.split("Nearest: ")[1].split(" (of")[0].split(", ").length, 5);
    assert.equal(model.requests.length, 0, "no child was started");
  });

  test("the task description keeps the pointer to agents in its first 2 000 characters", async () => {
    const { tools } = await client.listTools();
    const d = tools.find((t) => t.name === "task")?.description ?? "";
    assert.ok(d.length <= 8000, String(d.length));
    assert.match(d.slice(0, 2000), /call the `agents` tool/);
    assert.match(d, /^… and \d+ more: call the `agents` tool/m);
  });
});

describe(`xcsh run and xcsh agents show with ${COUNT} agents`, () => {
  for (const args of [["run", "specialist-777", "hello"], ["agents", "show", "specialist-777"]]) {
    test(`xcsh ${args.slice(0, 2).join(" ")}: a short usage error with the nearest names`, async () => {
      const r = await runXcsh(args, { cwd: w.cwd, home: w.home });
      assert.equal(r.code, 2, r.stderr);
      const line = r.stderr.split("\n").find((l) => l.includes("Unknown agent")) ?? "";
      assert.ok(line.length <= 1024, `${line.length} characters`);
      assert.match(
        line,
        /^xcsh: Unknown agent "specialist-777"\. Nearest: specialist-0777, .* \(of 100\d agents; `xcsh agents` lists them all\)$/,
      );
    });
  }
});

test("xcsh commands show with 200 commands: a short usage error with the nearest names", async () => {
  const dir = join(w.cwd, ".xcsh", "commands");
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < 200; i++) {
    writeFileSync(join(dir, `deploy-${i}.md`), `---\ndescription: Deploy ${i}\n---\nDeploy.\n`);
  }
  const r = await runXcsh(["commands", "show", "deploy-1O"], { cwd: w.cwd, home: w.home });
  assert.equal(r.code, 2, r.stderr);
  assert.match(
    r.stderr,
    /^xcsh: unknown command "deploy-1O"\. Nearest: deploy-1, deploy-10, .* \(of 20\d commands; `xcsh commands` lists them all\)\n$/,
  );
  assert.ok(r.stderr.length <= 1024, String(r.stderr.length));
});

/** `xcsh mcp` driven by hand: lines in, every line it answers collected. */
function rawSession(world: World) {
  const proc = spawn(XCSH, ["mcp"], {
    cwd: world.cwd,
    env: cleanEnv(world.home),
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  proc.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  proc.stderr.resume();
  const exited = new Promise<number | null>((resolve) => proc.on("close", resolve));
  const lines = () => stdout.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
  /** Waits (bounded) until `n` lines have been answered. */
  const answered = async (n: number) => {
    const until = Date.now() + 20_000;
    while (lines().length < n && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    return lines();
  };
  return { proc, exited, lines, answered, write: (s: string) => proc.stdin.write(s) };
}

test("a raw session: malformed lines get JSON-RPC errors and the stream goes on", async () => {
  const raw = rawSession(w);
  const call = (id: number, params: unknown) =>
    JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params }) + "\n";
  raw.write(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "raw", version: "1" },
      },
    }) + "\n",
  );
  const [init] = await raw.answered(1);
  assert.equal(init.id, 1);
  raw.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  raw.write('{"jsonrpc":"2.0","id":2,"method":"tools/list"\n'); // cut short
  raw.write('{"id":3,"method":"ping"}\n');
  raw.write(call(4, { name: "task", arguments: [{ agent: "explore" }] }));
  raw.write(call(5, { name: "task", arguments: "agent=explore" }));
  raw.write(call(6, { name: "nope", arguments: {} }));
  raw.write(call(7, {
    name: "task",
    arguments: { agent: "explore", background: true, tasks: [{ id: "a", assignment: "x" }] },
  }));
  raw.write('{"jsonrpc":"2.0","id":8,"method":"ping"}\n');
  const out = await raw.answered(8);
  raw.proc.stdin.end();
  assert.equal(await raw.exited, 0);
  const errorOf = (id: unknown) => out.find((m) => m.id === id && m.error)?.error;
  const parse = out.filter((m) => m.id === null);
  assert.equal(parse.length, 1, JSON.stringify(out));
  assert.equal(parse[0].error.code, -32700);
  assert.match(parse[0].error.message, /^Parse error: the line is not JSON/);
  assert.deepEqual(errorOf(3), {
    code: -32600,
    message: `Invalid Request: 'jsonrpc' must be "2.0"`,
  });
  assert.deepEqual(errorOf(4), {
    code: -32602,
    message: "Invalid params: 'arguments' must be an object, not an array",
  });
  assert.deepEqual(errorOf(5), {
    code: -32602,
    message: "Invalid params: 'arguments' must be an object, not a string",
  });
  assert.deepEqual(errorOf(6), {
    code: -32602,
    message: 'Unknown tool "nope". Tools: task, agents',
  });
  const background = out.find((m) => m.id === 7).result;
  assert.equal(background.isError, true);
  assert.match(
    background.content[0].text,
    /^Invalid arguments: 'background' is not supported over MCP: make the call an MCP task .*`xcsh run --background`/,
  );
  assert.deepEqual(out.find((m) => m.id === 8), { jsonrpc: "2.0", id: 8, result: {} });
  for (const m of out) assert.doesNotMatch(m.error?.message ?? "", /\n/);
  assert.equal(model.requests.length, 0, "no child was started");
});
