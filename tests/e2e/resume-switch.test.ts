// End-to-end tests of `xcsh run --resume --model` across providers, each with
// history the new provider refuses as it was written: Kimi/DeepSeek-style
// tool-call ids on Anthropic, an 81-character MCP-style id on OpenAI, a
// whitespace-only text block before a tool call on Anthropic, and a tool loop
// stopped by the turn limit on OpenAI continued on a budget-thinking Claude
// (and on Gemini 3, which checks thought signatures in the current turn only).
// The model server's strict rules refuse each the way the real API does; the
// resume must go through. Also the same model mid-task: a whitespace-only
// text block Claude wrote is not sent back to it.
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type RunResult, runXcsh } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import type { Turn } from "../support/model-server.ts";
import { agentMd, type World } from "../support/world.ts";

const harness = modelHarness();
const { server } = harness;

function world(): World {
  const w = harness.world({
    config: `providers:\n  local: { type: openai-compatible, baseURL: "${server.url}/v1" }\n`,
  });
  const agents = join(w.home, ".xcsh", "agent", "agents");
  mkdirSync(agents, { recursive: true });
  writeFileSync(join(agents, "worker.md"), agentMd("worker", "tools: bash, read\n"));
  writeFileSync(
    join(agents, "thinker.md"),
    agentMd("thinker", "tools: bash, read\nmaxTurns: 1\nthinkingLevel: medium\n"),
  );
  return w;
}

function xcsh(w: World, args: string[]): Promise<RunResult> {
  return runXcsh(args, {
    cwd: w.cwd,
    home: w.home,
    env: {
      ANTHROPIC_BASE_URL: `${server.url}/v1`,
      ANTHROPIC_API_KEY: "sk-ant-test",
      OPENAI_BASE_URL: `${server.url}/v1`,
      OPENAI_API_KEY: "sk-openai-test",
      GEMINI_BASE_URL: `${server.url}/v1beta`,
      GEMINI_API_KEY: "gemini-test-key",
    },
  });
}

function script(turns: Turn[]): void {
  server.script(turns);
  server.requests.length = 0;
}

function onlySession(w: World): string {
  const dir = join(w.home, ".local", "share", "xcsh", "sessions");
  const names = readdirSync(dir).filter((n) => n.endsWith(".jsonl"));
  assert.equal(names.length, 1, names.join(", "));
  return names[0].slice(0, -".jsonl".length);
}

const READ = (id?: string, text?: string): Turn => ({
  ...(text !== undefined ? { text } : {}),
  toolCalls: [{ ...(id ? { id } : {}), name: "read", args: { path: "README.md" } }],
});

/** Runs the first task on `model`, then resumes it on `target` answering "resumed fine". */
async function switched(
  w: World,
  first: { agent: string; model: string; turns: Turn[]; code?: number },
  target: string,
) {
  script(first.turns);
  const r1 = await xcsh(w, ["run", first.agent, "--model", first.model, "first task"]);
  assert.equal(r1.code, first.code ?? 0, r1.stderr);
  script([{ text: "resumed fine" }]);
  const r = await xcsh(w, [
    "run",
    "--resume",
    onlySession(w),
    "--model",
    target,
    "--json",
    "follow-up task",
  ]);
  return r;
}

// deno-lint-ignore no-explicit-any
type Json = any;
const blocks = (body: Json): Json[] =>
  body.messages.flatMap((m: Json) => Array.isArray(m.content) ? m.content : []);

describe("resume on another provider repairs what it refuses", () => {
  test("Kimi/DeepSeek-style ids (functions.read:20) resumed on Anthropic", async () => {
    const w = world();
    const r = await switched(w, {
      agent: "worker",
      model: "local/mock-large",
      turns: [READ("functions.read:20"), { text: "first answer" }],
    }, "anthropic/claude-test");
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).results[0].text, "resumed fine");
    const body = server.requests[0].body;
    const use = blocks(body).find((b) => b.type === "tool_use");
    const result = blocks(body).find((b) => b.type === "tool_result");
    assert.match(use.id, /^[a-zA-Z0-9_-]+$/);
    assert.equal(result.tool_use_id, use.id, "the call and its result stay paired");
    assert.match(JSON.stringify(body), /# demo project[^]*first answer[^]*follow-up task/);
  });

  test("an 81-character MCP-style id resumed on OpenAI", async () => {
    const w = world();
    const long = `toolu_mcp__docs-server__${"a".repeat(57)}`;
    assert.equal(long.length, 81);
    const r = await switched(w, {
      agent: "worker",
      model: "anthropic/claude-test",
      turns: [READ(long), { text: "first answer" }],
    }, "openai/gpt-5-test");
    assert.equal(r.code, 0, r.stderr);
    const input: Json[] = server.requests[0].body.input;
    const call = input.find((i) => i.type === "function_call");
    const output = input.find((i) => i.type === "function_call_output");
    assert.ok(call.call_id.length <= 64, call.call_id);
    assert.equal(output.call_id, call.call_id);
  });

  test('a qwen3-style "\\n\\n" text block before a tool call resumed on Anthropic', async () => {
    const w = world();
    const r = await switched(w, {
      agent: "worker",
      model: "local/mock-large",
      turns: [READ(undefined, "\n\n"), { text: "first answer" }],
    }, "anthropic/claude-test");
    assert.equal(r.code, 0, r.stderr);
    const texts = blocks(server.requests[0].body).filter((b) => b.type === "text");
    assert.ok(texts.length > 0);
    for (const t of texts) assert.notEqual(t.text.trim(), "", JSON.stringify(t));
  });

  test("a tool loop stopped by the turn limit on OpenAI resumed on a budget-thinking Claude", async () => {
    const w = world();
    const r = await switched(w, {
      agent: "thinker",
      model: "openai/gpt-5-test",
      turns: [READ()],
      code: 1,
    }, "anthropic/claude-sonnet-4-5");
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).results[0].text, "resumed fine");
    const body = server.requests[0].body;
    assert.match(JSON.stringify(body), /# demo project[^]*follow-up task/);
    // The turn Claude did not write carries no thinking; that request goes without.
    assert.notEqual(body.thinking?.type, "enabled");
  });

  test("a tool loop stopped by the turn limit on OpenAI resumed on Gemini 3", async () => {
    // Gemini 3 wants thought signatures on the function calls of the current
    // turn only; the follow-up assignment starts a new turn.
    const w = world();
    const r = await switched(w, {
      agent: "thinker",
      model: "openai/gpt-5-test",
      turns: [READ()],
      code: 1,
    }, "google/gemini-3-pro-preview");
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).results[0].text, "resumed fine");
  });
});

describe("the same model mid-task", () => {
  test("a whitespace-only text block Claude wrote is not sent back to it", async () => {
    const w = world();
    script([READ(undefined, "\n\n"), { text: "done" }]);
    const r = await xcsh(w, ["run", "worker", "--model", "anthropic/claude-test", "go"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(server.requests.length, 2);
    for (const b of blocks(server.requests[1].body)) {
      if (b.type === "text") assert.notEqual(b.text.trim(), "");
    }
  });

  test("a budget-thinking Claude keeps thinking through its own tool loop", async () => {
    const w = world();
    writeFileSync(
      join(w.home, ".xcsh", "agent", "agents", "deep.md"),
      agentMd("deep", "tools: bash, read\nthinkingLevel: medium\n"),
    );
    script([{ reasoning: "look first", ...READ() }, { reasoning: "now answer", text: "done" }]);
    const r = await xcsh(w, ["run", "deep", "--model", "anthropic/claude-sonnet-4-5", "go"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(server.requests[1].body.thinking?.type, "enabled");
    const assistant = server.requests[1].body.messages.find((m: Json) => m.role === "assistant");
    assert.equal(assistant.content[0]?.type, "thinking");
  });
});
