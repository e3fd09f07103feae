// End-to-end tests on fixtures/collections: agent files shaped like the public
// Claude Code, Codex and Gemini CLI collections (one-line descriptions full of
// <example> blocks, YAML lists of tools, MCP tool names, Codex TOML with
// gpt-5.x, Gemini agents with gemini-… models). What a user bringing such
// agents sees: a clean `agents check`, quiet discovery, model ids run on the
// provider of their family, an announced fallback when a key is missing, and
// a --dry-run that needs no model.
//
// Needs `npm run build` first (npm test runs it).

import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runXcsh, runXcshJson } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import { type Materialized, materializeFixture } from "../support/fixtures.ts";
import { EXPLORE_SAMPLE } from "../support/world.ts";
import { CLAUDE_TIERS } from "../../src/model/claude-tiers.ts";

let fx: Materialized;
let home: string;
let cwd: string;

const { server } = modelHarness({
  setup: () => {
    fx = materializeFixture("collections");
    home = join(fx.root, "home");
    cwd = join(fx.root, "project");
  },
  teardown: () => fx.cleanup(),
});

/** Writes the user config (replacing any earlier one). */
function config(text: string): void {
  mkdirSync(join(home, ".xcsh", "agent"), { recursive: true });
  writeFileSync(join(home, ".xcsh", "agent", "config.yml"), text);
}

/** Every built-in provider pointed at the local server, each with a key. */
function allProviders(): Record<string, string> {
  return {
    ANTHROPIC_BASE_URL: `${server.url}/v1`,
    ANTHROPIC_API_KEY: "sk-ant-test",
    OPENAI_BASE_URL: `${server.url}/v1`,
    OPENAI_API_KEY: "sk-test",
    GEMINI_BASE_URL: `${server.url}/v1beta`,
    GEMINI_API_KEY: "g-test",
    XCSH_RETRY_BASE_MS: "20",
  };
}

/** What every command but `agents check` and `doctor` says of the fixture's one doubtful file. */
const SUMMARY = "xcsh: 1 agent file has warnings (xcsh agents check)\n";

const NAMES = [
  "code-reviewer",
  "doc-writer",
  "planner",
  "test-author",
  "web-researcher",
  "refactorer",
  "security-auditor",
  "changelog-writer",
  "codebase-investigator",
];

describe("agent collections: discovery and checks", () => {
  before(() => config("models: {}\n"));

  test("every name and description is read, quietly: one summary line on stderr", async () => {
    const { result, json } = await runXcshJson<
      { agents: { name: string; description: string; tools?: string[]; model?: string[] }[] }
    >(["agents", "--json"], { home, cwd });
    assert.equal(result.code, 0);
    assert.deepEqual(json.agents.map((a) => a.name).slice(0, NAMES.length), NAMES);
    const reviewer = json.agents.find((a) => a.name === "code-reviewer")!;
    assert.match(
      reviewer.description,
      /^Use this agent right after a change is written.*<\/example>$/,
    );
    assert.deepEqual(reviewer.tools, [
      "read",
      "grep",
      "find",
      "bash",
      "web_fetch",
      "todo",
      "submit_result",
    ]);
    assert.deepEqual((reviewer as { unknownTools?: string[] }).unknownTools, ["NotebookEdit"]);
    const tests = json.agents.find((a) => a.name === "test-author")!;
    assert.deepEqual(tests.model, ["claude-sonnet-4-20250514"]);
    assert.ok(tests.tools?.includes("edit"));
    // Only doc-writer's empty 'tools' is worth a warning; the <example> files read silently.
    assert.equal(result.stderr, SUMMARY);
    const verbose = await runXcsh(["agents", "--json", "--verbose"], { home, cwd });
    assert.match(verbose.stderr, /^xcsh: warning: .*doc-writer\.md: 'tools' is empty/);
    assert.equal(verbose.stderr.trim().split("\n").length, 1);
  });

  test("agents check exits 0: unknown tools listed once each, no parser words", async () => {
    const r = await runXcsh(["agents", "check"], { home, cwd });
    assert.equal(r.code, 0, r.stdout);
    // A tool xcsh has no counterpart for: one line, naming every agent asking for it.
    const lines = r.stdout.split("\n").filter((l) => l.includes("'NotebookEdit'"));
    assert.deepEqual(lines, [
      "warning: tools: 'NotebookEdit' is not an xcsh tool, so it grants nothing (asked for by " +
      "2 agents: code-reviewer, test-author); the agents run without it",
    ]);
    // Tools the ecosystems name differently are xcsh's own (WebFetch, TodoWrite, write_todos…);
    // web_search needs a search provider, and says so.
    for (const tool of ["WebFetch", "TodoWrite", "web_fetch", "write_todos"]) {
      assert.ok(!r.stdout.includes(`'${tool}'`), tool);
    }
    assert.match(r.stdout, /web-researcher\.md: tools: web_search is not offered/);
    assert.match(r.stdout, /codebase-investigator\.md: tools: web_search is not offered/);
    // A Claude Code file's empty list means no tools, as in Claude Code: a restriction never loosens.
    assert.match(
      r.stdout,
      /doc-writer\.md: 'tools' is empty, which in a Claude Code file means no tools/,
    );
    assert.doesNotMatch(r.stdout, /YAML|frontmatter|compact mapping|key: value/);
    assert.match(r.stdout, /^checked 9 files: 0 errors, \d+ warnings$/m);
  });

  test("agents check notes each model that will not run here, and the fallback", async () => {
    config("models:\n  default: ollama/qwen3:8b\n");
    try {
      const r = await runXcsh(["agents", "check"], { home, cwd, env: { OPENAI_API_KEY: "x" } });
      assert.equal(r.code, 0);
      assert.match(
        r.stdout,
        /^warning: model: sonnet unavailable \(ANTHROPIC_API_KEY not set\); using ollama\/qwen3:8b \(1 agent: code-reviewer\)$/m,
      );
      assert.match(
        r.stdout,
        /^warning: model: gemini-2\.5-pro unavailable \(GEMINI_API_KEY not set\); using ollama\/qwen3:8b/m,
      );
      assert.doesNotMatch(
        r.stdout,
        /gpt-5/,
        "OPENAI_API_KEY is set: the Codex agents run as written",
      );
    } finally {
      config("models: {}\n");
    }
  });
});

describe("agent collections: doctor", () => {
  test("doctor warns when no model at all is usable, and not once a key is set", async () => {
    config("models: {}\n");
    const bare = await runXcsh(["doctor"], { home, cwd });
    assert.equal(bare.code, 0);
    assert.match(bare.stdout, /^warning: no model is usable here: .*ANTHROPIC_API_KEY/m);
    const json = await runXcshJson<{ noUsableModel?: string }>(["doctor", "--json"], { home, cwd });
    assert.match(json.json.noUsableModel ?? "", /^no model is usable here/);
    const keyed = await runXcsh(["doctor"], { home, cwd, env: { GEMINI_API_KEY: "g" } });
    assert.doesNotMatch(keyed.stdout, /no model is usable/);
    assert.match(keyed.stdout, /^ {2}google {3,}google {3,}\S+ +key from GEMINI_API_KEY$/m);
  });
});

describe("agent collections: model ids run on the provider of their family", () => {
  before(() => config("models: {}\n"));

  const rows: { agent: string; format: string; model: string; path: RegExp }[] = [
    {
      agent: "test-author",
      format: "anthropic",
      model: "claude-sonnet-4-20250514",
      path: /^\/v1\/messages$/,
    },
    {
      agent: "code-reviewer",
      format: "anthropic",
      model: CLAUDE_TIERS.sonnet.model,
      path: /^\/v1\/messages$/,
    },
    {
      agent: "security-auditor",
      format: "responses",
      model: "gpt-5.1-codex",
      path: /^\/v1\/responses$/,
    },
    {
      agent: "codebase-investigator",
      format: "google",
      model: "gemini-2.5-pro",
      path: /^\/v1beta\/models\/gemini-2\.5-pro:/,
    },
  ];
  for (const row of rows) {
    test(`${row.agent} runs on ${row.format}/${row.model}`, async () => {
      server.script([{ text: `done by ${row.agent}` }]);
      server.requests.length = 0;
      const r = await runXcsh(["run", row.agent, "go"], { home, cwd, env: allProviders() });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, `done by ${row.agent}\n`);
      assert.equal(server.requests.length, 1);
      const [req] = server.requests;
      assert.equal(req.format, row.format);
      assert.match(req.path, row.path);
      if (row.format !== "google") assert.equal(req.body.model, row.model);
      const providers: Record<string, string> = {
        google: "google",
        anthropic: "anthropic",
        responses: "openai",
      };
      const provider = providers[row.format];
      assert.match(
        r.stderr,
        new RegExp(`started on ${provider}/${row.model.replace(/\./g, "\\.")}$`, "m"),
      );
    });
  }

  test("a key alone is enough: the bundled explore runs on Anthropic's small model", async () => {
    server.script([{
      toolCalls: [{ name: "submit_result", args: { result: { data: EXPLORE_SAMPLE } } }],
    }]);
    server.requests.length = 0;
    const r = await runXcsh(["run", "explore", "--json", "where is the title?"], {
      home,
      cwd,
      env: { ANTHROPIC_BASE_URL: `${server.url}/v1`, ANTHROPIC_API_KEY: "sk-ant-test" },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout).results[0].data, EXPLORE_SAMPLE);
    assert.equal(server.requests.length, 1);
    assert.equal(server.requests[0].format, "anthropic");
    assert.equal(server.requests[0].body.model, CLAUDE_TIERS.haiku.model);
  });

  test("--dry-run shows the model each task resolves to", async () => {
    const r = await runXcshJson<{ tasks: { model: string | null; envelope: { model: string } }[] }>(
      ["run", "security-auditor", "--dry-run", "audit"],
      { home, cwd, env: { OPENAI_API_KEY: "sk-test" } },
    );
    assert.equal(r.result.code, 0, r.result.stderr);
    assert.equal(r.json.tasks[0].model, "openai/gpt-5.1-codex");
    assert.equal(r.json.tasks[0].envelope.model, "openai/gpt-5.1-codex");
    assert.match(
      r.result.stderr,
      /^xcsh: dry run: \[0-security-auditor\] would run on openai\/gpt-5\.1-codex$/m,
    );
  });
});

describe("agent collections: missing keys", () => {
  test("without the key the agent's model falls back to models.default, announced", async () => {
    config(
      `providers:\n  local: { type: openai-compatible, baseURL: "${server.url}/v1" }\n` +
        "models:\n  default: local/mock-large\n",
    );
    server.script([{ text: "reviewed" }]);
    server.requests.length = 0;
    const r = await runXcsh(["run", "code-reviewer", "look"], { home, cwd });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "reviewed\n");
    assert.match(
      r.stderr,
      /^xcsh: \[0-code-reviewer\] code-reviewer: sonnet unavailable \(ANTHROPIC_API_KEY not set\); using local\/mock-large$/m,
    );
    assert.equal(server.requests[0].body.model, "mock-large");
  });

  test("an explicit --model never falls back: the missing key is the error", async () => {
    server.requests.length = 0;
    const r = await runXcsh(["run", "code-reviewer", "--model", "claude-opus-4-1", "look"], {
      home,
      cwd,
    });
    assert.equal(r.code, 2);
    assert.equal(
      r.stderr,
      SUMMARY + "xcsh: Cannot run 'code-reviewer': ANTHROPIC_API_KEY is not set: export " +
        "ANTHROPIC_API_KEY=<your key> to use provider 'anthropic' (--model claude-opus-4-1)\n",
    );
    assert.equal(server.requests.length, 0);
  });

  test("XCSH_MODEL=local/ names what is missing, with a correct example", async () => {
    const r = await runXcsh(["run", "planner", "x"], { home, cwd, env: { XCSH_MODEL: "local/" } });
    assert.equal(r.code, 2);
    assert.equal(
      r.stderr,
      SUMMARY +
        "xcsh: Cannot run 'planner': XCSH_MODEL: 'local/' names provider 'local' but no model: " +
        "write local/MODEL, MODEL being a model the provider serves, as in ollama/qwen3:8b\n",
    );
  });

  test("no model and no key: one error lists what was tried; --dry-run still succeeds", async () => {
    config("models: {}\n");
    const r = await runXcsh(["run", "security-auditor", "audit"], { home, cwd });
    assert.equal(r.code, 2);
    assert.equal(
      r.stderr,
      SUMMARY +
        "xcsh: Cannot run 'security-auditor': no usable model for agent 'security-auditor': " +
        "tried gpt-5.1-codex → openai/gpt-5.1-codex (OPENAI_API_KEY not set); models.default " +
        "(not set, and no built-in provider has its key (ANTHROPIC_API_KEY, OPENAI_API_KEY, " +
        "GEMINI_API_KEY)). To fix: export OPENAI_API_KEY=<your key>, or export " +
        "ANTHROPIC_API_KEY=<your key>, or set models.default in " +
        "~/.xcsh/agent/config.yml (e.g. 'models.default: ollama/qwen3:8b'), or set " +
        "XCSH_MODEL=ollama/qwen3:8b, or pass --model ollama/qwen3:8b\n",
    );
    const dry = await runXcshJson<{ tasks: { model: null; modelError: string }[] }>(
      ["run", "security-auditor", "--dry-run", "audit"],
      { home, cwd },
    );
    assert.equal(dry.result.code, 0, dry.result.stderr);
    assert.equal(dry.json.tasks[0].model, null);
    assert.match(dry.json.tasks[0].modelError, /^no usable model .*OPENAI_API_KEY not set/);
    assert.match(
      dry.result.stderr,
      /^xcsh: dry run: \[0-security-auditor\] no model: no usable model/m,
    );
  });

  test("--json with no model is still one JSON document", async () => {
    config("models: {}\n");
    const r = await runXcsh(["run", "security-auditor", "--json", "audit"], { home, cwd });
    assert.equal(r.code, 2);
    const doc = JSON.parse(r.stdout);
    assert.equal(doc.version, 1);
    assert.match(doc.error, /no usable model for agent 'security-auditor'/);
  });
});

describe("agent collections: retries and results", () => {
  before(() =>
    config(
      `providers:\n  local: { type: openai-compatible, baseURL: "${server.url}/v1" }\n` +
        "models:\n  default: local/mock-large\n",
    )
  );

  test("a retry is visible in progress, and the final error states its cause once", async () => {
    server.script([{ fault: "500" }, { text: "second time lucky" }]);
    server.requests.length = 0;
    const ok = await runXcsh(["run", "planner", "x"], {
      home,
      cwd,
      env: { XCSH_RETRY_BASE_MS: "20" },
    });
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stderr, /^xcsh: \[0-planner\] retrying in \d+\.\d s: HTTP 500: .* \(1\/3\)$/m);
    server.script([{ fault: "500" }, { fault: "500" }, { fault: "500" }, { fault: "500" }]);
    const failed = await runXcsh(["run", "planner", "x"], {
      home,
      cwd,
      env: { XCSH_RETRY_BASE_MS: "20" },
    });
    assert.equal(failed.code, 1);
    const mentions = failed.stderr.split("\n").filter((l) => l.includes("model call failed"));
    assert.equal(mentions.length, 1, failed.stderr);
    assert.match(failed.stderr, /^xcsh: \[0-planner\] error after \d+\.\ds$/m);
  });

  test("a string result prints as itself, not as a quoted JSON string", async () => {
    server.script([{
      toolCalls: [{
        name: "submit_result",
        args: { result: { data: "plain words\nover two lines" } },
      }],
    }]);
    const r = await runXcsh(["run", "planner", "x"], { home, cwd });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "plain words\nover two lines\n");
  });
});

describe("MCP with a large collection", () => {
  test("the task description stays within 8 000 characters; the agents tool's pages list them all", async () => {
    const { Client } = await import("@modelcontextprotocol/sdk/client");
    const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
    const { XCSH } = await import("../support/cli.ts");
    const big = materializeFixture("collections");
    try {
      const dir = join(big.root, "project", ".claude", "agents");
      const example = '\\n\\n<example>\\nContext: a request.\\nuser: \\"Please help\\"\\n' +
        'assistant: \\"I\'ll use the agent.\\"\\n<commentary>Fits.</commentary>\\n</example>';
      for (let i = 0; i < 400; i++) {
        writeFileSync(
          join(dir, `generated-${String(i).padStart(3, "0")}.md`),
          `---\nname: generated-${i}\ndescription: Use this agent for task number ${i} of a long ` +
            `list, when the user asks for it. Examples:${example.repeat(3)}\ntools: Read, Grep\n` +
            `model: sonnet\n---\nYou are agent ${i}.\n`,
        );
      }
      const transport = new StdioClientTransport({
        command: XCSH,
        args: ["mcp"],
        cwd: join(big.root, "project"),
        env: { PATH: "/usr/bin:/bin", HOME: join(big.root, "home") },
        stderr: "pipe",
      });
      const client = new Client({ name: "xcsh-tests", version: "1.0.0" });
      await client.connect(transport);
      try {
        const { tools } = await client.listTools();
        const task = tools.find((t) => t.name === "task")!;
        const description = task.description ?? "";
        assert.ok(description.length <= 8000, `${description.length} characters`);
        const more = /^… and (\d+) more: call the `agents` tool/m.exec(description);
        assert.ok(more, description.slice(-300));
        const listed = description.split("\n").filter((l) => l.startsWith("- ")).length;
        assert.equal(listed + Number(more[1]), 400 + NAMES.length + 6);
        // The agents tool answers pages; following their cursors lists them all.
        const all: string[] = [];
        let cursor: string | undefined;
        for (let pages = 0; pages < 50; pages++) {
          const agents = await client.callTool({
            name: "agents",
            arguments: cursor ? { cursor } : {},
          });
          const page = agents.structuredContent as {
            agents: { name: string }[];
            total: number;
            nextCursor?: string;
          };
          assert.equal(page.total, 400 + NAMES.length + 6);
          all.push(...page.agents.map((a) => a.name));
          cursor = page.nextCursor;
          if (!cursor) break;
        }
        assert.equal(new Set(all).size, 400 + NAMES.length + 6);
      } finally {
        await client.close();
      }
    } finally {
      big.cleanup();
    }
  });
});
