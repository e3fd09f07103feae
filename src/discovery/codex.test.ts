// Unit tests for the Codex TOML mapping: developer_instructions →
// system prompt, model_reasoning_effort → thinking level (`none` → `off`),
// sandbox_mode "read-only" → the read-only tool set; invalid TOML is a
// reason, never an exception. The mapped keys then go through
// parseAgentFields like any frontmatter (checked here end to end too).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { codexToFields as codexOnDemand, READ_ONLY_TOOLS } from "./codex.ts";
import { parseAgentFields } from "./agent-fields.ts";
import { loadParsers, parsedNow } from "../formats/full-parsers.ts";

// These tests call the parsers synchronously; discovery loads them on demand.
await loadParsers();

/** codexToFields with the parsers loaded above. */
const codexToFields = (...a: Parameters<typeof codexOnDemand>) => parsedNow(codexOnDemand(...a));

function fieldsOf(text: string): { fields: Record<string, unknown>; body: string } {
  const r = codexToFields(text);
  assert.ok(r.ok, r.ok ? "" : r.reason);
  return { fields: r.fields, body: r.body };
}

describe("codexToFields", () => {
  test("full mapping", () => {
    const r = fieldsOf(`
name = "reviewer-x"
description = "Reviews"
model = "gpt-5-codex"
model_reasoning_effort = "high"
sandbox_mode = "read-only"
developer_instructions = """
Review carefully.
"""
`);
    assert.deepEqual(r.fields, {
      name: "reviewer-x",
      description: "Reviews",
      model: "gpt-5-codex",
      thinkingLevel: "high",
      sandbox_mode: "read-only",
      tools: [...READ_ONLY_TOOLS],
    });
    assert.equal(r.body, "Review carefully.\n");
    assert.deepEqual([...READ_ONLY_TOOLS], ["read", "grep", "find", "ls"]);
  });

  test("effort none → off; other efforts pass through for validation", () => {
    for (const [effort, level] of [["none", "off"], ["minimal", "minimal"], ["xhigh", "xhigh"]]) {
      const r = fieldsOf(`name = "a"\ndescription = "d"\nmodel_reasoning_effort = "${effort}"`);
      assert.equal(r.fields.thinkingLevel, level, effort);
    }
    const odd = fieldsOf(`name = "a"\ndescription = "d"\nmodel_reasoning_effort = "extreme"`);
    assert.equal(odd.fields.thinkingLevel, "extreme");
    const parsed = parseAgentFields(odd.fields, { file: "a.toml" });
    assert.ok(parsed.ok);
    assert.equal(parsed.value.thinkingLevel, undefined, "dropped by parseAgentFields");
    assert.deepEqual(parsed.warnings.map((w) => w.field), ["thinkingLevel"]);
  });

  test("model_verbosity passes through and becomes the agent's verbosity", () => {
    const r = fieldsOf(`name = "a"\ndescription = "d"\nmodel_verbosity = "high"`);
    assert.equal(r.fields.model_verbosity, "high");
    const parsed = parseAgentFields(r.fields, { file: "a.toml" });
    assert.ok(parsed.ok);
    assert.equal(parsed.value.verbosity, "high");
    assert.deepEqual(parsed.value.ignoredFields, undefined);
    assert.deepEqual(parsed.warnings, []);
  });

  test("other sandbox modes keep all tools and become the agent's sandbox", () => {
    for (
      const [mode, sandbox] of [["workspace-write", "workspace-write"], [
        "danger-full-access",
        "off",
      ]]
    ) {
      const r = fieldsOf(`name = "a"\ndescription = "d"\nsandbox_mode = "${mode}"`);
      assert.deepEqual(r.fields, { name: "a", description: "d", sandbox_mode: mode }, mode);
      const parsed = parseAgentFields(r.fields, { file: "a.toml" });
      assert.ok(parsed.ok);
      assert.equal(parsed.value.sandbox, sandbox);
      assert.equal(parsed.value.tools, undefined);
    }
    const bad = parseAgentFields(
      fieldsOf(`name = "a"\ndescription = "d"\nsandbox_mode = "full"`).fields,
      { file: "a.toml" },
    );
    assert.ok(!bad.ok);
    assert.equal(bad.error.field, "sandbox_mode");
    assert.equal(fieldsOf(`name = "a"\ndescription = "d"`).body, "");
  });

  test("read-only agents get submit_result appended by parseAgentFields", () => {
    const r = fieldsOf(`name = "a"\ndescription = "d"\nsandbox_mode = "read-only"`);
    const parsed = parseAgentFields(r.fields, { file: "a.toml" });
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.value.tools, ["read", "grep", "find", "ls", "submit_result"]);
  });

  test("[mcp_servers.*] tables declare MCP servers", () => {
    const r = fieldsOf(`name = "a"
description = "d"
[mcp_servers.docs]
command = "npx"
args = ["-y", "docs-mcp"]
[mcp_servers.docs.env]
LEVEL = "info"
[mcp_servers.remote]
url = "https://mcp.example.test/mcp"
bearer_token_env_var = "REMOTE_TOKEN"
[mcp_servers.off]
command = "never"
enabled = false
`);
    const parsed = parseAgentFields(r.fields, { file: "a.toml" });
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.value.mcpServers, [
      {
        name: "docs",
        definition: {
          type: "stdio",
          command: "npx",
          args: ["-y", "docs-mcp"],
          env: { LEVEL: "info" },
        },
      },
      {
        name: "remote",
        definition: {
          type: "http",
          url: "https://mcp.example.test/mcp",
          headers: { Authorization: "Bearer ${REMOTE_TOKEN}" },
        },
      },
    ]);
  });

  test("missing name is left for parseAgentFields to reject", () => {
    const r = fieldsOf(`description = "d"`);
    const parsed = parseAgentFields(r.fields, { file: "a.toml" });
    assert.ok(!parsed.ok);
    assert.equal(parsed.error.field, "name");
  });

  test("invalid TOML: a one-line reason", () => {
    const r = codexToFields(`name = "a\ndescription = "d"`);
    assert.ok(!r.ok);
    assert.equal(
      r.reason,
      "invalid TOML at line 1, column 10: control characters are not allowed in strings; " +
        'fix that line (a string needs its closing quote on the same line, or """ quotes to ' +
        "span lines)",
    );
  });

  test("developer_instructions of the wrong type is a reason", () => {
    const r = codexToFields(`name = "a"\ndescription = "d"\ndeveloper_instructions = 3`);
    assert.deepEqual(r, { ok: false, reason: "'developer_instructions' must be a string" });
  });
});
