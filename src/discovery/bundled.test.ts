// Unit tests for the bundled agents: the set and order the README lists, their
// tools, spawns, models, thinking levels and output schemas, the cache, and
// the fatal parsing of malformed embedded definitions.

import { afterEach, describe, test } from "node:test";
import assert from "node:assert/strict";
// The named export sidesteps the CommonJS default-export interop that differs
// between Bun and Deno.
import { Ajv } from "ajv";
import {
  clearBundledAgentsCache,
  EMBEDDED_AGENT_DEFS,
  type EmbeddedAgentDef,
  loadBundledAgents,
  parseBundledAgents,
} from "./bundled.ts";
import { classifyModelPattern, type ModelPattern } from "../model/patterns.ts";
import { AgentParsingError } from "./agent-fields.ts";
import { parsedNow } from "../formats/full-parsers.ts";
import type { AgentDefinition } from "../types.ts";

const READ_ONLY = ["read", "grep", "find", "ls", "bash"];
const INHERIT: ModelPattern = { kind: "inherit" };
const role = (r: string): ModelPattern => ({ kind: "role", role: r });

interface Expected {
  name: string;
  /** undefined = all tools. */
  tools: string[] | undefined;
  spawns: AgentDefinition["spawns"];
  model: ModelPattern[];
  thinkingLevel: AgentDefinition["thinkingLevel"];
  hasOutput: boolean;
}

const EXPECTED: Expected[] = [
  {
    name: "explore",
    tools: [...READ_ONLY, "submit_result"],
    spawns: undefined,
    model: [role("smol")],
    thinkingLevel: "minimal",
    hasOutput: true,
  },
  {
    name: "plan",
    tools: [...READ_ONLY, "task", "submit_result"],
    spawns: ["explore"],
    model: [role("plan"), role("slow")],
    thinkingLevel: "high",
    hasOutput: false,
  },
  {
    name: "designer",
    tools: undefined,
    spawns: ["explore"],
    model: [INHERIT],
    thinkingLevel: undefined,
    hasOutput: false,
  },
  {
    name: "reviewer",
    tools: [...READ_ONLY, "report_finding", "task", "submit_result"],
    spawns: ["explore", "task"],
    model: [role("slow")],
    thinkingLevel: "high",
    hasOutput: true,
  },
  {
    name: "task",
    tools: undefined,
    spawns: "*",
    model: [INHERIT],
    thinkingLevel: "medium",
    hasOutput: false,
  },
  {
    name: "quick_task",
    tools: undefined,
    spawns: undefined,
    model: [role("smol")],
    thinkingLevel: "minimal",
    hasOutput: false,
  },
];

async function bundled(name: string): Promise<AgentDefinition> {
  const agent = (await loadBundledAgents()).find((a) => a.name === name);
  assert.ok(agent, `bundled agent ${name}`);
  return agent;
}

describe("loadBundledAgents", () => {
  afterEach(() => clearBundledAgentsCache());

  test("returns the six bundled agents in order", async () => {
    assert.deepEqual(
      (await loadBundledAgents()).map((a) => a.name),
      ["explore", "plan", "designer", "reviewer", "task", "quick_task"],
    );
  });

  for (const e of EXPECTED) {
    test(`${e.name}: tools, spawns, model, thinking level, output`, async () => {
      const a = await bundled(e.name);
      assert.deepEqual(a.tools, e.tools, "tools");
      assert.deepEqual(a.spawns, e.spawns, "spawns");
      assert.deepEqual((a.model ?? []).map((m) => classifyModelPattern(m)), e.model, "model");
      assert.equal(a.thinkingLevel, e.thinkingLevel, "thinkingLevel");
      assert.equal(a.output !== undefined, e.hasOutput, "output");
      assert.equal(a.unknownTools, undefined, "no unknown tools");
      assert.equal(a.source, "bundled");
      assert.equal(a.family, "bundled");
      assert.equal(a.filePath, undefined);
      assert.ok(a.description.length > 20, "a real description");
      assert.ok(a.systemPrompt.length > 500, "a real prompt");
      assert.ok(!a.systemPrompt.startsWith("---"), "frontmatter is not part of the prompt");
    });
  }

  test("task and quick_task share the body of agents/task.md", async () => {
    assert.equal((await bundled("task")).systemPrompt, (await bundled("quick_task")).systemPrompt);
    assert.notEqual((await bundled("task")).description, (await bundled("quick_task")).description);
  });

  test("explore and reviewer prompts tell the model to report through submit_result", async () => {
    for (const name of ["explore", "reviewer"]) {
      assert.match((await bundled(name)).systemPrompt, /submit_result/, name);
    }
    assert.match((await bundled("reviewer")).systemPrompt, /report_finding/);
  });

  test("is cached: the same array instance on every call", async () => {
    const first = await loadBundledAgents();
    assert.equal(await loadBundledAgents(), first);
  });

  test("clearBundledAgentsCache() makes the next call parse again", async () => {
    const first = await loadBundledAgents();
    clearBundledAgentsCache();
    const second = await loadBundledAgents();
    assert.notEqual(second, first);
    assert.deepEqual(second, first);
    assert.equal(await loadBundledAgents(), second);
  });

  test("EMBEDDED_AGENT_DEFS lists the same order", () => {
    assert.equal(EMBEDDED_AGENT_DEFS.length, 6);
    assert.deepEqual(
      EMBEDDED_AGENT_DEFS.map((d) => d.file),
      [
        "agents/explore.md",
        "agents/plan.md",
        "agents/designer.md",
        "agents/reviewer.md",
        "agents/task.md",
        "agents/task.md",
      ],
    );
  });
});

describe("bundled output schemas compile with Ajv", () => {
  const exploreValid = {
    query: "Where is the frontmatter parsed?",
    files: [{
      path: "src/discovery/frontmatter.ts",
      line_start: 1,
      line_end: 40,
      description: "parseFrontmatter",
    }],
    code: [{
      path: "src/discovery/frontmatter.ts",
      line_start: 3,
      line_end: 4,
      language: "typescript",
      content: "export function parseFrontmatter() {}",
    }],
    architecture: "One module.",
    start_here: { path: "src/discovery/frontmatter.ts", reason: "entry point" },
  };
  const reviewerValid = {
    overall_correctness: "incorrect",
    explanation: "An off-by-one in the loop.",
    confidence: 0.8,
    findings: [{
      title: "Off by one",
      body: "The loop skips the last item.",
      priority: 1,
      confidence: 0.9,
      file_path: "src/a.ts",
      line_start: 10,
      line_end: 12,
    }],
  };
  const rows: { name: string; agent: string; data: unknown; valid: boolean }[] = [
    { name: "explore: a full answer", agent: "explore", data: exploreValid, valid: true },
    {
      name: "explore: empty files and code are fine",
      agent: "explore",
      data: { ...exploreValid, files: [], code: [] },
      valid: true,
    },
    {
      name: "explore: start_here missing",
      agent: "explore",
      data: { ...exploreValid, start_here: undefined },
      valid: false,
    },
    {
      name: "explore: line_start as a string",
      agent: "explore",
      data: { ...exploreValid, files: [{ ...exploreValid.files[0], line_start: "1" }] },
      valid: false,
    },
    {
      name: "explore: code item without content",
      agent: "explore",
      data: {
        ...exploreValid,
        code: [{ path: "a", line_start: 1, line_end: 1, language: "ts" }],
      },
      valid: false,
    },
    {
      name: "reviewer: a verdict with findings",
      agent: "reviewer",
      data: reviewerValid,
      valid: true,
    },
    {
      name: "reviewer: correct, no findings",
      agent: "reviewer",
      data: { ...reviewerValid, overall_correctness: "correct", findings: [] },
      valid: true,
    },
    {
      name: "reviewer: verdict outside the enum",
      agent: "reviewer",
      data: { ...reviewerValid, overall_correctness: "mostly" },
      valid: false,
    },
    {
      name: "reviewer: confidence above 1",
      agent: "reviewer",
      data: { ...reviewerValid, confidence: 1.5 },
      valid: false,
    },
    {
      name: "reviewer: finding without file_path",
      agent: "reviewer",
      data: {
        ...reviewerValid,
        findings: [{ ...reviewerValid.findings[0], file_path: undefined }],
      },
      valid: false,
    },
  ];
  for (const row of rows) {
    test(row.name, async () => {
      const ajv = new Ajv({ allErrors: true });
      const validate = ajv.compile((await bundled(row.agent)).output as object);
      // JSON round trip drops the `undefined` fields used to delete keys above.
      const ok = validate(JSON.parse(JSON.stringify(row.data)));
      assert.equal(ok, row.valid, JSON.stringify(validate.errors));
    });
  }

  test("the schemas require every documented field", async () => {
    const explore = (await bundled("explore")).output as { required: string[] };
    assert.deepEqual(
      [...explore.required].sort(),
      ["architecture", "code", "files", "query", "start_here"],
    );
    const reviewer = (await bundled("reviewer")).output as { required: string[] };
    assert.deepEqual(
      [...reviewer.required].sort(),
      ["confidence", "explanation", "findings", "overall_correctness"],
    );
  });
});

describe("parseBundledAgents (level fatal)", () => {
  const good = "---\nname: ok\ndescription: Fine.\n---\nBody";
  const rows: { name: string; def: EmbeddedAgentDef; message: RegExp }[] = [
    {
      name: "invalid YAML",
      def: { file: "agents/bad.md", markdown: "---\nname: bad\ndescription: a: b\n---\n" },
      message: /invalid YAML/,
    },
    {
      name: "no frontmatter",
      def: { file: "agents/bad.md", markdown: "# Bad\n" },
      message: /no frontmatter/,
    },
    {
      name: "unterminated frontmatter",
      def: { file: "agents/bad.md", markdown: "---\nname: bad\ndescription: d\n" },
      message: /not closed/,
    },
    {
      name: "missing description",
      def: { file: "agents/bad.md", markdown: "---\nname: bad\n---\n" },
      message: /description/,
    },
    {
      name: "a warning is fatal too (unknown thinking level)",
      def: {
        file: "agents/bad.md",
        markdown: "---\nname: b\ndescription: d\nthinking: ultra\n---\n",
      },
      message: /ultra/,
    },
    {
      name: "injected fields without a name",
      def: { file: "agents/bad.md", fields: { description: "d" }, body: "B" },
      message: /name/,
    },
    {
      name: "injected fields with a bad thinking level",
      def: {
        file: "agents/bad.md",
        fields: { name: "b", description: "d", thinkingLevel: "ultra" },
        body: "B",
      },
      message: /ultra/,
    },
  ];
  for (const row of rows) {
    test(`${row.name}: throws AgentParsingError naming the file`, () => {
      const defs: EmbeddedAgentDef[] = [{ file: "agents/ok.md", markdown: good }, row.def];
      assert.throws(() => parsedNow(parseBundledAgents(defs)), (err: unknown) => {
        assert.ok(err instanceof AgentParsingError, `${err}`);
        assert.match(err.message, /agents\/bad\.md/);
        assert.match(err.message, row.message);
        return true;
      });
    });
  }

  test("valid definitions parse to bundled agents without a file path", () => {
    const agents = parsedNow(parseBundledAgents([
      { file: "agents/ok.md", markdown: good },
      { file: "agents/ok.md", fields: { name: "ok2", description: "d", spawns: "*" }, body: " B " },
    ]));
    assert.deepEqual(agents, [
      {
        name: "ok",
        description: "Fine.",
        systemPrompt: "Body",
        source: "bundled",
        family: "bundled",
      },
      {
        name: "ok2",
        description: "d",
        spawns: "*",
        systemPrompt: "B",
        source: "bundled",
        family: "bundled",
      },
    ]);
  });
});

test("bundled frontmatter stays on the fast path (no full YAML parse at start-up)", async () => {
  const { parseSimpleYaml } = await import("../formats/simple-yaml.ts");
  const { EMBEDDED_AGENT_DEFS } = await import("./bundled.ts");
  for (const def of EMBEDDED_AGENT_DEFS) {
    if (!("markdown" in def)) continue;
    const block = def.markdown.split("\n---\n")[0].slice("---\n".length);
    const r = parseSimpleYaml(block);
    assert.ok(r?.ok, `${def.file} needs the full YAML parser`);
  }
});
