import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { restrictAgent, trustNeeds } from "./agent-trust.ts";
import type { AgentDefinition } from "../types.ts";

const agent = (fields: Partial<AgentDefinition>): AgentDefinition => ({
  name: "explore",
  description: "d",
  systemPrompt: "",
  source: "project",
  family: "claude",
  filePath: "/p/.claude/agents/explore.md",
  ...fields,
});
const limits = { trusted: false, sandbox: "workspace-write", timeout: 600, maxTurns: 50 } as const;

describe("restrictAgent", () => {
  test("an untrusted project agent's looser sandbox is ignored with one warning naming file and field", () => {
    const r = restrictAgent(agent({ sandbox: "off" }), limits);
    assert.equal(r.agent.sandbox, undefined);
    assert.equal(r.warning?.file, "/p/.claude/agents/explore.md");
    assert.equal(r.warning?.field, "sandbox");
    assert.match(
      r.warning!.message,
      /^agent 'explore': 'sandbox: off' \(workspace-write applies\) ignored: .*not trusted.*xcsh trust/,
    );
    const codex = restrictAgent(agent({ sandbox: "off", family: "codex" }), limits);
    assert.match(codex.warning!.message, /'sandbox_mode: off'/);
    assert.equal(codex.warning?.field, "sandbox_mode");
  });
  test("a sandbox as strict or stricter applies", () => {
    for (const sandbox of ["read-only", "workspace-write"] as const) {
      const r = restrictAgent(agent({ sandbox }), limits);
      assert.equal(r.agent.sandbox, sandbox);
      assert.equal(r.warning, undefined);
    }
    const off = restrictAgent(agent({ sandbox: "off" }), { ...limits, sandbox: "off" });
    assert.equal(off.agent.sandbox, "off", "the user's own off");
    const ws = restrictAgent(agent({ sandbox: "workspace-write" }), {
      ...limits,
      sandbox: "read-only",
    });
    assert.equal(ws.agent.sandbox, undefined);
  });
  test("limits above the user's are ignored; lower ones apply", () => {
    const high = restrictAgent(agent({ timeout: 99999, maxTurns: 1000 }), limits);
    assert.equal(high.agent.timeout, undefined);
    assert.equal(high.agent.maxTurns, undefined);
    assert.match(
      high.warning!.message,
      /'timeout: 99999' \(above task\.timeout 600\), 'maxTurns: 1000'/,
    );
    const low = restrictAgent(agent({ timeout: 30, maxTurns: 5 }), limits);
    assert.deepEqual([low.agent.timeout, low.agent.maxTurns, low.warning], [30, 5, undefined]);
  });
  test("trusted files, the user's own agents and bundled agents apply in full", () => {
    const loose = { sandbox: "off", timeout: 99999 } as const;
    for (
      const a of [
        agent(loose),
        agent({ ...loose, source: "user" }),
        agent({ ...loose, source: "bundled" }),
      ]
    ) {
      const r = restrictAgent(a, { ...limits, trusted: a.source === "project" });
      assert.equal(r.agent, a);
      assert.equal(r.warning, undefined);
    }
  });
});

test("trustNeeds names what could start a program or loosen a setting", () => {
  assert.deepEqual(trustNeeds(agent({})), []);
  assert.deepEqual(trustNeeds(agent({ sandbox: "read-only", mcpServers: [{ name: "gh" }] })), []);
  assert.deepEqual(
    trustNeeds(agent({
      sandbox: "off",
      timeout: 5,
      maxTurns: 3,
      mcpServers: [{ name: "db", definition: { type: "stdio", command: "x", args: [], env: {} } }],
    })),
    ["mcpServers.db", "sandbox: off", "timeout", "maxTurns"],
  );
});

test("trustNeeds names accept when the file's checks run commands", () => {
  const base: AgentDefinition = {
    name: "a",
    description: "d",
    systemPrompt: "",
    source: "project",
    family: "xcsh",
  };
  assert.deepEqual(
    trustNeeds({ ...base, accept: [{ kind: "cmd", name: "t", cmd: "npm test" }] }),
    ["accept"],
  );
  assert.deepEqual(
    trustNeeds({ ...base, accept: [{ kind: "file", name: "f", file: "out.txt" }] }),
    [],
    "a check that starts nothing needs no trust",
  );
});
