// End-to-end tests of MCP tasks (spec 2025-11-25) on `xcsh mcp`, through the
// built binary and the SDK's own client: the capability and the tool's task
// support are declared; a task-augmented `tools/call` returns a task handle
// at once and is polled to completion with `tasks/get`, then read with
// `tasks/result`; `tasks/list` lists it; `tasks/cancel` ends a running one
// and its children; `isolation`/`resume` arguments and the session id in
// results.
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import process from "node:process";
import { Client } from "@modelcontextprotocol/sdk/client";
// The SDK's wildcard export maps types to `*.js.d.ts`, which do not exist: point Deno at them.
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.d.ts"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/types.d.ts"
import { CallToolResultSchema, CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { runXcsh, XCSH } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import type { RecordedRequest, Turn } from "../support/model-server.ts";
import { childPids, type World } from "../support/world.ts";

let w: World;
let client: Client;

function script(turns: Turn[], fallback?: (req: RecordedRequest, index: number) => Turn): void {
  server.script(turns);
  server.requests.length = 0;
  respond(fallback ?? (() => ({ text: "unexpected request" })));
}

const { server, respond, world } = modelHarness({
  respond: () => ({ text: "unexpected request" }),
  setup: async () => {
    w = world();
    const transport = new StdioClientTransport({
      command: XCSH,
      args: ["mcp"],
      cwd: w.cwd,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: w.home },
      stderr: "pipe",
    });
    client = new Client({ name: "xcsh-tests", version: "1.0.0" });
    await client.connect(transport);
  },
  teardown: async () => {
    await client?.close();
  },
});

// deno-lint-ignore no-explicit-any
type Any = any;

async function pollUntilTerminal(taskId: string): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const t = await client.experimental.tasks.getTask(taskId);
    if (["completed", "failed", "cancelled"].includes(t.status)) return t.status;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`task ${taskId} never ended`);
}

function startTask(assignment: string) {
  return client.request(
    {
      method: "tools/call",
      params: {
        name: "task",
        arguments: { agent: "quick_task", tasks: [{ id: "t", assignment }] },
        task: { ttl: 60_000 },
      },
    },
    CreateTaskResultSchema,
  );
}

describe("MCP tasks", () => {
  test("the server declares tasks and the task tool's task support", async () => {
    const caps: Any = client.getServerCapabilities();
    assert.deepEqual(caps.tasks?.requests?.tools?.call, {});
    assert.ok(caps.tasks.list && caps.tasks.cancel);
    const { tools } = await client.listTools();
    assert.equal((tools[0] as Any).execution?.taskSupport, "optional");
    assert.equal((tools[1] as Any).execution, undefined, "agents is a plain tool");
  });

  test("a task-augmented call returns a handle at once and is polled to completion", async () => {
    // The model answers only after a delay: the handle comes back before that.
    script([], () => ({ text: "answer from a task", delayMs: 1500 }));
    const created = await startTask("Say something.");
    const taskId = created.task.taskId;
    assert.match(taskId, /\S/);
    assert.equal(created.task.status, "working", "the handle comes before the work is done");

    assert.equal(await pollUntilTerminal(taskId), "completed");
    const result: Any = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    assert.equal(result.structuredContent.results[0].status, "ok");
    assert.equal(result.structuredContent.results[0].text, "answer from a task");
    assert.match(result.structuredContent.results[0].session, /^\d{8}-\d{6}-[0-9a-f]{6}$/);
    assert.match(
      result.content[0].text,
      /^## t \(quick_task\): ok\nanswer from a task\n\(session /,
    );

    const listed = await client.experimental.tasks.listTasks();
    assert.ok(listed.tasks.some((t) => t.taskId === taskId && t.status === "completed"));

    // Resume per task, through the same tool.
    script([{ text: "follow-up answer" }]);
    const r: Any = await client.callTool({
      name: "task",
      arguments: {
        agent: "quick_task",
        tasks: [{
          id: "t",
          assignment: "And then?",
          resume: result.structuredContent.results[0].session,
        }],
      },
    });
    assert.equal(r.structuredContent.results[0].text, "follow-up answer");
    assert.match(
      JSON.stringify(server.requests[0].body.messages),
      /Say something\.[^]*answer from a task[^]*And then\?/,
    );
  });

  test("tasks/cancel ends a running task and its children", async () => {
    script([], () => ({ fault: "stall" }));
    const created = await startTask("Hang.");
    const taskId = created.task.taskId;
    for (let i = 0; i < 200 && server.requests.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(server.requests.length, 1, "the child reached the model");
    assert.equal(childPids(w.root).length, 1, "the child is running");
    const cancelled = await client.experimental.tasks.cancelTask(taskId);
    assert.equal(cancelled.status, "cancelled");
    assert.equal((await client.experimental.tasks.getTask(taskId)).status, "cancelled");
    const until = Date.now() + 10_000;
    while (childPids(w.root).length > 0 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.deepEqual(childPids(w.root), [], "the task's children were ended");
  });

  test("plain calls are unchanged; a bad isolation value names the field", async () => {
    const r: Any = await client.callTool({
      name: "task",
      arguments: { agent: "quick_task", isolation: "box", tasks: [{ id: "x", assignment: "y" }] },
    });
    assert.equal(r.isError, true);
    assert.match(r.content[0].text, /'isolation' must be worktree or none/);
  });

  test("a session of another project is not resumed through the server", async () => {
    const other = join(w.root, "elsewhere");
    mkdirSync(join(other, ".xcsh"), { recursive: true });
    script([{ text: "elsewhere's answer" }]);
    const first = await runXcsh(["run", "quick_task", "--json", "start"], {
      cwd: other,
      home: w.home,
    });
    assert.equal(first.code, 0, first.stderr);
    const id: string = JSON.parse(first.stdout).results[0].session;
    script([]);
    const r: Any = await client.callTool({
      name: "task",
      arguments: { agent: "quick_task", tasks: [{ id: "t", assignment: "x", resume: id }] },
    });
    assert.equal(r.isError, true);
    assert.ok(
      r.content[0].text.includes(
        `cannot resume session ${id}: its folder ${realpathSync(other)} is outside this project`,
      ),
      r.content[0].text,
    );
    assert.equal(server.requests.length, 0, "no child started");
  });
});
