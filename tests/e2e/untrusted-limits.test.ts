// End-to-end tests of the limits a task call runs under: a project config
// nobody trusted may lower the user's `task.maxConcurrency` but never raise
// it, a task list has an upper bound on its length (CLI `--task` and the MCP
// `task` tool), and `xcsh mcp` caps the children of all its calls together.
// Overlap is read from the local model server's peak of requests in flight
// (each answer is held a moment), never from wall-clock times.
//
// Needs `npm run build` first (npm test runs it).

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { Client } from "@modelcontextprotocol/sdk/client";
// The SDK's wildcard export maps types to `*.js.d.ts`, which do not exist: point Deno at them.
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.d.ts"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { runXcsh, XCSH } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import { agentMd, type World } from "../support/world.ts";

// Every answer waits a moment, so that tasks overlap when they may.
const harness = modelHarness({ respond: () => ({ text: "ok", delayMs: 300 }) });
const { server } = harness;

/** A world whose user config sets `userTask`; the server's requests and peak start afresh. */
function world(userTask: string): World {
  server.requests.length = 0;
  server.resetPeak();
  return harness.world({
    agents: { helper: agentMd("helper", "tools: read\nmodel: local/mock-small\n") },
    extraConfig: `task: { ${userTask} }\n`,
  });
}

function taskFlags(n: number): string[] {
  return Array.from({ length: n }, (_, i) => ["--task", `t${i}=job ${i}`]).flat();
}

describe("an untrusted project config and the user's limits", () => {
  test("task.maxConcurrency above the user's value is ignored, with the warning", async () => {
    const w = world("maxConcurrency: 2");
    writeFileSync(join(w.cwd, ".xcsh", "config.yml"), "task:\n  maxConcurrency: 10000\n");
    const r = await runXcsh(["run", "helper", ...taskFlags(6)], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(server.requests.length, 6);
    assert.ok(server.peakInFlight() <= 2, `peak in flight: ${server.peakInFlight()}`);
    assert.match(
      r.stderr,
      /config\.yml: task\.maxConcurrency ignored: this project config is not trusted/,
    );
  });

  test("a lower task.maxConcurrency applies without trust", async () => {
    const w = world("maxConcurrency: 4");
    writeFileSync(join(w.cwd, ".xcsh", "config.yml"), "task:\n  maxConcurrency: 1\n");
    const r = await runXcsh(["run", "helper", ...taskFlags(3)], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(server.peakInFlight(), 1);
    assert.doesNotMatch(r.stderr, /not trusted/);
  });
});

describe("the length of a task list", () => {
  test("more than 64 --task flags is a usage error before any child starts", async () => {
    const w = world("maxConcurrency: 2");
    const r = await runXcsh(["run", "helper", ...taskFlags(65)], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /65 tasks in one call: at most 64 are allowed/);
    assert.equal(server.requests.length, 0);
  });
});

describe("xcsh mcp", () => {
  let client: Client;
  before(async () => {
    const w = world("maxConcurrency: 2");
    client = new Client({ name: "xcsh-tests", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: XCSH,
        args: ["mcp"],
        cwd: w.cwd,
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: w.home },
        stderr: "pipe",
      }),
    );
  });
  after(async () => {
    await client?.close();
  });

  const call = (ids: string[]) =>
    client.callTool({
      name: "task",
      arguments: { agent: "helper", tasks: ids.map((id) => ({ id, assignment: `job ${id}` })) },
    });

  test("concurrent calls share one cap of task.maxConcurrency children", async () => {
    const results = await Promise.all([call(["a1", "a2"]), call(["b1", "b2"]), call(["c1", "c2"])]);
    for (const r of results) assert.notEqual(r.isError, true, JSON.stringify(r));
    assert.equal(server.requests.length, 6);
    assert.ok(server.peakInFlight() <= 2, `peak in flight: ${server.peakInFlight()}`);
  });

  test("a call of more than 64 tasks is refused with a clear error", async () => {
    const before = server.requests.length;
    const r = await call(Array.from({ length: 65 }, (_, i) => `t${i}`));
    assert.equal(r.isError, true);
    const text = (r.content as { text: string }[])[0].text;
    assert.match(text, /65 tasks in one call: at most 64 are allowed/);
    assert.equal(server.requests.length, before);
  });
});
