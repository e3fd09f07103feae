// End-to-end tests of where cut outputs are saved (the MCP `task` tool's
// long results): distinct task ids never share a file, and the temp-folder
// fallback is a fresh private folder that another user cannot have prepared.
// `xcsh run --json` prints results whole (nothing to save).
//
// Needs `npm run build` first (npm test runs it).

import { test } from "node:test";
import assert from "node:assert/strict";
import { chownSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import process from "node:process";
import { Client } from "@modelcontextprotocol/sdk/client";
// The SDK's wildcard export maps types to `*.js.d.ts`, which do not exist: point Deno at them.
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.d.ts"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { runXcsh, XCSH } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import { assignmentOf } from "../support/world.ts";

/** 6 000 lines naming the assignment: long enough to be cut. */
const longText = (who: string) => Array.from({ length: 6000 }, (_, i) => `${who} ${i}`).join("\n");

const { server, world } = modelHarness({
  respond: (req) => ({ text: longText(assignmentOf(req)) }),
});

/** The structured results of an MCP `task` call of quick_task with `tasks`. */
async function mcpTask(
  cwd: string,
  env: Record<string, string>,
  tasks: { id: string; assignment: string }[],
  // deno-lint-ignore no-explicit-any
): Promise<any[]> {
  const transport = new StdioClientTransport({
    command: XCSH,
    args: ["mcp"],
    cwd,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env },
    stderr: "pipe",
  });
  const client = new Client({ name: "xcsh-tests", version: "1.0.0" });
  await client.connect(transport);
  try {
    // deno-lint-ignore no-explicit-any
    const r: any = await client.callTool({
      name: "task",
      arguments: { agent: "quick_task", tasks },
    });
    assert.notEqual(r.isError, true, JSON.stringify(r).slice(0, 500));
    return r.structuredContent.results;
  } finally {
    await client.close();
  }
}

test("xcsh run --json prints a long output whole, saving nothing", async () => {
  const w = world();
  const r = await runXcsh(["run", "quick_task", "--json", "say a lot"], {
    cwd: w.cwd,
    home: w.home,
  });
  assert.equal(r.code, 0, r.stderr);
  const [one] = JSON.parse(r.stdout).results;
  assert.equal(one.text, longText("say a lot"));
  assert.equal(one.artifact, undefined);
});

test("task ids 'a/b' and 'a_b' keep separate artifacts", async () => {
  const w = world();
  const [one, two] = await mcpTask(w.cwd, { HOME: w.home }, [
    { id: "a/b", assignment: "first" },
    { id: "a_b", assignment: "second" },
  ]);
  assert.notEqual(one.artifact, two.artifact);
  const [first, second] = [readFileSync(one.artifact, "utf8"), readFileSync(two.artifact, "utf8")];
  assert.ok(first.includes(`\n${longText("first")}\n`) && !first.includes("second 0"));
  assert.ok(second.includes(`\n${longText("second")}\n`) && !second.includes("first 0"));
});

test("without a writable home, artifacts go to a fresh 0700 temp folder, not a shared name", async () => {
  const w = world();
  const tmp = join(w.root, "tmp");
  // Another user got there first with the old fixed name.
  const planted = join(tmp, "xcsh-artifacts");
  mkdirSync(planted, { recursive: true, mode: 0o777 });
  if (process.getuid?.() === 0) chownSync(planted, 54321, 54321);
  // HOME's .xcsh is a file: the home folder cannot hold artifacts.
  const home = join(w.root, "home2");
  mkdirSync(home);
  writeFileSync(join(home, ".xcsh"), "not a folder");
  const [result] = await mcpTask(w.cwd, {
    HOME: home,
    // No config in this home: a built-in provider moved to the local server.
    TMPDIR: tmp,
    XCSH_MODEL: "ollama/mock-large",
    OLLAMA_BASE_URL: server.url,
  }, [{ id: "t", assignment: "say a lot" }]);
  const artifact = result.artifact as string;
  assert.ok(artifact.startsWith(tmp + "/xcsh-artifacts-"), artifact);
  assert.ok(!artifact.startsWith(planted + "/"), artifact);
  assert.equal(statSync(dirname(artifact)).mode & 0o777, 0o700);
  assert.equal(statSync(artifact).mode & 0o777, 0o600);
  assert.equal(statSync(artifact).uid, process.getuid?.() ?? statSync(artifact).uid);
});
