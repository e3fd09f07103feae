// End-to-end tests of who approves a project's `.mcp.json` servers: the
// user, in the user's own state, never the repository's own
// `.claude/settings.json` / `.claude/settings.local.json`. A real HTTP
// listener on 127.0.0.1 stands for the repository's MCP endpoint and records
// the headers it receives; a stdio "server" script records its environment
// to a file. Until the user approves (`xcsh trust`), neither is reached and
// no `${VAR}` of the user's is filled in; after, both start with the keys
// their definitions name; a definition changed after trust does not start.
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runXcsh } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import { agentMd, type World } from "../support/world.ts";

const ANTHROPIC_KEY = "sk-ant-user-secret-0123456789";
const OPENAI_KEY = "sk-openai-user-secret-9876543210";

let endpoint: Server;
let endpointUrl: string;
const seen: IncomingHttpHeaders[] = [];
let w: World;

const { world } = modelHarness({
  respond: () => ({ text: "done" }),
  setup: async () => {
    endpoint = createServer((req, res) => {
      seen.push(req.headers);
      req.resume();
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => endpoint.listen(0, "127.0.0.1", resolve));
    endpointUrl = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/mcp`;
    w = world({
      agents: {
        user: agentMd("user", "tools: read, mcp__api__*, mcp__local__*\nmodel: local/mock-small\n"),
      },
    });
  },
  teardown: async () => {
    await new Promise((resolve) => endpoint.close(resolve));
  },
});

/** Where the stdio script writes the environment it was started with. */
const marker = () => join(w.root, "stdio-env.json");

function writeMcpJson(extra: Record<string, unknown> = {}): void {
  const script = join(w.root, "record-env.mjs");
  writeFileSync(
    script,
    `import { writeFileSync } from "node:fs";\n` +
      `writeFileSync(${JSON.stringify(marker())}, JSON.stringify(process.env));\n`,
  );
  writeFileSync(
    join(w.cwd, ".mcp.json"),
    JSON.stringify({
      mcpServers: {
        api: {
          type: "http",
          url: endpointUrl,
          headers: { Authorization: "Bearer ${ANTHROPIC_API_KEY}" },
        },
        local: { command: "node", args: [script], env: { TOKEN: "${OPENAI_API_KEY}" } },
        ...extra,
      },
    }),
  );
}

const run = (args: string[]) =>
  runXcsh(["run", ...args], {
    cwd: w.cwd,
    home: w.home,
    env: {
      ANTHROPIC_API_KEY: ANTHROPIC_KEY,
      OPENAI_API_KEY: OPENAI_KEY,
      XCSH_MCP_TIMEOUT_MS: "3000",
    },
  });

function reset(): void {
  seen.length = 0;
  rmSync(marker(), { force: true });
}

describe("a repository's .mcp.json", () => {
  test("approved only by the project's own .claude settings: nothing starts and no key is sent", async () => {
    writeMcpJson();
    mkdirSync(join(w.cwd, ".claude"), { recursive: true });
    writeFileSync(
      join(w.cwd, ".claude", "settings.json"),
      JSON.stringify({ enableAllProjectMcpServers: true }),
    );
    writeFileSync(
      join(w.cwd, ".claude", "settings.local.json"),
      JSON.stringify({ enabledMcpjsonServers: ["api", "local"] }),
    );
    for (const args of [["--plan", "user", "go"], ["user", "go"]]) {
      reset();
      const r = await run(args);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(seen, [], "the repository's endpoint was reached");
      assert.equal(existsSync(marker()), false, "the repository's stdio server started");
      assert.match(
        r.stderr,
        /MCP server 'api' from .*\.mcp\.json is approved only in the project's own \.claude settings.*xcsh trust/,
      );
      assert.match(r.stderr, /MCP server 'local' from .*approved only in the project's own/);
    }
  });

  test("xcsh trust lists and approves the servers; then they start with the user's keys", async () => {
    const t = await runXcsh(["trust", w.cwd], { cwd: w.cwd, home: w.home });
    assert.equal(t.code, 0, t.stderr);
    assert.match(
      t.stdout,
      /Approved MCP servers of .*\.mcp\.json:\n {2}api: http:\/\/127\.0\.0\.1:\d+\/mcp\n {2}local: node /,
    );
    reset();
    const r = await run(["--plan", "user", "go"]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(seen.length > 0, "the approved endpoint was not reached");
    assert.equal(seen[0].authorization, `Bearer ${ANTHROPIC_KEY}`);
    const env = JSON.parse(readFileSync(marker(), "utf8"));
    assert.equal(env.TOKEN, OPENAI_KEY);
    assert.equal(env.OPENAI_API_KEY, undefined, "only what the definition names");
  });

  test("a server added or changed after trust does not start until trusted again", async () => {
    writeMcpJson({
      api: {
        type: "http",
        url: endpointUrl + "/changed",
        headers: { Authorization: "Bearer ${ANTHROPIC_API_KEY}" },
      },
    });
    reset();
    const r = await run(["user", "go"]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(seen, [], "a changed definition was used");
    assert.ok(existsSync(marker()), "the unchanged server still starts");
    assert.match(
      r.stderr,
      /MCP server 'api' from .*\.mcp\.json is approved only in the project's own/,
    );
  });

  test("the user's own ~/.claude/settings.json approves in a trusted project only", async () => {
    rmSync(join(w.cwd, ".claude"), { recursive: true, force: true });
    writeMcpJson({ extra: { type: "http", url: endpointUrl + "/extra" } });
    mkdirSync(join(w.home, ".claude"), { recursive: true });
    writeFileSync(
      join(w.home, ".claude", "settings.json"),
      JSON.stringify({ enabledMcpjsonServers: ["api"] }),
    );
    reset();
    const r = await run(["user", "go"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(seen.length > 0, true, "the user's own approval did not count");
    assert.equal(seen[0].authorization, `Bearer ${ANTHROPIC_KEY}`);

    const revoke = await runXcsh(["trust", "--revoke", w.cwd], { cwd: w.cwd, home: w.home });
    assert.equal(revoke.code, 0, revoke.stderr);
    reset();
    const untrusted = await run(["user", "go"]);
    assert.equal(untrusted.code, 0, untrusted.stderr);
    assert.deepEqual(seen, [], "approved by name in a project nobody trusted");
    assert.match(untrusted.stderr, /MCP server 'api' from .*\.mcp\.json is not approved/);
  });

  test("xcsh trust --no-mcp trusts the project without approving its servers", async () => {
    rmSync(join(w.home, ".claude"), { recursive: true, force: true });
    const t = await runXcsh(["trust", "--no-mcp", w.cwd], { cwd: w.cwd, home: w.home });
    assert.equal(t.code, 0, t.stderr);
    assert.match(
      t.stdout,
      /Not approved \(--no-mcp\): the MCP servers of .*\.mcp\.json: api, local/,
    );
    reset();
    const r = await run(["user", "go"]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(seen, []);
    assert.equal(existsSync(marker()), false);
    // Now the user's own settings may approve a name.
    mkdirSync(join(w.home, ".claude"), { recursive: true });
    writeFileSync(
      join(w.home, ".claude", "settings.json"),
      JSON.stringify({ enabledMcpjsonServers: ["local"] }),
    );
    reset();
    const approved = await run(["user", "go"]);
    assert.equal(approved.code, 0, approved.stderr);
    assert.deepEqual(seen, []);
    assert.equal(existsSync(marker()), true, "the server the user approved did not start");
  });
});
