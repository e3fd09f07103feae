import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { neededServers, planMcpServers } from "./mcp-plan.ts";
import { type ProjectMcp, readProjectMcp, serverHash } from "./project-mcp.ts";
import { trustProject, trustStoreFor } from "../config/trust-store.ts";
import { defaultConfig } from "../config/validate.ts";
import type { AgentDefinition, McpServerDef } from "../types.ts";

const def = (command: string): McpServerDef => ({ type: "stdio", command, args: [], env: {} });
const agent = (fields: Partial<AgentDefinition>): AgentDefinition => ({
  name: "a",
  description: "d",
  systemPrompt: "",
  source: "project",
  family: "claude",
  filePath: "/src/app/.claude/agents/a.md",
  ...fields,
});
const project = (fields: Partial<ProjectMcp> = {}): ProjectMcp => ({
  root: "/src/app",
  file: "/src/app/.mcp.json",
  servers: {},
  approved: new Set(),
  approvedByRepository: new Set(),
  warnings: [],
  ...fields,
});

describe("neededServers", () => {
  test("declared names and tool patterns, once each", () => {
    assert.deepEqual(
      neededServers(agent({
        mcpServers: [{ name: "gh" }],
        tools: ["read", "mcp__fs__read_file", "mcp__gh__*", "mcp__db"],
      })),
      ["gh", "fs", "db"],
    );
    assert.deepEqual(neededServers(agent({})), []);
  });
});

describe("planMcpServers", () => {
  const config = { ...defaultConfig(), mcpServers: { cfg: def("cfg-cmd") } };
  test("config servers start; unknown names warn naming the agent and server", () => {
    const p = planMcpServers(agent({ tools: ["mcp__cfg__*", "mcp__nope__x"] }), {
      config,
      project: project(),
      agentTrusted: false,
    });
    assert.deepEqual(Object.keys(p.servers), ["cfg"]);
    assert.equal(p.warnings.length, 1);
    assert.match(p.warnings[0].message, /agent 'a' uses MCP server 'nope', which is not defined/);
    assert.equal(p.warnings[0].file, "/src/app/.claude/agents/a.md");
  });
  test(".mcp.json servers need approval, with one warning saying how", () => {
    const a = agent({ tools: ["mcp__pj__*"] });
    const servers = { pj: def("pj-cmd") };
    const denied = planMcpServers(a, {
      config,
      project: project({ servers }),
      agentTrusted: false,
    });
    assert.deepEqual(denied.servers, {});
    assert.equal(denied.warnings.length, 1);
    assert.equal(denied.warnings[0].file, "/src/app/.mcp.json");
    assert.match(
      denied.warnings[0].message,
      /'pj' from \/src\/app\/\.mcp\.json is not approved.*xcsh trust \/src\/app.*enabledMcpjsonServers.*~\/\.claude\/settings\.json/,
    );
    const ok = planMcpServers(a, {
      config,
      project: project({ servers, approved: new Set(["pj"]) }),
      agentTrusted: false,
    });
    assert.deepEqual(ok.servers, servers);
    assert.deepEqual(ok.warnings, []);
    const repo = planMcpServers(a, {
      config,
      project: project({ servers, approvedByRepository: new Set(["pj"]) }),
      agentTrusted: false,
    });
    assert.deepEqual(repo.servers, {});
    assert.match(repo.warnings[0].message, /approved only in the project's own \.claude settings/);
  });
  test("an inline relative command is a path from the agent file's folder", () => {
    const a = agent({
      source: "user",
      mcpServers: [{ name: "own", definition: def("./bin/own.sh") }],
    });
    const p = planMcpServers(a, { config, project: project(), agentTrusted: false });
    assert.deepEqual(p.servers, { own: def("/src/app/.claude/agents/bin/own.sh") });
  });
  test("inline definitions: a user's start, a project's need its file trusted", () => {
    const inline = { mcpServers: [{ name: "own", definition: def("own-cmd") }] };
    const user = planMcpServers(agent({ ...inline, source: "user" }), {
      config,
      project: project(),
      agentTrusted: false,
    });
    assert.deepEqual(user.servers, { own: def("own-cmd") });
    const untrusted = planMcpServers(agent(inline), {
      config,
      project: project(),
      agentTrusted: false,
    });
    assert.deepEqual(untrusted.servers, {});
    assert.match(
      untrusted.warnings[0].message,
      /defined in a project agent file that is not trusted.*xcsh trust/,
    );
    const trusted = planMcpServers(agent(inline), {
      config,
      project: project(),
      agentTrusted: true,
    });
    assert.deepEqual(trusted.servers, { own: def("own-cmd") });
    // A .mcp.json approval of the same name does not cover the agent's own definition.
    const approved = planMcpServers(agent(inline), {
      config,
      project: project({ approved: new Set(["own"]) }),
      agentTrusted: false,
    });
    assert.deepEqual(approved.servers, {});
  });
});

describe("readProjectMcp", () => {
  const root = mkdtempSync(join(tmpdir(), "xcsh-pmcp-"));
  const home = join(root, "home");
  const proj = join(root, "proj");
  const sub = join(proj, "sub");
  mkdirSync(join(proj, ".claude"), { recursive: true });
  mkdirSync(sub, { recursive: true });
  mkdirSync(home);
  after(() => rmSync(root, { recursive: true, force: true }));
  const write = (rel: string, text: string) => writeFileSync(join(proj, rel), text);

  test("the nearest .mcp.json; the settings beside it approve nothing", () => {
    write(
      ".mcp.json",
      JSON.stringify({
        mcpServers: {
          fs: { command: "npx", args: ["-y", "fs"], env: { A: "1" } },
          api: {
            type: "http",
            url: "https://api.test/mcp",
            headers: { Authorization: "Bearer ${TOKEN}" },
          },
        },
      }),
    );
    write(".claude/settings.json", JSON.stringify({ enabledMcpjsonServers: ["fs"] }));
    write(".claude/settings.local.json", JSON.stringify({ enabledMcpjsonServers: ["api"] }));
    const r = readProjectMcp(sub, home);
    assert.equal(r.file, join(proj, ".mcp.json"));
    assert.deepEqual(Object.keys(r.servers), ["fs", "api"]);
    assert.deepEqual(r.servers.api, {
      type: "http",
      url: "https://api.test/mcp",
      headers: { Authorization: "Bearer ${TOKEN}" },
    });
    assert.deepEqual([...r.approved], []);
    assert.deepEqual([...r.approvedByRepository].sort(), ["api", "fs"]);
    assert.deepEqual(r.warnings, []);
  });
  const bad: [string, string, RegExp][] = [
    ["not JSON", "{", /not valid JSON.*its MCP servers are ignored/],
    ["no mcpServers", '{"servers":{}}', /must hold \{"mcpServers"/],
    [
      "a server without command or url",
      '{"mcpServers":{"x":{"args":[]}}}',
      /'mcpServers\.x' needs a 'command' \(stdio\) or a 'url' \(http\)/,
    ],
    [
      "args not a list",
      '{"mcpServers":{"x":{"command":"a","args":"b"}}}',
      /'mcpServers\.x\.args' must be a list/,
    ],
    [
      "a bad url",
      '{"mcpServers":{"x":{"type":"http","url":"ftp://a"}}}',
      /'mcpServers\.x\.url' must be an http\(s\) URL/,
    ],
    [
      "an sse server",
      '{"mcpServers":{"x":{"type":"sse","url":"http://a"}}}',
      /sse is not supported/,
    ],
  ];
  for (const [name, text, message] of bad) {
    test(`a malformed .mcp.json (${name}) is one warning naming the file`, () => {
      write(".mcp.json", text);
      const r = readProjectMcp(proj, home);
      assert.deepEqual(r.servers, {});
      assert.equal(r.warnings.length, 1);
      assert.equal(r.warnings[0].file, join(proj, ".mcp.json"));
      assert.match(r.warnings[0].message, message);
    });
  }
  test("a .mcp.json others may write is ignored with a warning saying why", () => {
    write(".mcp.json", '{"mcpServers":{"fs":{"command":"x"}}}');
    chmodSync(join(proj, ".mcp.json"), 0o666);
    const r = readProjectMcp(proj, home);
    chmodSync(join(proj, ".mcp.json"), 0o644);
    assert.deepEqual(r.servers, {});
    assert.match(r.warnings[0].message, /writable by every user.*chmod go-w/);
  });
  test("a malformed settings file is a warning and approves nothing", () => {
    write(".mcp.json", '{"mcpServers":{}}');
    write(".claude/settings.local.json", "[");
    write(".claude/settings.json", '{"enableAllProjectMcpServers": true}');
    const r = readProjectMcp(proj, home);
    assert.deepEqual([...r.approved], []);
    assert.equal(r.warnings[0].file, join(proj, ".claude", "settings.local.json"));
  });
  test("approvals come from the user's state: xcsh trust by definition, or the user's own settings in a trusted project", () => {
    rmSync(join(proj, ".claude"), { recursive: true, force: true });
    write(
      ".mcp.json",
      JSON.stringify({
        mcpServers: { fs: { command: "./bin/fs.sh", cwd: "data" }, api: { url: "http://a/mcp" } },
      }),
    );
    const env = { XDG_STATE_HOME: join(root, "state") };
    const store = trustStoreFor(env, home)!;
    const first = readProjectMcp(sub, home, env);
    assert.deepEqual([...first.approved], []);
    // A relative command and cwd are paths from the .mcp.json's folder.
    assert.deepEqual(first.servers.fs, {
      type: "stdio",
      command: join(proj, "bin", "fs.sh"),
      cwd: join(proj, "data"),
      args: [],
      env: {},
    });

    // The user's own settings approve a name only once the project is trusted.
    mkdirSync(join(home, ".claude"), { recursive: true });
    writeFileSync(
      join(home, ".claude", "settings.json"),
      JSON.stringify({ enabledMcpjsonServers: ["fs"] }),
    );
    assert.deepEqual([...readProjectMcp(sub, home, env).approved], []);
    trustProject(store, root);
    assert.deepEqual([...readProjectMcp(sub, home, env).approved], [], "a trusted folder above");
    trustProject(store, proj);
    assert.deepEqual([...readProjectMcp(sub, home, env).approved], ["fs"]);

    // xcsh trust approves a server by its definition; a changed one is not approved.
    trustProject(store, proj, {
      mcpServers: [{
        file: join(proj, ".mcp.json"),
        name: "api",
        sha256: serverHash(first.servers.api),
      }],
    });
    assert.deepEqual([...readProjectMcp(sub, home, env).approved].sort(), ["api", "fs"]);
    write(".mcp.json", JSON.stringify({ mcpServers: { api: { url: "http://evil/mcp" } } }));
    assert.deepEqual([...readProjectMcp(sub, home, env).approved], []);

    // Disabling in the repository's settings only tightens, so it counts.
    write(".mcp.json", JSON.stringify({ mcpServers: { api: { url: "http://a/mcp" } } }));
    mkdirSync(join(proj, ".claude"), { recursive: true });
    write(".claude/settings.json", JSON.stringify({ disabledMcpjsonServers: ["api"] }));
    assert.deepEqual([...readProjectMcp(sub, home, env).approved], []);
    rmSync(join(proj, ".claude"), { recursive: true, force: true });
    rmSync(join(home, ".claude"), { recursive: true, force: true });
  });
});
