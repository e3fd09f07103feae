// Unit tests for tool-name normalisation: canonical names, the Claude, Gemini
// and Codex alias maps, case and unknown names (lists: tool-entries.test.ts).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { canonicalToolName, mcpToolName, TOOL_ALIASES } from "./tool-names.ts";
import { TOOL_NAMES } from "./tool-catalogue.ts";

describe("canonicalToolName", () => {
  const rows: [input: string, expect: string | undefined][] = [
    // Canonical names, any case
    ...TOOL_NAMES.map((t): [string, string] => [t, t]),
    ["READ", "read"],
    [" grep ", "grep"],
    // Claude Code
    ["Read", "read"],
    ["Grep", "grep"],
    ["Glob", "find"],
    ["LS", "ls"],
    ["Bash", "bash"],
    ["Edit", "edit"],
    ["MultiEdit", "edit"],
    ["Write", "write"],
    ["Task", "task"],
    ["Agent", "task"],
    // Gemini CLI
    ["read_file", "read"],
    ["read_many_files", "read"],
    ["grep_search", "grep"],
    ["search_file_content", "grep"],
    ["glob", "find"],
    ["list_directory", "ls"],
    ["run_shell_command", "bash"],
    ["replace", "edit"],
    ["write_file", "write"],
    // Codex
    ["shell", "bash"],
    ["apply_patch", "edit"],
    // Web and checklist tools (Claude, Gemini)
    ["WebFetch", "web_fetch"],
    ["web_fetch", "web_fetch"],
    ["WebSearch", "web_search"],
    ["google_web_search", "web_search"],
    ["TodoWrite", "todo"],
    ["write_todos", "todo"],
    // MCP tool names and patterns are kept as written
    ["mcp__github__create_issue", "mcp__github__create_issue"],
    ["mcp__github__*", "mcp__github__*"],
    ["mcp__GitHub", "mcp__GitHub"],
    // Unknown
    ["NotebookEdit", undefined],
    ["mcp__", undefined],
    ["", undefined],
    ["constructor", undefined],
    ["__proto__", undefined],
    ["hasOwnProperty", undefined],
  ];
  for (const [input, expect] of rows) {
    test(`${JSON.stringify(input)} → ${expect ?? "unknown"}`, () => {
      assert.equal(canonicalToolName(input), expect);
    });
  }

  test("every alias maps to a canonical tool", () => {
    for (const [alias, target] of Object.entries(TOOL_ALIASES)) {
      assert.ok((TOOL_NAMES as readonly string[]).includes(target), `${alias} → ${target}`);
      assert.equal(alias, alias.toLowerCase(), "alias keys are lower-case");
    }
  });
});

test("mcpToolName: names model APIs accept, long ones cut with a hash", () => {
  assert.equal(mcpToolName("fs", "read_file"), "mcp__fs__read_file");
  assert.equal(mcpToolName("my.server", "get data"), "mcp__my_server__get_data");
  assert.equal(mcpToolName("s", "t".repeat(100)).length, 64);
});
