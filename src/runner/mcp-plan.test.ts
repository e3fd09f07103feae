import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { neededServers, planMcpServers } from "./mcp-plan.ts";
import { type ProjectMcp, readProjectMcp } from "./project-mcp.ts";
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
  disabled: new Set(),
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
      projectTrusted: false,
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
      projectTrusted: false,
    });
    assert.deepEqual(denied.servers, {});
    assert.equal(denied.warnings.length, 1);
    assert.equal(denied.warnings[0].file, "/src/app/.mcp.json");
    assert.match(
      denied.warnings[0].message,
      /'pj' from \/src\/app\/\.mcp\.json is not approved.*enabledMcpjsonServers/,
    );
    for (const approved of ["all", new Set(["pj"])] as const) {
      const ok = planMcpServers(a, {
        config,
        project: project({ servers, approved }),
        projectTrusted: false,
      });
      assert.deepEqual(ok.servers, servers);
      assert.deepEqual(ok.warnings, []);
    }
    const disabled = planMcpServers(a, {
      config,
      project: project({ servers, approved: "all", disabled: new Set(["pj"]) }),
      projectTrusted: false,
    });
    assert.deepEqual(disabled.servers, {});
  });
  test("inline definitions: a user's start, a project's need trust or approval", () => {
    const inline = { mcpServers: [{ name: "own", definition: def("own-cmd") }] };
    const user = planMcpServers(agent({ ...inline, source: "user" }), {
      config,
      project: project(),
      projectTrusted: false,
    });
    assert.deepEqual(user.servers, { own: def("own-cmd") });
    const untrusted = planMcpServers(agent(inline), {
      config,
      project: project(),
      projectTrusted: false,
    });
    assert.deepEqual(untrusted.servers, {});
    assert.match(
      untrusted.warnings[0].message,
      /defined in a project agent file and is not approved/,
    );
    const trusted = planMcpServers(agent(inline), {
      config,
      project: project(),
      projectTrusted: true,
    });
    assert.deepEqual(trusted.servers, { own: def("own-cmd") });
    const approved = planMcpServers(agent(inline), {
      config,
      project: project({ approved: new Set(["own"]) }),
      projectTrusted: false,
    });
    assert.deepEqual(approved.servers, { own: def("own-cmd") });
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

  test("the nearest .mcp.json and the settings beside it", () => {
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
    assert.deepEqual([...(r.approved as Set<string>)].sort(), ["api", "fs"]);
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
    assert.equal(r.approved, "all");
    assert.equal(r.warnings[0].file, join(proj, ".claude", "settings.local.json"));
  });
});
