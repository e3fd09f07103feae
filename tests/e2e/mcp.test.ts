// End-to-end tests of `xcsh mcp` through the built binary, driven by the MCP
// SDK's own stdio client, with children running against the local model
// server. Also a raw session that checks stdout carries JSON-RPC only.
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import process from "node:process";
import { Client } from "@modelcontextprotocol/sdk/client";
// The SDK's wildcard export maps types to `*.js.d.ts`, which do not exist: point Deno at them.
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.d.ts"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/types.d.ts"
import { ProgressNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { runXcsh, XCSH } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import type { RecordedRequest, Turn } from "../support/model-server.ts";
import {
  agentMd,
  childPids,
  EXPLORE_SAMPLE,
  localConfig,
  makeWorld,
  waitForNoProcessesIn,
  type World,
} from "../support/world.ts";

let w: World;
let client: Client;
let transport: StdioClientTransport;
let serverStderr = "";
/**
 * Progress messages as the client received them. The SDK's per-call
 * `onprogress` callback misses a notification that arrives in the same read
 * as the call's response (the response removes the callback before the
 * notification's handler runs), so the tests record every progress
 * notification that reached the client instead; `onprogress` is still passed,
 * since it is what makes the client send a progress token.
 */
const progress: string[] = [];

function script(turns: Turn[], fallback?: (req: RecordedRequest, index: number) => Turn): void {
  server.script(turns);
  server.requests.length = 0;
  respond(fallback ?? (() => ({ text: "unexpected request" })));
}

const { server, respond, world } = modelHarness({
  respond: () => ({ text: "unexpected request" }),
  setup: async () => {
    w = world();
    transport = new StdioClientTransport({
      command: XCSH,
      args: ["mcp"],
      cwd: w.cwd,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: w.home },
      stderr: "pipe",
    });
    transport.stderr?.on("data", (d: Buffer) => (serverStderr += d.toString("utf8")));
    client = new Client({ name: "xcsh-tests", version: "1.0.0" });
    client.setNotificationHandler(ProgressNotificationSchema, (n) => {
      progress.push(n.params.message ?? "");
    });
    await client.connect(transport);
  },
  teardown: async () => {
    await client?.close();
  },
});

// deno-lint-ignore no-explicit-any
type Any = any;

describe("xcsh mcp", () => {
  test("initialize names the server", () => {
    assert.equal(client.getServerVersion()?.name, "xcsh");
  });

  test("tools/list offers task (describing the bundled agents) and agents", async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), ["task", "agents"]);
    const task = tools[0];
    for (const name of ["explore", "plan", "designer", "reviewer", "task", "quick_task"]) {
      assert.match(task.description ?? "", new RegExp(`^- ${name}: `, "m"));
    }
    assert.deepEqual(task.inputSchema.required, ["agent", "tasks"]);
  });

  test("tools/call runs explore and returns the same data as xcsh run", async () => {
    script([{
      toolCalls: [{ name: "submit_result", args: { result: { data: EXPLORE_SAMPLE } } }],
    }]);
    const r: Any = await client.callTool({
      name: "task",
      arguments: { agent: "explore", tasks: [{ id: "title", assignment: "Where is the title?" }] },
    });
    assert.notEqual(r.isError, true, JSON.stringify(r));
    const result = r.structuredContent.results[0];
    assert.equal(result.id, "title");
    assert.equal(result.status, "ok");
    assert.deepEqual(result.data, EXPLORE_SAMPLE);
    assert.match(r.content[0].text, /^## title \(explore\): ok\n/);

    script([{
      toolCalls: [{ name: "submit_result", args: { result: { data: EXPLORE_SAMPLE } } }],
    }]);
    const cli = await runXcsh(["run", "explore", "--json", "Where is the title?"], {
      cwd: w.cwd,
      home: w.home,
    });
    assert.equal(cli.code, 0, cli.stderr);
    assert.deepEqual(JSON.parse(cli.stdout).results[0].data, result.data);
  });

  test("progress notifications while a task runs", async () => {
    script([
      { toolCalls: [{ name: "read", args: { path: "README.md" } }] },
      { text: "it is a demo" },
    ]);
    const messages = progress;
    messages.length = 0;
    const r: Any = await client.callTool(
      {
        name: "task",
        arguments: { agent: "quick_task", tasks: [{ id: "q", assignment: "read it" }] },
      },
      undefined,
      { onprogress: () => {} },
    );
    assert.equal(r.structuredContent.results[0].text, "it is a demo");
    assert.ok(messages.includes("[q] read README.md"), messages.join(" | "));
    assert.ok(messages.includes("[q] ok"), messages.join(" | "));
    // The call's totals follow its calls and its ending.
    assert.ok(
      messages.some((m) => /^run: 1 done · 0 running · \d+ tokens$/.test(m)),
      messages.join(" | "),
    );
  });

  test("progress shows the read-only calls of one turn running side by side", async () => {
    script([
      {
        toolCalls: [
          { name: "read", args: { path: "README.md" } },
          { name: "grep", args: { pattern: "demo" } },
          { name: "ls", args: { path: "." } },
        ],
      },
      { text: "looked" },
    ]);
    const messages = progress;
    messages.length = 0;
    const r: Any = await client.callTool(
      {
        name: "task",
        arguments: { agent: "quick_task", tasks: [{ id: "q", assignment: "look around" }] },
      },
      undefined,
      { onprogress: () => {} },
    );
    assert.equal(r.structuredContent.results[0].text, "looked");
    assert.ok(
      messages.includes("[q] 3 tools: read README.md, grep demo, ls ."),
      messages.join(" | "),
    );
  });

  test("an unknown agent is a tool error with the runner's message, not a protocol error", async () => {
    script([]);
    const r: Any = await client.callTool({
      name: "task",
      arguments: { agent: "nope", tasks: [{ id: "a", assignment: "x" }] },
    });
    assert.equal(r.isError, true);
    assert.match(
      r.content[0].text,
      /^Unknown agent "nope"\. Available: explore, plan, designer, reviewer, task, quick_task$/,
    );
    assert.equal(server.requests.length, 0);
  });

  test("bad arguments are a tool error naming the field", async () => {
    const r: Any = await client.callTool({
      name: "task",
      arguments: { agent: "explore", tasks: [{ id: "a" }] },
    });
    assert.equal(r.isError, true);
    assert.match(r.content[0].text, /'tasks\[0\]\.assignment' must be a string/);
  });

  test("an agent file added after start-up is listed by agents and callable", async () => {
    w.addAgent("latecomer", agentMd("latecomer", "tools: read\n"));
    const listed: Any = await client.callTool({ name: "agents", arguments: {} });
    assert.ok(listed.structuredContent.agents.some((a: Any) => a.name === "latecomer"));
    const { tools } = await client.listTools();
    assert.doesNotMatch(
      tools[0].description ?? "",
      /latecomer/,
      "the description was built at start-up",
    );
    script([{ text: "late but here" }]);
    const r: Any = await client.callTool({
      name: "task",
      arguments: { agent: "latecomer", tasks: [{ id: "l", assignment: "hello" }] },
    });
    assert.equal(r.structuredContent.results[0].text, "late but here");
  });

  test("a cancelled call ends its children", async () => {
    script([], () => ({ fault: "stall" }));
    const controller = new AbortController();
    const call = client.callTool(
      {
        name: "task",
        arguments: {
          agent: "quick_task",
          tasks: [{ id: "a", assignment: "x" }, { id: "b", assignment: "y" }],
        },
      },
      undefined,
      { signal: controller.signal },
    ).then(() => "resolved", (err) => `rejected: ${err}`);
    const until = Date.now() + 20_000;
    while (server.requests.length < 2 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(childPids(w.root).length, 2, "both children are running");
    controller.abort();
    assert.match(await call, /^rejected: .*abort/i);
    const until2 = Date.now() + 10_000;
    while (childPids(w.root).length > 0 && Date.now() < until2) {
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.deepEqual(childPids(w.root), [], "no child left");
  });

  test("logs go to stderr", () => {
    assert.match(serverStderr, /xcsh mcp: serving/);
  });
});

/** `xcsh mcp` driven by hand: JSON-RPC lines in, everything it writes collected. */
function rawSession(world: World, env: Record<string, string> = {}) {
  const proc = spawn(XCSH, ["mcp"], {
    cwd: world.cwd,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: world.home, ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const out = { stdout: "", stderr: "" };
  proc.stdout.setEncoding("utf8").on("data", (d: string) => (out.stdout += d));
  proc.stderr.setEncoding("utf8").on("data", (d: string) => (out.stderr += d));
  const exited = new Promise<number | null>((resolve) => proc.on("close", resolve));
  const send = (msg: unknown) => proc.stdin.write(JSON.stringify(msg) + "\n");
  /** Waits (bounded) for the answer to request `id`. */
  const waitFor = async (id: number) => {
    const until = Date.now() + 20_000;
    while (!out.stdout.includes(`"id":${id}`) && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const initialize = () => {
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "raw", version: "1" },
      },
    });
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
  };
  const callTask = (id: number) =>
    send({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: {
        name: "task",
        arguments: { agent: "quick_task", tasks: [{ id: "a", assignment: "x" }] },
      },
    });
  return { proc, out, exited, send, waitFor, initialize, callTask };
}

for (const verbose of [false, true]) {
  test(`a whole raw session writes nothing but JSON-RPC on stdout${verbose ? " (verbose)" : ""}`, async () => {
    const world = makeWorld(localConfig(server.url), { broken: "---\nname: [oops\n---\nbody\n" });
    try {
      script([{ text: "fine" }]);
      // The same machine everywhere: one without bubblewrap, whose warning is
      // said once too.
      const raw = rawSession(world, {
        XCSH_NO_BWRAP: "1",
        ...(verbose ? { XCSH_VERBOSE: "1" } : {}),
      });
      raw.initialize();
      await raw.waitFor(1);
      raw.send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
      await raw.waitFor(2);
      raw.callTask(3);
      await raw.waitFor(3);
      raw.send({
        jsonrpc: "2.0",
        id: 4,
        method: "tools/call",
        params: { name: "agents", arguments: {} },
      });
      await raw.waitFor(4);
      raw.proc.stdin.end();
      assert.equal(await raw.exited, 0);
      const lines = raw.out.stdout.split("\n").filter((l) => l !== "");
      assert.equal(lines.length, 4);
      for (const line of lines) assert.equal(JSON.parse(line).jsonrpc, "2.0");
      if (verbose) {
        assert.match(raw.out.stderr, /broken\.md/, "the bad agent file was reported on stderr");
      } else {
        // Quiet by default: one summary line, said once however many calls rediscover.
        assert.doesNotMatch(raw.out.stderr, /broken\.md/);
        assert.deepEqual(
          raw.out.stderr.split("\n").filter((l) => l.includes("warning")).sort(),
          [
            "xcsh: 1 agent file has warnings (xcsh agents check)",
            "xcsh: warning: task.sandbox: bubblewrap (bwrap) is not installed (XCSH_NO_BWRAP " +
            "is set): bash commands run unsandboxed (task.sandbox: off says so and silences " +
            "this warning)",
          ],
        );
      }
      assert.equal(JSON.parse(lines[2]).result.structuredContent.results[0].text, "fine");
    } finally {
      world.cleanup();
    }
    assert.deepEqual(await waitForNoProcessesIn(world.root, 2000), []);
  });
}

for (const how of ["SIGTERM", "SIGHUP", "stdin closed"] as const) {
  test(`server ended (${how}) while a task runs: its children end too`, async () => {
    const world = makeWorld(localConfig(server.url));
    try {
      script([], () => ({ fault: "stall" }));
      const raw = rawSession(world);
      raw.initialize();
      raw.callTask(2);
      const until = Date.now() + 20_000;
      while (childPids(world.root).length === 0 && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.equal(childPids(world.root).length, 1, "the child is running");
      if (how === "stdin closed") raw.proc.stdin.end();
      else process.kill(raw.proc.pid!, how);
      await raw.exited;
      assert.deepEqual(await waitForNoProcessesIn(world.root), [], "nothing left running");
    } finally {
      world.cleanup();
    }
  });
}

describe("xcsh mcp: acceptance checks", () => {
  test("accept in the arguments judges each task: rejected, with its checks", async () => {
    script([{
      toolCalls: [{ name: "submit_result", args: { result: { data: EXPLORE_SAMPLE } } }],
    }]);
    const r: Any = await client.callTool({
      name: "task",
      arguments: {
        agent: "explore",
        accept: ['result: /query == "something else"', { result: "/files", matches: "." }],
        acceptRetries: 0,
        tasks: [{ id: "t", assignment: "Where is the title?" }],
      },
    });
    assert.equal(r.isError, true, JSON.stringify(r));
    const result = r.structuredContent.results[0];
    assert.equal(result.status, "rejected");
    assert.deepEqual(result.data, EXPLORE_SAMPLE, "the result is kept");
    assert.deepEqual(result.checks.map((c: Any) => c.ok), [false, true]);
    assert.equal(result.verified, false);
    assert.match(r.content[0].text, /^## t \(explore\): rejected\n/);
    assert.match(r.content[0].text, /- result: \/query == "something else": failed/);
  });

  test("a task's own checks judge that task alone, after the call's", async () => {
    const submit = {
      toolCalls: [{ name: "submit_result", args: { result: { data: EXPLORE_SAMPLE } } }],
    };
    script([submit, submit]);
    const r: Any = await client.callTool({
      name: "task",
      arguments: {
        agent: "explore",
        accept: [{ result: "/files", matches: "." }],
        acceptRetries: 0,
        tasks: [
          { id: "a", assignment: "Where is the title?" },
          {
            id: "b",
            assignment: "Where is the footer?",
            accept: ['result: /query == "something else"'],
          },
        ],
      },
    });
    const [a, b] = r.structuredContent.results;
    assert.equal(a.status, "ok", JSON.stringify(a));
    assert.deepEqual(a.checks.map((c: Any) => [c.name, c.ok]), [["result: /files", true]]);
    assert.equal(b.status, "rejected", JSON.stringify(b));
    assert.deepEqual(b.checks.map((c: Any) => c.ok), [true, false], "the call's, then its own");
    assert.equal(r.isError, undefined, "one task is ok: the call is not an error");
  });

  test("a task's own bad check is refused before any child starts, naming its place", async () => {
    script([]);
    const r: Any = await client.callTool({
      name: "task",
      arguments: {
        agent: "explore",
        tasks: [{ id: "t", assignment: "x", accept: ["scope: [z-a]"] }],
      },
    });
    assert.equal(r.isError, true);
    assert.match(r.content[0].text, /^tasks\[0\]\.accept: check 'scope: \[z-a\]': invalid glob/);
    assert.equal(server.requests.length, 0);
  });

  test("a bad check is refused before any child starts, naming it", async () => {
    script([]);
    const r: Any = await client.callTool({
      name: "task",
      arguments: {
        agent: "explore",
        accept: ["scope: [z-a]"],
        tasks: [{ id: "t", assignment: "x" }],
      },
    });
    assert.equal(r.isError, true);
    assert.match(r.content[0].text, /^accept: check 'scope: \[z-a\]': invalid glob/);
    assert.equal(server.requests.length, 0);
  });
});
