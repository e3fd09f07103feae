// Unit tests for `xcsh agents check` severities (lintAgentFiles): a file that
// does not load and a name defined twice in one folder are errors; everything
// about a file that loads (a dropped field, a lenient YAML reading) is a
// warning; unknown tools and models that will not run here are warnings
// listed once per name with the agents asking for them. Names shared across
// folders are normal shadowing, not a lint problem.

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
    const lenient = "frontmatter is not valid YAML, so it was read line by line: x. To fix: y";
    const files: FileOutcome[] = [
      {
        path: "/a/fallback.md",
        agent: agent("fallback"),
        warnings: [{ level: "warning", file: "/a/fallback.md", message: lenient }],
      },
      {
        path: "/a/broken-fallback.md",
        warnings: [{ level: "warning", file: "/a/broken-fallback.md", message: lenient }, {
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
      ["warning", "/a/thinking.md", "thinking"],
      ["warning", "/a/nofile.md", undefined],
      ["warning", undefined, "tools"],
    ]);
    assert.equal(
      r.diagnostics[5].message,
      "'Frob' is not an xcsh tool, so it grants nothing (asked for by 1 agent: tools); " +
        "the agents run without it",
    );
    assert.deepEqual(r.diagnostics[5].files, ["/a/tools.md"]);
    assert.equal(r.errors, 2);
    assert.equal(r.warnings, 4);
  });

  test("each unknown tool is listed once, with every agent asking for it", () => {
    const outcomes: FileOutcome[] = Array.from({ length: 7 }, (_, i) => ({
      path: `/a/a${i}.md`,
      agent: agent(`a${i}`, {
        unknownTools: i % 2 === 0 ? ["WebFetch", "mcp__github__create_issue"] : ["WebFetch"],
      }),
      warnings: [],
    }));
    const r = lintAgentFiles(outcomes);
    assert.equal(r.errors, 0);
    assert.deepEqual(r.diagnostics.map((d) => d.message), [
      "'WebFetch' is not an xcsh tool, so it grants nothing (asked for by 7 agents: " +
      "a0, a1, a2, a3, a4 and 2 more); the agents run without it",
      "'mcp__github__create_issue' is not an xcsh tool, so it grants nothing (asked for by " +
      "4 agents: a0, a2, a4, a6); the agents run without it",
    ]);
    assert.equal(r.diagnostics[0].files?.length, 7);
  });

  test("models that will not run here are grouped by what happens", () => {
    const outcomes: FileOutcome[] = [
      { path: "/a/s1.md", agent: agent("s1", { model: ["sonnet"] }), warnings: [] },
      { path: "/a/s2.md", agent: agent("s2", { model: ["sonnet"] }), warnings: [] },
      { path: "/a/g.md", agent: agent("g", { model: ["gpt-5"] }), warnings: [] },
      { path: "/a/none.md", agent: agent("none"), warnings: [] },
    ];
    const asked: string[] = [];
    const r = lintAgentFiles(outcomes, {
      modelProblem: (a) => {
        asked.push(a.name);
        return a.model?.[0] === "sonnet"
          ? "sonnet unavailable (ANTHROPIC_API_KEY not set); using ollama/q"
          : undefined;
      },
    });
    assert.deepEqual(asked, ["s1", "s2", "g"], "agents without a model are not asked");
    assert.deepEqual(r.diagnostics.map((d) => [d.level, d.field, d.message]), [
      [
        "warning",
        "model",
        "sonnet unavailable (ANTHROPIC_API_KEY not set); using ollama/q (2 agents: s1, s2)",
      ],
    ]);
    assert.equal(r.errors, 0);
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

describe("lintAgentFiles: fields of the agent ecosystems", () => {
  test("unused keys, missing skills (once each), and an agent that cannot run", () => {
    const r = lintAgentFiles([
      { path: "/a/a.md", agent: agent("a", { ignoredFields: ["initialPrompt"] }), warnings: [] },
      {
        path: "/a/b.md",
        agent: agent("b", { ignoredFields: ["initialPrompt"], skills: ["pdf", "nope"] }),
        warnings: [],
      },
      { path: "/a/far.md", agent: agent("far", { notRunnable: "it is remote" }), warnings: [] },
    ], { skills: new Set(["pdf"]) });
    const lines = r.diagnostics.map((d) => `${d.level} ${d.field}: ${d.message}`);
    assert.deepEqual(lines, [
      "error kind: agent 'far' cannot run: it is remote",
      "warning skills: 'nope' is no skill found here (preloaded by 1 agent: b); the agents run " +
      "without it (xcsh skills lists them)",
      "warning initialPrompt: 'initialPrompt' is not used by xcsh: a subagent's first message is " +
      "its assignment (2 agents: a, b)",
    ]);
    assert.equal(r.errors, 1);
  });
});
