// xcsh's tool calls as a Claude Code hook reads them, and back.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  claudeToolInput,
  claudeToolName,
  claudeToolResponse,
  matchableNames,
  xcshToolInput,
} from "./claude-tool-shape.ts";

describe("names", () => {
  test("Claude Code's names; MCP and unknown tools keep theirs", () => {
    assert.equal(claudeToolName("bash"), "Bash");
    assert.equal(claudeToolName("find"), "Glob");
    assert.equal(claudeToolName("web_fetch"), "WebFetch");
    assert.equal(claudeToolName("mcp__github__create_issue"), "mcp__github__create_issue");
    assert.deepEqual(matchableNames("task"), ["Task", "Agent"]);
  });
});

describe("inputs, both ways", () => {
  const rows: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ["bash", { command: "ls", timeout: 5 }, { command: "ls", description: "", timeout: 5000 }],
    ["read", { path: "a.ts", start_line: 3, end_line: 4 }, {
      file_path: "a.ts",
      offset: 3,
      limit: 2,
    }],
    ["write", { path: ".env", content: "X=1" }, { file_path: ".env", content: "X=1" }],
    [
      "edit",
      { path: "a.ts", old_string: "x", new_string: "y", all: true },
      { file_path: "a.ts", old_string: "x", new_string: "y", replace_all: true },
    ],
    ["find", { pattern: "*.ts", path: "src" }, { pattern: "*.ts", path: "src" }],
    [
      "grep",
      { pattern: "TODO", path: "src", glob: "*.ts", ignore_case: true, max_results: 5 },
      {
        pattern: "TODO",
        path: "src",
        glob: "*.ts",
        output_mode: "content",
        "-n": true,
        "-i": true,
        head_limit: 5,
      },
    ],
    ["skill", { name: "pdf" }, { skill: "pdf" }],
  ];
  for (const [tool, xcsh, claude] of rows) {
    test(tool, () => {
      assert.deepEqual(claudeToolInput(tool, xcsh), claude);
      assert.deepEqual(xcshToolInput(tool, claude), xcsh);
    });
  }
  test("edit without all says replace_all false; read without a range has none", () => {
    assert.equal(
      (claudeToolInput("edit", { path: "a", old_string: "", new_string: "" }) as {
        replace_all: boolean;
      }).replace_all,
      false,
    );
    assert.deepEqual(claudeToolInput("read", { path: "a" }), { file_path: "a" });
  });
  test("task: Claude Code's fields beside the call's own", () => {
    const x = { agent: "explore", tasks: [{ id: "a", description: "look", assignment: "Find X" }] };
    const c = claudeToolInput("task", x) as Record<string, unknown>;
    assert.equal(c.subagent_type, "explore");
    assert.equal(c.prompt, "Find X");
    assert.equal(c.description, "look");
    assert.deepEqual(xcshToolInput("task", c), x);
  });
});

describe("tool_response", () => {
  test("per tool, as Claude Code shapes it", () => {
    assert.deepEqual(claudeToolResponse("bash", { command: "ls" }, { ok: true, output: "a\n" }), {
      stdout: "a\n",
      stderr: "",
      interrupted: false,
      isImage: false,
    });
    assert.deepEqual(
      claudeToolResponse("write", { path: "f", content: "c" }, { ok: true, output: "wrote" }),
      { type: "create", filePath: "f", content: "c" },
    );
    assert.deepEqual(claudeToolResponse("find", {}, { ok: true, output: "a.ts\nb.ts\n" }), {
      filenames: ["a.ts", "b.ts"],
      numFiles: 2,
    });
    assert.deepEqual(claudeToolResponse("mcp__s__t", {}, { ok: true, output: "hi" }), [
      { type: "text", text: "hi" },
    ]);
  });
});
