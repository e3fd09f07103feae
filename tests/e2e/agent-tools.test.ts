// End-to-end tests of the tools real agent files ask for — web_fetch, todo,
// web_search — and of MCP servers' tools inside a child, through the built
// binary against the scripted model server (OpenAI wire format), a local web
// server, the official filesystem MCP server from npm and a small fixture
// MCP server that crashes or hangs on request.
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, runXcsh } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import {
  agentMd,
  isAfterTool,
  offeredTools,
  toolResults,
  waitForNoProcessesIn,
  type World,
} from "../support/world.ts";
import { startWebServer, type WebServer } from "../support/web-server.ts";
import { planText, userConfig } from "../support/plan.ts";

const FIXTURE = join(ROOT, "tests", "support", "mcp-fixture-server.mjs");
const FS_SERVER = join(
  ROOT,
  "node_modules",
  "@modelcontextprotocol",
  "server-filesystem",
  "dist",
  "index.js",
);

let web: WebServer;
const harness = modelHarness({
  respond: () => ({ text: "unexpected" }),
  setup: async () => {
    web = await startWebServer();
  },
  teardown: () => web.close(),
});
const { server, respond } = harness;
const world = (agents: Record<string, string>, extraConfig = "") =>
  harness.world({ agents, extraConfig });

/** The model calls `calls` in one turn, then answers with the tool results it saw. */
function callThenEcho(calls: { name: string; args: unknown }[]): void {
  server.script([]);
  server.requests.length = 0;
  respond((req) => isAfterTool(req) ? { text: `saw: ${toolResults(req)}` } : { toolCalls: calls });
}

/** The JSON-string-escaped form of `s`, as it appears inside a tool result. */
const inJson = (s: string) => JSON.stringify(s).slice(1, -1);

describe("web_fetch through a real run", () => {
  test("a Claude agent's WebFetch reads a page; every bad URL is a tool error and the task goes on", async () => {
    // The page server listens on loopback, which only the user's own config opens.
    const w = world(
      { reader: agentMd("reader", "tools: Read, WebFetch\n") },
      'task:\n  webFetchAllow: ["127.0.0.1"]\n',
    );
    callThenEcho([
      { name: "web_fetch", args: { url: `${web.url}/page` } },
      { name: "web_fetch", args: { url: "file:///etc/passwd" } },
      { name: "web_fetch", args: { url: "ftp://127.0.0.1/x" } },
      { name: "web_fetch", args: { url: `${web.url}/loop-a` } },
      { name: "web_fetch", args: { url: `${web.url}/huge` } },
      { name: "web_fetch", args: { url: `${web.url}/png` } },
      { name: "web_fetch", args: { url: `${web.url}/stall` } },
    ]);
    const r = await runXcsh(["run", "reader", "read the page"], {
      cwd: w.cwd,
      home: w.home,
      env: { XCSH_WEB_FETCH_TIMEOUT_MS: "1500" },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(offeredTools(server.requests[0]).includes("web_fetch"));
    const seen = toolResults(server.requests.at(-1)!);
    assert.ok(seen.includes("# Main heading"), seen.slice(0, 400));
    assert.ok(!seen.includes("secretScript") && !seen.includes("color: red"));
    assert.ok(seen.includes(inJson("file:///etc/passwd: only http and https URLs")));
    assert.ok(seen.includes(inJson("ftp://127.0.0.1/x: only http and https URLs")));
    assert.ok(seen.includes("/loop-a: redirect loop"));
    assert.ok(seen.includes("only the first 5 MiB were read"));
    assert.ok(seen.includes("/png: binary content (image/png)"));
    assert.ok(seen.includes("/stall: no complete answer within 1.5 s"));
    assert.ok(web.hugeSent() < 2 ** 30, "the 2 GB body was not downloaded");
  });
});

describe("web_fetch and internal addresses", () => {
  const agent = agentMd("reader", "tools: Read, WebFetch\n");
  const fetches = (port: string) => [
    { name: "web_fetch", args: { url: `http://127.0.0.1:${port}/json` } },
    { name: "web_fetch", args: { url: `http://2130706433:${port}/json` } },
    { name: "web_fetch", args: { url: `http://localhost:${port}/json` } },
  ];

  test("refused in --plan and with sandboxNetwork: false; a repository's config cannot open them", async () => {
    const w = world({ reader: agent }, "task:\n  sandboxNetwork: false\n");
    // The repository's own config asks to open loopback: it is not the user's, so it is held back.
    writeFileSync(join(w.cwd, ".xcsh", "config.yml"), 'task:\n  webFetchAllow: ["127.0.0.0/8"]\n');
    const port = new URL(web.url).port;
    for (const extra of [[], ["--plan"]]) {
      callThenEcho(fetches(port));
      const before = web.connections();
      const r = await runXcsh(["run", "reader", "read", ...extra], { cwd: w.cwd, home: w.home });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /task\.webFetchAllow ignored: this project config is not trusted/);
      assert.ok(offeredTools(server.requests[0]).includes("web_fetch"), extra.join());
      const seen = toolResults(server.requests.at(-1)!);
      assert.equal(seen.match(/web_fetch reaches only public addresses/g)?.length, 3, seen);
      assert.ok(!seen.includes("answer"), seen);
      assert.equal(web.connections(), before, "the page server got no connection");
    }
  });

  test("the user's own webFetchAllow opens them", async () => {
    const w = world({ reader: agent }, 'task:\n  webFetchAllow: [localhost, "127.0.0.0/8"]\n');
    callThenEcho(fetches(new URL(web.url).port));
    const r = await runXcsh(["run", "reader", "read", "--plan"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    const seen = toolResults(server.requests.at(-1)!);
    assert.equal(seen.match(/answer/g)?.length, 3, seen);
  });

  test("a bad allow entry is an error naming the key", async () => {
    const w = world({ reader: agent }, 'task:\n  webFetchAllow: ["http://x/"]\n');
    const r = await runXcsh(["run", "reader", "read"], { cwd: w.cwd, home: w.home });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /'task\.webFetchAllow' must be a list of host names/);
  });
});

describe("agent files as other ecosystems write them", () => {
  test("a Gemini CLI agent's web_fetch and write_todos, a Copilot-style mcp-servers block", async () => {
    const w = world({});
    mkdirSync(join(w.cwd, ".gemini", "agents"), { recursive: true });
    writeFileSync(
      join(w.cwd, ".gemini", "agents", "gem.md"),
      "---\nname: gem\ndescription: Gemini-shaped\nkind: local\n" +
        "tools:\n  - read_file\n  - web_fetch\n  - write_todos\n  - google_web_search\n---\nGo.\n",
    );
    mkdirSync(join(w.home, ".claude", "agents"), { recursive: true });
    writeFileSync(
      join(w.home, ".claude", "agents", "cop.md"),
      "---\nname: cop\ndescription: Copilot-shaped\ntools: ['read', 'fix/echo']\n" +
        `mcp-servers:\n  fix:\n    type: 'local'\n    command: 'node'\n    args: ['${FIXTURE}']\n` +
        "    tools: ['*']\n---\nGo.\n",
    );
    server.script([{ text: "gem done" }, { text: "cop done" }]);
    server.requests.length = 0;
    const gem = await runXcsh(["run", "gem", "go"], { cwd: w.cwd, home: w.home });
    assert.equal(gem.code, 0, gem.stderr);
    assert.deepEqual(offeredTools(server.requests[0]).sort(), [
      "read",
      "submit_result",
      "todo",
      "web_fetch",
    ]);
    const cop = await runXcsh(["run", "cop", "go"], { cwd: w.cwd, home: w.home });
    assert.equal(cop.code, 0, cop.stderr);
    const tools = offeredTools(server.requests[1]);
    assert.ok(tools.includes("mcp__fix__echo") && tools.includes("mcp__fix__crash"), tools.join());
    assert.deepEqual(await waitForNoProcessesIn(w.cwd), []);
  });
});

describe("todo through a real child", () => {
  test("TodoWrite is the todo tool; progress shows the checklist in the tool_end summary", async () => {
    const w = world({ planner: agentMd("planner", "tools:\n  - Read\n  - TodoWrite\n") });
    callThenEcho([{
      name: "todo",
      args: {
        todos: [
          { content: "Read the code", status: "completed" },
          { content: "Write the plan", status: "in_progress" },
        ],
      },
    }]);
    const r = await runXcsh(["run", "planner", "plan it", "--json"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    const seen = toolResults(server.requests.at(-1)!);
    assert.ok(seen.includes("[x] 1. Read the code"), seen);
    assert.ok(seen.includes("[~] 2. Write the plan"), seen);
    assert.match(r.stderr, /\] checklist: 1\/2 done; now: Write the plan$/m);
    callThenEcho([{
      name: "todo",
      args: { todos: [{ content: "Only step", status: "pending" }] },
    }]);
    const again = await runXcsh(["__child"], {
      cwd: w.cwd,
      home: w.home,
      stdin: planText({
        id: "t",
        agent: { name: "planner", description: "d", systemPrompt: "p", tools: ["todo"] },
        assignment: "plan",
        cwd: w.cwd,
        model: userConfig(w.home).models.default ?? null,
        config: userConfig(w.home),
      }),
    });
    const events = again.stdout.trim().split("\n").map((l) => JSON.parse(l));
    const start = events.find((e) => e.type === "tool_start" && e.tool === "todo");
    const end = events.find((e) => e.type === "tool_end" && e.tool === "todo");
    assert.deepEqual(end, {
      type: "tool_end",
      id: "t",
      callId: start.callId,
      tool: "todo",
      ok: true,
      summary: "0/1 done",
    });
  });
});

describe("web_search", () => {
  const agent = agentMd("searcher", "tools: [WebSearch, google_web_search, WebFetch]\n");
  test("offered and working when search: is configured and its key is set", async () => {
    const w = world(
      { searcher: agent },
      `search:\n  provider: brave\n  apiKeyEnv: XCSH_TEST_SEARCH_KEY\n  baseURL: "${web.url}/brave"\n`,
    );
    callThenEcho([{ name: "web_search", args: { query: "mcp servers" } }]);
    const r = await runXcsh(["run", "searcher", "search"], {
      cwd: w.cwd,
      home: w.home,
      env: { XCSH_TEST_SEARCH_KEY: "search-secret-123" },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(offeredTools(server.requests[0]).includes("web_search"));
    assert.ok(toolResults(server.requests.at(-1)!).includes("[First hit](https://one.test/)"));
    assert.equal(web.searches.at(-1)!.headers["x-subscription-token"], "search-secret-123");
  });
  test("not offered without a search provider", async () => {
    const w = world({ searcher: agent });
    server.script([{ text: "no search here" }]);
    server.requests.length = 0;
    const r = await runXcsh(["run", "searcher", "search"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    const tools = offeredTools(server.requests[0]);
    assert.ok(!tools.includes("web_search") && tools.includes("web_fetch"), tools.join(", "));
  });
  test("a bad search block is an error naming the key", async () => {
    const w = world({ searcher: agent }, "search:\n  provider: bing\n");
    const r = await runXcsh(["run", "searcher", "search"], { cwd: w.cwd, home: w.home });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /'search\.provider' must be one of brave, tavily, got "bing"/);
  });
});

describe("MCP servers' tools inside a child", {
  skip: existsSync(FS_SERVER)
    ? false
    : "needs @modelcontextprotocol/server-filesystem (npm ci installs it)",
}, () => {
  /**
   * Writes the project's .mcp.json; `approve` approves it in the user's own
   * state: with `xcsh trust` (which lists and approves its servers), or by
   * name in the user's ~/.claude/settings.json, which counts in a trusted
   * project (trusted here before the .mcp.json exists, so that only the
   * settings approve it).
   */
  async function projectMcp(w: World, approve?: "trust" | { settings: unknown }): Promise<void> {
    const trust = async () => {
      const t = await runXcsh(["trust", w.cwd], { cwd: w.cwd, home: w.home });
      assert.equal(t.code, 0, t.stderr);
    };
    if (approve !== undefined && approve !== "trust") {
      mkdirSync(join(w.home, ".claude"), { recursive: true });
      writeFileSync(join(w.home, ".claude", "settings.json"), JSON.stringify(approve.settings));
      await trust();
    }
    writeFileSync(
      join(w.cwd, ".mcp.json"),
      JSON.stringify({ mcpServers: { fs: { command: "node", args: [FS_SERVER, w.cwd] } } }),
    );
    if (approve === "trust") await trust();
  }

  test("an approved .mcp.json server (the official filesystem server) gives the agent the tools it lists", async () => {
    const w = world({ fsuser: agentMd("fsuser", "tools: Read, mcp__fs__read_text_file\n") });
    await projectMcp(w, "trust");
    callThenEcho([{
      name: "mcp__fs__read_text_file",
      args: { path: join(w.cwd, "README.md") },
    }]);
    const r = await runXcsh(["run", "fsuser", "read the readme"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    const tools = offeredTools(server.requests[0]);
    assert.ok(tools.includes("mcp__fs__read_text_file"), tools.join(", "));
    assert.ok(!tools.includes("mcp__fs__write_file"), "only the listed tool is offered");
    const schema = server.requests[0].body.tools.find(
      (t: { function: { name: string } }) => t.function.name === "mcp__fs__read_text_file",
    ).function.parameters;
    assert.ok(schema.properties.path, "the server's own input schema is offered");
    assert.ok(toolResults(server.requests.at(-1)!).includes("# demo project"));
    assert.deepEqual(await waitForNoProcessesIn(w.cwd), [], "the server ended with the child");
  });

  test("plan mode keeps only the server's read-only tools", async () => {
    const w = world({ fsuser: agentMd("fsuser", "tools: Read, mcp__fs__*\n") });
    await projectMcp(w, { settings: { enableAllProjectMcpServers: true } });
    server.script([{ text: "planned" }]);
    server.requests.length = 0;
    const r = await runXcsh(["run", "fsuser", "plan", "--plan"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    const tools = offeredTools(server.requests[0]);
    assert.ok(tools.includes("mcp__fs__read_text_file"), tools.join(", "));
    assert.ok(!tools.includes("mcp__fs__write_file") && !tools.includes("mcp__fs__edit_file"));
  });

  test("an unapproved .mcp.json server does not start; one warning says how to approve it", async () => {
    const w = world({ fsuser: agentMd("fsuser", "tools: Read, mcp__fs__*\n") });
    await projectMcp(w);
    server.script([{ text: "done without it" }]);
    server.requests.length = 0;
    const r = await runXcsh(["run", "fsuser", "go"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr.match(/MCP server 'fs'/g)?.length, 1, r.stderr);
    assert.match(
      r.stderr,
      /not approved.*xcsh trust.*enabledMcpjsonServers.*~\/\.claude\/settings\.json/,
    );
    assert.ok(!offeredTools(server.requests[0]).some((t) => t.startsWith("mcp__")));
  });

  test("a user agent's inline server: crash mid-call and no answer are tool errors; the task goes on", async () => {
    const w = world({});
    mkdirSync(join(w.home, ".claude", "agents"), { recursive: true });
    writeFileSync(
      join(w.home, ".claude", "agents", "fixer.md"),
      "---\nname: fixer\ndescription: Uses the fixture\ntools: Read, mcp__fix__*\nmcpServers:\n" +
        `  - fix:\n      type: stdio\n      command: node\n      args: ["${FIXTURE}"]\n` +
        `  - hung:\n      command: node\n      args: ["${FIXTURE}", "silent"]\n` +
        "  - ghost:\n      command: xcsh-no-such-server\n---\nUse the tools.\n",
    );
    callThenEcho([
      { name: "mcp__fix__echo", args: { text: "hi" } },
      { name: "mcp__fix__hang", args: {} },
      { name: "mcp__fix__crash", args: {} },
      { name: "mcp__fix__echo", args: { text: "again" } },
    ]);
    const r = await runXcsh(["run", "fixer", "go"], {
      cwd: w.cwd,
      home: w.home,
      env: { XCSH_MCP_TIMEOUT_MS: "1500" },
    });
    assert.equal(r.code, 0, r.stderr);
    const seen = toolResults(server.requests.at(-1)!);
    assert.ok(seen.includes("echo: hi"), seen);
    assert.ok(seen.includes("MCP server 'fix' did not answer 'hang' within 1.5 s"), seen);
    assert.ok(seen.includes("MCP server 'fix' stopped while running 'crash'"), seen);
    assert.ok(seen.includes("MCP server 'fix' is not running"), seen);
    assert.match(
      r.stderr,
      /MCP server 'hung' \(command "node"\) could not start: it did not answer/,
    );
    assert.match(
      r.stderr,
      /MCP server 'ghost' \(command "xcsh-no-such-server"\) could not start: .*was not found/,
    );
    assert.deepEqual(await waitForNoProcessesIn(w.cwd), [], "every server ended with the child");
  });

  test("a project agent's own server starts only once the project is trusted", async () => {
    const w = world({
      inl: agentMd(
        "inl",
        `tools: Read, mcp__fix__echo\nmcpServers:\n  - fix:\n      command: node\n      args: ["${FIXTURE}"]\n`,
      ),
    });
    server.script([{ text: "without it" }, { text: "with it" }]);
    server.requests.length = 0;
    const before = await runXcsh(["run", "inl", "go"], { cwd: w.cwd, home: w.home });
    assert.equal(before.code, 0, before.stderr);
    assert.match(
      before.stderr,
      /MCP server 'fix' is defined in a project agent file that is not trusted/,
    );
    assert.ok(!offeredTools(server.requests[0]).includes("mcp__fix__echo"));
    const check = await runXcsh(["agents", "check"], { cwd: w.cwd, home: w.home });
    assert.match(
      check.stdout,
      /inl\.md.*'fix' is defined in a project agent file that is not trusted/,
    );

    const trusted = await runXcsh(["trust", w.cwd], { cwd: w.cwd, home: w.home });
    assert.equal(trusted.code, 0, trusted.stderr);
    const after = await runXcsh(["run", "inl", "go"], { cwd: w.cwd, home: w.home });
    assert.equal(after.code, 0, after.stderr);
    assert.doesNotMatch(after.stderr, /not trusted/);
    assert.ok(offeredTools(server.requests[1]).includes("mcp__fix__echo"));
    const checked = await runXcsh(["agents", "check"], { cwd: w.cwd, home: w.home });
    assert.doesNotMatch(checked.stdout, /not trusted/);
  });

  test("agents check warns about an undefined server, and a malformed .mcp.json, without failing", async () => {
    const w = world({
      lost: agentMd("lost", "tools: Read, mcp__nowhere__*\nmcpServers: [alsonowhere]\n"),
      seeker: agentMd("seeker", "tools: Read, WebSearch\n"),
    });
    writeFileSync(join(w.cwd, ".mcp.json"), '{"mcpServers": {"x": {"args": []}}}');
    const r = await runXcsh(["agents", "check"], { cwd: w.cwd, home: w.home });
    assert.match(r.stdout, /lost\.md.*MCP server 'alsonowhere', which is not defined/);
    assert.match(r.stdout, /lost\.md.*MCP server 'nowhere', which is not defined/);
    assert.match(
      r.stdout,
      /\.mcp\.json.*'mcpServers\.x' needs a 'command' \(stdio\) or a 'url' \(http\)/,
    );
    assert.match(
      r.stdout,
      /seeker\.md.*web_search is not offered: no search provider is configured/,
    );
    assert.doesNotMatch(r.stdout, /\n\s+at /, "no stack trace");
  });

  test("a malformed mcpServers block in config is an error naming the key", async () => {
    const w = world(
      { fsuser: agentMd("fsuser", "tools: mcp__fs__*\n") },
      "mcpServers:\n  fs:\n    command: [node]\n",
    );
    const r = await runXcsh(["run", "fsuser", "go"], { cwd: w.cwd, home: w.home });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /'mcpServers\.fs\.command' must be a non-empty string, got a list/);
  });
});
