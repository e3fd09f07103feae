// Unit tests for parseAgentFile: Markdown and Codex TOML by file name, a
// skipped file ends with its reason after its warnings, and a file that
// needs a full parser not loaded yet asks for it instead of parsing.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseAgentFile } from "./agent-file.ts";
import { forgetParsers, isNeedsParser, loadParsers, parsedNow } from "../formats/full-parsers.ts";

const project = { family: "xcsh", source: "project" } as const;
const codex = { family: "codex", source: "user" } as const;

describe("parseAgentFile", () => {
  test("a Markdown file gives its agent, labelled with its origin", () => {
    const r = parsedNow(parseAgentFile({
      path: "/p/.claude/agents/a.md",
      text: "---\nname: a\ndescription: d\n---\n\nDo it.\n",
    }, { family: "plugin", source: "user", plugin: "p@m" }));
    assert.deepEqual(r.warnings, []);
    assert.equal(r.agent?.name, "a");
    assert.equal(r.agent?.systemPrompt, "Do it.");
    assert.equal(r.agent?.family, "plugin");
    assert.equal(r.agent?.plugin, "p@m");
    assert.equal(r.agent?.filePath, "/p/.claude/agents/a.md");
  });

  test("a Markdown file without a description: its warnings, then why it was skipped", () => {
    const r = parsedNow(parseAgentFile({
      path: "/p/a.md",
      text: "---\nname: a\nthinking: ultra\n---\nx\n",
    }, project));
    assert.equal(r.agent, undefined);
    const last = r.warnings.at(-1)!;
    assert.equal(last.level, "warning");
    assert.equal(last.file, "/p/a.md");
    assert.match(last.message, /^skipped: .*description/);
  });

  test("a .toml file is Codex: the prompt is developer_instructions", () => {
    const r = parsedNow(parseAgentFile({
      path: "/h/.codex/agents/c.toml",
      text: 'name = "c"\ndescription = "d"\ndeveloper_instructions = "Be brief."\n',
    }, codex));
    assert.equal(r.agent?.name, "c");
    assert.equal(r.agent?.systemPrompt, "Be brief.");
    assert.equal(r.agent?.source, "user");
  });

  test("invalid TOML is skipped with the line to fix", async () => {
    await loadParsers();
    const r = parsedNow(parseAgentFile({ path: "/h/c.toml", text: 'name = "c' }, codex));
    assert.equal(r.agent, undefined);
    assert.deepEqual(r.warnings.length, 1);
    assert.match(r.warnings[0].message, /^skipped: invalid TOML at line 1/);
  });

  test("before the parser it needs is loaded, a file asks for it and gives nothing else", async () => {
    forgetParsers();
    try {
      const toml = parseAgentFile({
        path: "/h/c.toml",
        text: 'name = "c"\ndescription = "d"\n[notes]\nx = 1\n',
      }, codex);
      assert.ok(isNeedsParser(toml) && toml.needsParser === "toml");
      const md = parseAgentFile({
        path: "/p/a.md",
        text: "---\nname: a\ndescription: &d D\nalias: *d\n---\nx\n",
      }, project);
      assert.ok(isNeedsParser(md) && md.needsParser === "yaml");
    } finally {
      await loadParsers();
    }
  });
});
