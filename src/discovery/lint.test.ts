// Unit tests for `xcsh agents check` severities (lintAgentFiles): a file that
// does not load, an unknown tool, a dropped field and a name defined twice in
// one folder are errors; YAML read by the key: value fallback is only a
// warning when the file still loads. Names shared across folders are normal
// shadowing, not a lint problem.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { type FileOutcome, lintAgentFiles } from "./lint.ts";
import type { AgentDefinition } from "../types.ts";

function agent(name: string, extra: Partial<AgentDefinition> = {}): AgentDefinition {
  return { name, description: "d", systemPrompt: "", source: "user", family: "claude", ...extra };
}

describe("lintAgentFiles", () => {
  test("a clean set: no diagnostics", () => {
    const r = lintAgentFiles([
      { path: "/a/x.md", agent: agent("x"), warnings: [] },
      { path: "/b/x.md", agent: agent("x"), warnings: [] }, // another folder: shadowing
    ]);
    assert.deepEqual(r, { diagnostics: [], errors: 0, warnings: 0 });
  });

  test("severities of each kind of problem", () => {
    const files: FileOutcome[] = [
      {
        path: "/a/fallback.md",
        agent: agent("fallback"),
        warnings: [{
          level: "warning",
          file: "/a/fallback.md",
          message: "invalid YAML frontmatter (x); read as plain 'key: value' lines",
        }],
      },
      {
        path: "/a/broken-fallback.md",
        warnings: [{
          level: "warning",
          file: "/a/broken-fallback.md",
          message: "invalid YAML frontmatter (x); read as plain 'key: value' lines",
        }, {
          level: "warning",
          file: "/a/broken-fallback.md",
          field: "name",
          message: "skipped: missing required field 'name'",
        }],
      },
      {
        path: "/a/thinking.md",
        agent: agent("thinking"),
        warnings: [{
          level: "warning",
          file: "/a/thinking.md",
          field: "thinking",
          message: 'unknown thinking level "extreme" ignored',
        }],
      },
      {
        path: "/a/tools.md",
        agent: agent("tools", { tools: ["read", "submit_result"], unknownTools: ["Frob"] }),
        warnings: [],
      },
      {
        path: "/a/nofile.md",
        agent: agent("nofile"),
        warnings: [{ level: "warning", message: "a diagnostic without a file" }],
      },
    ];
    const r = lintAgentFiles(files);
    assert.deepEqual(r.diagnostics.map((d) => [d.level, d.file, d.field]), [
      ["warning", "/a/fallback.md", undefined],
      ["error", "/a/broken-fallback.md", undefined],
      ["error", "/a/broken-fallback.md", "name"],
      ["error", "/a/thinking.md", "thinking"],
      ["error", "/a/tools.md", "tools"],
      ["error", "/a/nofile.md", undefined],
    ]);
    assert.match(r.diagnostics[4].message, /unknown tool name\(s\) Frob/);
    assert.equal(r.errors, 5);
    assert.equal(r.warnings, 1);
  });

  test("two files of one folder with the same name: the second is an error naming the first", () => {
    const r = lintAgentFiles([
      { path: "/a/dup-a.md", agent: agent("dup"), warnings: [] },
      { path: "/b/dup.md", agent: agent("dup"), warnings: [] },
      { path: "/a/dup-b.md", agent: agent("dup"), warnings: [] },
      { path: "/a/Dup.md", agent: agent("Dup"), warnings: [] }, // case differs: another name
      { path: "/a/dup-c.md", agent: agent("dup"), warnings: [] },
    ]);
    assert.deepEqual(r.diagnostics.map((d) => [d.level, d.file, d.field]), [
      ["error", "/a/dup-b.md", "name"],
      ["error", "/a/dup-c.md", "name"],
    ]);
    for (const d of r.diagnostics) assert.match(d.message, /already defined by \/a\/dup-a\.md/);
    assert.equal(r.errors, 2);
  });
});
