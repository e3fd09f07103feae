// Entries of an agent's tools / disallowedTools as tables: names of every
// ecosystem, Agent(...) spawns, permission rules, Gemini wildcards, and the
// entries that cannot be read.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readToolEntries, splitToolList } from "./tool-entries.ts";

describe("splitToolList", () => {
  const rows: [string, unknown][] = [
    ["Read, Grep", { list: ["Read", "Grep"] }],
    ["Read, Agent(explore, reviewer), Bash(git status:*)", {
      list: ["Read", "Agent(explore, reviewer)", "Bash(git status:*)"],
    }],
    [" , Read ,, ", { list: ["Read"] }],
    ["Read, Bash(git", { error: "unbalanced parentheses in 'Bash(git'" }],
    ["Read)", { error: "unbalanced parentheses in 'Read)'" }],
  ];
  for (const [input, expected] of rows) {
    test(input, () => assert.deepEqual(splitToolList(input), expected));
  }
});

describe("readToolEntries: names", () => {
  const rows: [string, string[], string[], string[]][] = [
    ["empty", [], [], []],
    [
      "first-seen order, duplicates dropped (aliases included)",
      ["Grep", "read", "grep_search", "Read", "Glob", "find"],
      ["grep", "read", "find"],
      [],
    ],
    ["unknown names kept as written, deduplicated", ["Frob", "read", "Frob", "NotebookEdit"], [
      "read",
    ], ["Frob", "NotebookEdit"]],
    ["blank entries are skipped, names trimmed", ["  ", " bash ", ""], ["bash"], []],
    ["prototype keys grant nothing", ["constructor", "__proto__"], [], [
      "constructor",
      "__proto__",
    ]],
    ["Gemini MCP wildcards", ["mcp_*", "mcp_github_*"], ["mcp__*", "mcp__github__*"], []],
    ["Claude's Skill", ["Skill"], ["skill"], []],
  ];
  for (const [name, input, names, unknown] of rows) {
    test(name, () => {
      const r = readToolEntries(input, "tools");
      assert.deepEqual([r.names, r.unknown, r.errors], [names, unknown, []]);
    });
  }
  test("* is every tool", () => assert.equal(readToolEntries(["*"], "tools").all, true));
});

describe("readToolEntries: Agent(...) and rules", () => {
  test("Agent(a, b) and Task(c) add up; bare Agent is any", () => {
    assert.deepEqual(readToolEntries(["Agent(a, b)", "Task(c)"], "tools").spawns, ["a", "b", "c"]);
    assert.equal(readToolEntries(["Agent(a)", "Agent"], "tools").spawns, "*");
    assert.equal(readToolEntries(["Agent(*)"], "tools").spawns, "*");
  });
  test("in disallowedTools, Agent(x) names what may not be spawned; bare Agent is the tool", () => {
    const d = readToolEntries(["Agent(plan)", "Agent"], "disallowedTools");
    assert.deepEqual(d.spawns, ["plan"]);
    assert.deepEqual(d.bare, ["task"]);
  });
  test("rules: allow rules name their tool; deny rules do not grant", () => {
    const t = readToolEntries(["Bash(npm test)", "Write(*.md)"], "tools");
    assert.deepEqual(t.names, ["bash", "write"]);
    assert.deepEqual(t.rules.map((r) => [r.family, r.tool, r.pattern]), [
      ["bash", "bash", "npm test"],
      ["edit", "write", "*.md"],
    ]);
    const d = readToolEntries(["Bash(rm:*)"], "disallowedTools");
    assert.deepEqual(d.names, []);
    assert.deepEqual(d.rules, [{ text: "Bash(rm:*)", family: "bash", pattern: "rm:*" }]);
  });
  test("Bash(*) is the whole tool; Gemini's run_shell_command(git) is a prefix", () => {
    assert.deepEqual(readToolEntries(["Bash(*)"], "tools").bare, ["bash"]);
    assert.equal(readToolEntries(["run_shell_command(git)"], "tools").rules[0].pattern, "git:*");
  });
  test("WebFetch rules name hosts, international names, addresses and ranges", () => {
    const entries = [
      "WebFetch(domain:example.com)",
      "WebFetch(domain:*.example.com)",
      "WebFetch(domain:bücher.de)",
      "WebFetch(domain:127.0.0.1)",
      "WebFetch(domain:[::ffff:127.0.0.1])",
      "WebFetch(domain:::1)",
      "WebFetch(domain:10.0.0.0/8)",
    ];
    assert.deepEqual(readToolEntries(entries, "disallowedTools").errors, []);
  });
  const bad: [string, RegExp][] = [
    ["Bash()", /empty pattern/],
    ["Bash(a(b)", /unbalanced/],
    ["Agent()", /names no agent/],
    ["Frob(x)", /no tool xcsh knows/],
    ["TodoWrite(x)", /takes no rule/],
    ["WebFetch(domain:)", /empty or not a host/],
    ["WebFetch(domain:http://x/)", /not a host name or address/],
    ["WebFetch(domain:10.0.0.0/99)", /not a host name or address/],
    ["Bash(a:*b)", /may only end/],
  ];
  for (const [entry, error] of bad) {
    test(`error: ${entry}`, () => {
      const r = readToolEntries([entry], "tools");
      assert.equal(r.errors.length, 1);
      assert.match(r.errors[0], error);
    });
  }
});
