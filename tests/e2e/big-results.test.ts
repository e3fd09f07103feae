// End-to-end tests of long results through the built binary and the
// scripted model server: a tool result never takes more than its share of
// the window (the whole of it kept in the task's artifacts folder, which
// `read` may then read in parts, and nothing else of the data folder), a
// child's long structured result reaches `xcsh run --json` whole, a parent
// agent's `task` tool as a bounded part and a path, and an MCP client as a
// text part and a resource link.
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client";
// The SDK's wildcard export maps types to `*.js.d.ts`, which do not exist: point Deno at them.
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.d.ts"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ROOT, runXcsh, XCSH } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import type { RecordedRequest } from "../support/model-server.ts";
import { agentMd, offeredTools } from "../support/world.ts";

const FIXTURE = join(ROOT, "tests", "support", "mcp-fixture-server.mjs");
/** The share of the default window (128 000 tokens) a result may take, plus room for the notice. */
const BOUND = 61_440 + 400;

const harness = modelHarness({ respond: () => ({ text: "unexpected" }) });
const { server, respond } = harness;

const AGENTS = {
  big: agentMd("big", "tools: Read, Bash\n"),
  boss: agentMd("boss", "tools: Read, Task\n"),
};
/** A user agent (its MCP server starts without `xcsh trust`) calling the fixture's echo. */
const ECHOER = agentMd(
  "echoer",
  "tools: Read, mcp__fix__echo\nmcpServers:\n" +
    `  - fix:\n      command: node\n      args: ["${FIXTURE}"]\n`,
);

// deno-lint-ignore no-explicit-any
type Msg = Record<string, any>;
/** The tool messages of an OpenAI-format request, in order. */
const toolMessages = (req: RecordedRequest): string[] =>
  (req.body.messages ?? []).filter((m: Msg) => m.role === "tool").map((m: Msg) =>
    typeof m.content === "string" ? m.content : JSON.stringify(m.content)
  );
/** The file a cut result names. */
const pathIn = (text: string): string | undefined =>
  /the whole result is in (\/[^;\s]+);/.exec(text)?.[1];

/**
 * The model runs `first`, then reads lines `at`…`at + 2` of the file the
 * result names, then tries `escape` (a path beside the artifacts folder),
 * then ends; what it saw is recorded.
 */
function readBack(
  first: { name: string; args: unknown },
  at: number,
  escape: (path: string) => string,
) {
  const seen: string[] = [];
  server.script([]);
  server.requests.length = 0;
  respond((req) => {
    const tools = toolMessages(req);
    seen.splice(0, seen.length, ...tools);
    if (tools.length === 0) return { toolCalls: [first] };
    const path = pathIn(tools[0]);
    if (!path) return { text: "no path" };
    if (tools.length === 1) {
      return { toolCalls: [{ name: "read", args: { path, start_line: at, end_line: at + 2 } }] };
    }
    if (tools.length === 2) return { toolCalls: [{ name: "read", args: { path: escape(path) } }] };
    return { text: "done" };
  });
  return seen;
}

describe("a tool result over its share of the window", () => {
  test("bash printing 5 MB: the model sees a bounded part and a path it can read in parts, and nothing beside it", async () => {
    const w = harness.world({ agents: AGENTS });
    // A file in the user's data folder, outside the task's artifacts folder.
    mkdirSync(join(w.home, ".xcsh", "agent", "artifacts"), { recursive: true });
    writeFileSync(join(w.home, ".xcsh", "agent", "artifacts", "other.txt"), "NOT-YOURS\n");
    const seen = readBack(
      { name: "bash", args: { command: "seq 1 800000" } },
      400000,
      (p) => join(p, "..", "..", "..", "other.txt"),
    );
    const r = await runXcsh(["run", "big", "print a lot"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(seen.length, 3, seen.map((s) => s.slice(0, 200)).join("\n---\n"));
    assert.ok(seen[0].length < BOUND, `the bash result took ${seen[0].length} characters`);
    const path = pathIn(seen[0])!;
    assert.ok(
      path.startsWith(join(w.home, ".xcsh", "agent", "artifacts") + "/"),
      `${path} lies in the user's artifacts folder`,
    );
    const whole = readFileSync(path, "utf8");
    assert.ok(whole.startsWith("1\n2\n3\n"));
    assert.match(whole, /\n800000\n\[exit code 0\]$/);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.equal(statSync(join(path, "..")).mode & 0o777, 0o700);
    assert.match(seen[1], /^400000\t400000\n400001\t400001\n400002\t400002/);
    // Only the task's own folder became readable.
    assert.ok(!seen[2].includes("NOT-YOURS"), seen[2]);
    assert.match(seen[2], /^Error: /);
  });

  test("an MCP tool's 300 000-character answer: bounded part, the whole kept and readable", async () => {
    const w = harness.world({ agents: AGENTS });
    mkdirSync(join(w.home, ".claude", "agents"), { recursive: true });
    writeFileSync(join(w.home, ".claude", "agents", "echoer.md"), ECHOER);
    // A small call with a large answer: the call itself stays small in the conversation.
    const seen = readBack(
      { name: "mcp__fix__echo", args: { text: "n\n", times: 160_000 } },
      40000,
      (p) => join(p, "..", "..", "x.txt"),
    );
    const r = await runXcsh(["run", "echoer", "echo a lot"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(seen.length, 3, seen.map((s) => s.slice(0, 200)).join("\n---\n"));
    assert.ok(seen[0].length < BOUND, `the MCP result took ${seen[0].length} characters`);
    const path = pathIn(seen[0])!;
    const whole = readFileSync(path, "utf8");
    assert.equal(whole, `echo: ${"n\n".repeat(160_000)}`);
    assert.ok(whole.length > 300_000);
    assert.match(seen[1], /^40000\tn\n40001\tn\n40002\tn/);
  });
});

const BLOB = "y".repeat(300_000);
/** The child `big` submits a 300 KB result; `boss` delegates to it, reads the path back, ends. */
function bigChild(bossSeen: string[]): void {
  server.script([]);
  server.requests.length = 0;
  respond((req) => {
    if (!offeredTools(req).includes("task")) {
      return {
        toolCalls: [{ name: "submit_result", args: { result: { data: { blob: BLOB, n: 1 } } } }],
      };
    }
    const tools = toolMessages(req);
    bossSeen.splice(0, bossSeen.length, ...tools);
    if (tools.length === 0) {
      return {
        toolCalls: [{
          name: "task",
          args: { agent: "big", tasks: [{ id: "../../escape", assignment: "give back a lot" }] },
        }],
      };
    }
    const path = pathIn(tools[0]);
    if (tools.length === 1 && path) {
      return { toolCalls: [{ name: "read", args: { path, start_line: 1, end_line: 40 } }] };
    }
    return { text: "done" };
  });
}

describe("a child's long result reaches its caller whole", () => {
  test("xcsh run --json has all 300 KB", async () => {
    const w = harness.world({ agents: AGENTS });
    bigChild([]);
    const r = await runXcsh(["run", "big", "--json", "give back a lot"], {
      cwd: w.cwd,
      home: w.home,
    });
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    const result = (out.results ?? out)[0] ?? out;
    assert.equal(result.data.blob, BLOB);
  });

  test("a parent agent's task tool gets a bounded part and a path it can read", async () => {
    const w = harness.world({ agents: AGENTS });
    const seen: string[] = [];
    bigChild(seen);
    const r = await runXcsh(["run", "boss", "delegate"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(seen.length, 2, seen.map((s) => s.slice(0, 300)).join("\n---\n"));
    assert.ok(seen[0].length < BOUND, `the task result took ${seen[0].length} characters`);
    const path = pathIn(seen[0])!;
    // The repository-steered task id never leaves the data folder.
    assert.ok(path.startsWith(join(w.home, ".xcsh", "agent", "artifacts") + "/"), path);
    assert.ok(!path.slice(join(w.home, ".xcsh").length).includes(".."), path);
    assert.ok(readFileSync(path, "utf8").includes(BLOB));
    assert.match(seen[1], /^1\t\[/);
  });

  test("the MCP task tool answers with a text part and a resource link to the whole result", async () => {
    const w = harness.world({ agents: AGENTS });
    bigChild([]);
    const transport = new StdioClientTransport({
      command: XCSH,
      args: ["mcp"],
      cwd: w.cwd,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: w.home },
      stderr: "pipe",
    });
    const client = new Client({ name: "xcsh-tests", version: "1.0.0" });
    await client.connect(transport);
    try {
      // deno-lint-ignore no-explicit-any
      const r: any = await client.callTool({
        name: "task",
        arguments: { agent: "big", tasks: [{ id: "big1", assignment: "give back a lot" }] },
      });
      assert.notEqual(r.isError, true, JSON.stringify(r).slice(0, 500));
      assert.equal(r.content[0].type, "text");
      assert.ok(r.content[0].text.length < 41_000, `${r.content[0].text.length} characters`);
      const link = r.content[1];
      assert.equal(link.type, "resource_link");
      assert.match(link.uri, /^file:\/\//);
      const file = fileURLToPath(link.uri);
      assert.ok(readFileSync(file, "utf8").includes(BLOB));
      assert.ok(r.content[0].text.includes(file));
      assert.equal(r.structuredContent.results[0].artifact, file);
    } finally {
      await client.close();
    }
  });
});
