import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { connectMcpServer, type McpConnection } from "./mcp-client.ts";
import { startMcpTools } from "./mcp-tools.ts";
import type { McpServerDef } from "../../types.ts";
import { startMcpHttpServer } from "../../../tests/support/mcp-http-server.ts";
import { isRunning } from "../../process/process-tree.ts";
import { decideToolSet } from "../../plan/tool-set-rule.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const FIXTURE = join(ROOT, "tests", "support", "mcp-fixture-server.mjs");
const FS_SERVER = join(
  ROOT,
  "node_modules",
  "@modelcontextprotocol",
  "server-filesystem",
  "dist",
  "index.js",
);
const dir = mkdtempSync(join(tmpdir(), "xcsh-mcp-"));
const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir };
const opts = { cwd: dir, env, startTimeoutMs: 5000, callTimeoutMs: 1500 };
const signal = new AbortController().signal;
const fixture = (...args: string[]): McpServerDef & { type: "stdio" } => ({
  type: "stdio",
  command: "node",
  args: [FIXTURE, ...args],
  env: {},
});
const open: McpConnection[] = [];
after(async () => {
  await Promise.all(open.map((c) => c.close()));
  rmSync(dir, { recursive: true, force: true });
});

async function connect(name: string, def: McpServerDef): Promise<McpConnection> {
  const r = await connectMcpServer(name, def, opts);
  assert.ok(r.ok, r.ok ? "" : r.error);
  open.push(r.conn);
  return r.conn;
}

describe("an MCP server over stdio", () => {
  test("tools are listed with their schemas and read-only hints, and called", async () => {
    const c = await connect("fix", fixture());
    const echo = c.tools.find((t) => t.name === "echo")!;
    assert.equal(echo.readOnly, true);
    assert.deepEqual(echo.inputSchema.required, ["text"]);
    assert.equal(c.tools.find((t) => t.name === "shout")!.readOnly, false);
    const r = await c.call("echo", { text: "hi" }, signal);
    assert.deepEqual([r.ok, r.output], [true, "echo: hi"]);
  });
  test("the server gets the basics and its own env, never the child's secrets", async () => {
    const r = await connectMcpServer("envs", { ...fixture(), env: { OWN: "1" } }, {
      ...opts,
      env: {
        ...env,
        ANTHROPIC_API_KEY: "sk-secret",
        GITHUB_TOKEN: "ghp",
        LANG: "C.UTF-8",
        HTTPS_PROXY: "http://me:proxy-pass@proxy:3128",
        NO_PROXY: "localhost",
      },
    });
    assert.ok(r.ok, r.ok ? "" : r.error);
    open.push(r.conn);
    const names = (await r.conn.call("env", {}, signal)).output.split(",");
    for (const n of ["PATH", "HOME", "LANG", "OWN", "NO_PROXY"]) {
      assert.ok(names.includes(n), names.join(","));
    }
    assert.ok(!names.includes("ANTHROPIC_API_KEY") && !names.includes("GITHUB_TOKEN"));
    assert.ok(!names.includes("HTTPS_PROXY"), "a proxy URL with a password is a secret");
  });
  test("a stdio server gets the git settings commands get", async () => {
    const r = await connectMcpServer("gits", fixture(), {
      ...opts,
      gitSettings: [["core.hooksPath", "/dev/null"], ["filter.x.clean", ""]],
    });
    assert.ok(r.ok, r.ok ? "" : r.error);
    open.push(r.conn);
    const names = (await r.conn.call("env", {}, signal)).output.split(",");
    for (const n of ["GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_0", "GIT_CONFIG_VALUE_1"]) {
      assert.ok(names.includes(n), names.join(","));
    }
  });
  test("images are summarised and structured content kept", async () => {
    const c = await connect("pic", fixture());
    const r = await c.call("picture", {}, signal);
    assert.equal(r.ok, true);
    assert.match(r.output, /^\[image: image\/png, \d+ bytes\]\n\{\n {2}"width": 1,/);
  });
  test("an isError result is a tool error", async () => {
    const c = await connect("err", fixture());
    const r = await c.call("fail", {}, signal);
    assert.deepEqual([r.ok, r.output], [false, "Error: the fixture failed"]);
  });
  test("a call that never answers times out naming the server", async () => {
    const c = await connect("slow", fixture());
    const r = await c.call("hang", {}, signal);
    assert.equal(r.ok, false);
    assert.match(r.output, /MCP server 'slow' did not answer 'hang' within 1\.5 s/);
  });
  test("a crash mid-call names the server, and later calls say it is gone", async () => {
    const c = await connect("boom", fixture());
    const r = await c.call("crash", {}, signal);
    assert.equal(r.ok, false);
    assert.match(
      r.output,
      /MCP server 'boom' stopped while running 'crash' \(it exited; its last output: fixture: crashing now\)/,
    );
    const again = await c.call("echo", { text: "x" }, signal);
    assert.match(again.output, /MCP server 'boom' is not running/);
  });
  test("close ends the server's whole process tree", async () => {
    const pidfile = join(dir, "pids");
    const c = await connect("tree", { ...fixture(), env: { XCSH_FIXTURE_PIDFILE: pidfile } });
    const pids = readFileSync(pidfile, "utf8").trim().split("\n").map(Number);
    assert.equal(pids.length, 2);
    assert.ok(pids.every(isRunning));
    await c.close();
    for (let i = 0; i < 50 && pids.some(isRunning); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.deepEqual(pids.filter(isRunning), []);
  });
});

describe("servers that cannot start", () => {
  const cases: { name: string; def: McpServerDef; message: RegExp }[] = [
    {
      name: "a command that does not exist",
      def: { type: "stdio", command: "xcsh-no-such-command", args: [], env: {} },
      message:
        /^MCP server 'x' \(command "xcsh-no-such-command"\) could not start: command "xcsh-no-such-command" was not found/,
    },
    {
      name: "a server that exits at once",
      def: fixture("exit"),
      message:
        /^MCP server 'x' \(command "node"\) could not start: it exited before it was ready; its last output: fixture: refusing to start/,
    },
    {
      name: "a server that never answers",
      def: fixture("silent"),
      message: /^MCP server 'x' \(command "node"\) could not start: it did not answer within 1 s/,
    },
    {
      name: "an unset variable",
      def: { type: "stdio", command: "node", args: ["${XCSH_TEST_UNSET_VAR}"], env: {} },
      message: /\$\{XCSH_TEST_UNSET_VAR\}, which is not set/,
    },
    {
      name: "an HTTP server that is not there",
      def: { type: "http", url: "http://127.0.0.1:9/mcp", headers: {} },
      message: /^MCP server 'x' \(http:\/\/127\.0\.0\.1:9\/mcp\) could not start/,
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const r = await connectMcpServer("x", c.def, { ...opts, startTimeoutMs: 1000 });
      assert.ok(!r.ok);
      assert.match(r.error, c.message);
    });
  }
});

const grantOf = (tools: string[], planMode: boolean) =>
  decideToolSet({ agent: { tools }, planMode, depthAllowsSpawn: true }).mcp;

describe("startMcpTools", () => {
  test("patterns pick tools, plan mode keeps read-only ones, failures are listed", async () => {
    const set = await startMcpTools(
      {
        fix: fixture(),
        gone: { type: "stdio", command: "xcsh-no-such-command", args: [], env: {} },
      },
      grantOf(["read", "mcp__fix__echo", "mcp__fix__shout", "mcp__fix__nope"], false),
      ["read", "mcp__fix__echo", "mcp__fix__shout", "mcp__fix__nope"],
      opts,
    );
    try {
      assert.deepEqual(set.tools.map((t) => t.name), ["mcp__fix__echo", "mcp__fix__shout"]);
      assert.equal(set.errors.length, 2);
      assert.match(set.errors[0], /MCP server 'gone'/);
      assert.match(
        set.errors[1],
        /^MCP server 'fix' has no tool 'nope' \(the agent lists mcp__fix__nope\); its tools: echo, shout,/,
      );
    } finally {
      await set.close();
    }
    const plan = await startMcpTools(
      { fix: fixture() },
      grantOf(["mcp__fix__*"], true),
      ["mcp__fix__*"],
      opts,
    );
    try {
      assert.deepEqual(plan.tools.map((t) => t.name), ["mcp__fix__echo"]);
    } finally {
      await plan.close();
    }
  });
});

describe("the official filesystem server", {
  skip: existsSync(FS_SERVER)
    ? false
    : "needs @modelcontextprotocol/server-filesystem (npm ci installs it)",
}, () => {
  test("lists and reads a file in the allowed folder", async () => {
    writeFileSync(join(dir, "note.txt"), "hello from the filesystem server\n");
    const c = await connect("fs", {
      type: "stdio",
      command: "node",
      args: [FS_SERVER, dir],
      env: {},
    });
    const names = c.tools.map((t) => t.name);
    assert.ok(names.includes("read_text_file"), names.join(", "));
    const r = await c.call("read_text_file", { path: join(dir, "note.txt") }, signal);
    assert.equal(r.ok, true, r.output);
    assert.match(r.output, /hello from the filesystem server/);
    const denied = await c.call("read_text_file", { path: "/etc/hostname" }, signal);
    assert.equal(denied.ok, false);
  });
});

describe("an MCP server over streamable HTTP", () => {
  test("tools listed and called; headers from the definition (with ${VAR}) are sent", async () => {
    const http = await startMcpHttpServer();
    try {
      const r = await connectMcpServer("web", {
        type: "http",
        url: http.url,
        headers: { Authorization: "Bearer ${XCSH_TEST_TOKEN}" },
      }, { ...opts, env: { ...env, XCSH_TEST_TOKEN: "tok-1" } });
      assert.ok(r.ok, r.ok ? "" : r.error);
      try {
        assert.deepEqual(r.conn.tools.map((t) => [t.name, t.readOnly]), [["whoami", true]]);
        const out = await r.conn.call("whoami", {}, signal);
        assert.deepEqual([out.ok, out.output], [true, "auth: Bearer tok-1"]);
      } finally {
        await r.conn.close();
      }
    } finally {
      await http.close();
    }
  });
});
