// End-to-end tests of what xcsh sends each provider, through the built binary
// against the strict model server (`tests/support/strict-rules.ts`), which
// refuses what the real APIs refuse with their error texts. Each provider is
// the only one configured: its base URL and key (Ollama: its base URL), and
// no config file, so the bundled agents pick the provider's built-in models.
// One test per row of the provider-contracts findings, then every bundled
// agent to a result on each provider.
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { type RunResult, runXcsh } from "../support/cli.ts";
import { modelHarness, type Responder } from "../support/harness.ts";
import type { ModelServer, Turn } from "../support/model-server.ts";
import { EXPLORE_SAMPLE } from "../support/world.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const KEY = "sk-test-contracts-0123456789";

/** Each hosted provider configured alone, by its variables. */
const PROVIDERS = {
  anthropic: (url: string) => ({ ANTHROPIC_BASE_URL: `${url}/v1`, ANTHROPIC_API_KEY: KEY }),
  openai: (url: string) => ({ OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: KEY }),
  google: (url: string) => ({ GEMINI_BASE_URL: `${url}/v1beta`, GEMINI_API_KEY: KEY }),
  ollama: (url: string) => ({ OLLAMA_BASE_URL: `${url}/v1` }),
} as const;
type Provider = keyof typeof PROVIDERS;

/** Ollama-shaped models: one that thinks, one that cannot. */
const OLLAMA = {
  qwen3: { capabilities: ["completion", "tools", "thinking"] },
  "llama3.2": { capabilities: ["completion", "tools"] },
};

const REVIEW_SAMPLE = {
  overall_correctness: "correct",
  explanation: "Nothing is wrong.",
  confidence: 0.9,
  findings: [],
};

// The strict server of every test; it also serves the Ollama-shaped models.
const harness = modelHarness({ strict: { ollama: OLLAMA } });
const { server, respond } = harness;

/** A fresh HOME (no config unless given) and project, with project agents. */
function world(agents: Record<string, string> = {}, config?: string) {
  const w = harness.world({ agents, config: config ?? "" });
  if (!config) rmSync(join(w.home, ".xcsh", "agent", "config.yml"));
  return w;
}

/** Starts the server afresh for one run: these turns (or this responder), no
 * requests or `/api/show` models seen yet. */
function fresh(turns: Turn[] | Responder): void {
  server.script(Array.isArray(turns) ? turns : []);
  respond(Array.isArray(turns) ? undefined : turns);
  server.requests.length = 0;
  server.shown.length = 0;
}

interface Run {
  r: RunResult;
  doc: Json;
  /** What the server saw during this run. */
  server: Pick<ModelServer, "requests" | "shown">;
}

/** `xcsh run ARGS --json` with only `provider` configured, against the strict server. */
async function run(
  provider: Provider,
  args: string[],
  turns: Turn[] | Responder,
  opts: { agents?: Record<string, string>; config?: string } = {},
): Promise<Run> {
  fresh(turns);
  const { home, cwd } = world(opts.agents, opts.config);
  const r = await runXcsh(["run", ...args, "--json"], {
    cwd,
    home,
    env: { XCSH_RETRY_BASE_MS: "5", ...PROVIDERS[provider](server.url) },
  });
  let doc: Json;
  try {
    doc = JSON.parse(r.stdout);
  } catch {
    assert.fail(`not JSON (exit ${r.code}):\n${r.stdout}\n${r.stderr}`);
  }
  return { r, doc, server: { requests: [...server.requests], shown: [...server.shown] } };
}

function ok({ r, doc }: Run): Json {
  assert.equal(doc.results?.[0]?.status, "ok", `${r.stdout}\n${r.stderr}`);
  assert.equal(r.code, 0, r.stderr);
  return doc.results[0];
}

const submit = (data: unknown): Turn => ({
  toolCalls: [{ name: "submit_result", args: { result: { data } } }],
});

describe("provider contracts (strict server)", () => {
  test("row 1: explore on OpenAI's smol model (gpt-5.4-mini) sends an effort it takes", async () => {
    const res = await run("openai", ["explore", "Where is the title?"], [submit(EXPLORE_SAMPLE)]);
    ok(res);
    const body = res.server.requests[0].body;
    assert.equal(body.model, "gpt-5.4-mini");
    assert.deepEqual(body.reasoning, { effort: "low" });
  });

  test("row 2: no reasoning summary is asked for (an unverified organisation refuses it)", async () => {
    const res = await run("openai", ["plan", "Plan a change."], [{ text: "The plan." }]);
    assert.equal(ok(res).text, "The plan.");
    const body = res.server.requests[0].body;
    assert.equal(body.model, "gpt-5.5");
    assert.deepEqual(body.reasoning, { effort: "high" });
  });

  test("row 3: explore on Ollama sends one of Ollama's four values", async () => {
    const res = await run(
      "ollama",
      ["explore", "Where is the title?", "--model", "ollama/qwen3"],
      [submit(EXPLORE_SAMPLE)],
    );
    ok(res);
    assert.equal(res.server.requests[0].body.reasoning_effort, "low");
  });

  test("row 4: a model that cannot think gets no reasoning parameter (asked by /api/show)", async () => {
    const res = await run(
      "ollama",
      ["plan", "Plan a change.", "--model", "ollama/llama3.2"],
      [{ text: "Read it." }],
    );
    ok(res);
    assert.equal(res.server.requests[0].body.reasoning_effort, undefined);
    assert.deepEqual(res.server.shown, ["llama3.2"]);
  });

  test("row 5: task (medium) on Gemini 3 Pro sends a level the model takes", async () => {
    const res = await run(
      "google",
      ["task", "Do it.", "--model", "google/gemini-3-pro-preview"],
      [{ text: "Done." }],
    );
    ok(res);
    assert.deepEqual(res.server.requests[0].body.generationConfig.thinkingConfig, {
      thinkingLevel: "low",
      includeThoughts: false,
    });
  });

  test("row 7: the reminder does not force a tool while Claude thinks (no wasted call)", async () => {
    const res = await run("anthropic", ["explore", "Where is the title?"], [
      { text: "It is in the README." },
      submit(EXPLORE_SAMPLE),
    ]);
    ok(res);
    assert.equal(res.server.requests.length, 2, "one call per turn, none refused");
    assert.equal(res.server.requests[0].body.model, "claude-haiku-5-5");
    for (const req of res.server.requests) {
      assert.ok(
        !["any", "tool"].includes(req.body.tool_choice?.type),
        JSON.stringify(req.body.tool_choice),
      );
    }
    // The reminder offers submit_result alone: the call is still the only one possible.
    assert.deepEqual(res.server.requests[1].body.tools.map((t: Json) => t.name), ["submit_result"]);
  });

  test("row 8: xhigh on Claude Opus 4.1 keeps the budget below max_tokens", async () => {
    const deep = "---\nname: deep\ndescription: Thinks hard\nthinking: xhigh\n---\nThink.\n";
    const res = await run(
      "anthropic",
      ["deep", "Think.", "--model", "anthropic/claude-opus-4-1"],
      [{ text: "Thought." }],
      { agents: { deep } },
    );
    ok(res);
    const body = res.server.requests[0].body;
    assert.equal(body.thinking.type, "enabled");
    assert.ok(body.thinking.budget_tokens < body.max_tokens);
    assert.ok(body.max_tokens <= 32000);
  });

  test("row 9: on the default Claude models each level sends its own effort", async () => {
    const low = await run("anthropic", ["explore", "Where?"], [submit(EXPLORE_SAMPLE)]);
    const high = await run("anthropic", ["plan", "Plan."], [{ text: "Plan." }]);
    ok(low);
    ok(high);
    const [a, b] = [low.server.requests[0].body, high.server.requests[0].body];
    assert.deepEqual(a.thinking, { type: "adaptive" });
    assert.deepEqual(a.output_config, { effort: "low" });
    assert.deepEqual(b.thinking, { type: "adaptive" });
    assert.deepEqual(b.output_config, { effort: "high" });
  });

  test("an OpenAI-compatible server that refuses reasoning_effort: once more without it, said, and kept off", async () => {
    fresh([
      // Servers word it their own way; this one names the parameter.
      { fault: "400", message: "Unrecognized request argument supplied: reasoning_effort" },
      { toolCalls: [{ name: "ls", args: { path: "." } }] },
      { text: "Listed." },
    ]);
    const { home, cwd } = world(
      {},
      `providers:\n  box: { type: openai-compatible, baseURL: "${server.url}/v1" }\n`,
    );
    const r = await runXcsh(["run", "plan", "List.", "--model", "box/some-model", "--json"], {
      cwd,
      home,
      env: { XCSH_RETRY_BASE_MS: "5" },
    });
    const doc = JSON.parse(r.stdout);
    assert.equal(doc.results?.[0]?.status, "ok", `${r.stdout}\n${r.stderr}`);
    const sent = server.requests.map((q) => q.body.reasoning_effort);
    assert.deepEqual(sent, ["high", undefined, undefined]);
    assert.match(r.stderr, /refuses reasoning_effort; trying again without it/);
  });
});

describe("opaque tokens go back unchanged", () => {
  const cases: [Provider, string][] = [
    ["anthropic", "anthropic/claude-opus-4-1"],
    ["openai", "openai/gpt-5.5"],
    ["google", "google/gemini-3-pro-preview"],
  ];
  for (const [provider, model] of cases) {
    test(`${model}: thinking, a tool call, and the next turn`, async () => {
      const res = await run(provider, ["task", "Look.", "--model", model], [
        {
          reasoning: "Let me look.",
          // Anthropic also sends a redacted block now and then; it goes back as it came.
          ...(provider === "anthropic" ? { redactedThinking: true } : {}),
          toolCalls: [{ name: "ls", args: { path: "." } }],
        },
        { text: "Looked." },
      ]);
      assert.equal(ok(res).text, "Looked.");
      assert.equal(res.server.requests.length, 2, "no request refused");
      const second = JSON.stringify(res.server.requests[1].body);
      if (provider === "anthropic") {
        assert.match(second, /"type":"thinking"/);
        assert.match(second, /"type":"redacted_thinking"/);
      }
      if (provider === "openai") assert.match(second, /"encrypted_content":"/);
      if (provider === "google") assert.match(second, /"thoughtSignature":"/);
    });
  }
});

describe("what will be sent is shown", () => {
  test("agents show names the model and what its thinking level becomes there", async () => {
    const { home, cwd } = world();
    const r = await runXcsh(["agents", "show", "explore", "--json"], {
      cwd,
      home,
      env: { OPENAI_API_KEY: KEY },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout).runsOn, {
      model: "openai/gpt-5.4-mini",
      thinking: "reasoning.effort low (gpt-5.4-mini has no minimal)",
    });
    const text = await runXcsh(["agents", "show", "explore"], {
      cwd,
      home,
      env: { OPENAI_API_KEY: KEY },
    });
    assert.match(text.stdout, /^runs on: +openai\/gpt-5\.4-mini; sends reasoning\.effort low/m);
  });

  test("--dry-run says it per task", async () => {
    const { home, cwd } = world();
    const r = await runXcsh([
      "run",
      "task",
      "--dry-run",
      "--model",
      "google/gemini-3-pro-preview",
      "x",
    ], {
      cwd,
      home,
      env: { GEMINI_API_KEY: KEY },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      JSON.parse(r.stdout).tasks[0].thinking,
      "thinkingConfig.thinkingLevel low (gemini-3-pro-preview has no medium)",
    );
    assert.match(r.stderr, /thinking: thinkingConfig\.thinkingLevel low/);
  });
});

describe("OpenAI-compatible servers that refuse an optional parameter", () => {
  test("stream_options: once more without it, then never again in the task", async () => {
    fresh([
      { fault: "400", message: "Unrecognized request argument supplied: stream_options" },
      { toolCalls: [{ name: "ls", args: { path: "." } }] },
      { text: "Listed." },
    ]);
    const { home, cwd } = world(
      {},
      `providers:\n  box: { type: openai-compatible, baseURL: "${server.url}/v1" }\n`,
    );
    const r = await runXcsh(["run", "task", "List.", "--model", "box/m", "--json"], {
      cwd,
      home,
      env: { XCSH_RETRY_BASE_MS: "5" },
    });
    assert.equal(JSON.parse(r.stdout).results?.[0]?.status, "ok", `${r.stdout}\n${r.stderr}`);
    assert.deepEqual(
      server.requests.map((q) => q.body.stream_options !== undefined),
      [true, false, false],
    );
    assert.match(r.stderr, /refuses stream_options/);
  });

  test("a 400 naming no optional parameter is not retried", async () => {
    fresh([{ fault: "400", message: "model 'm' not found" }, { text: "never" }]);
    const { home, cwd } = world(
      {},
      `providers:\n  box: { type: openai-compatible, baseURL: "${server.url}/v1" }\n`,
    );
    const r = await runXcsh(["run", "task", "List.", "--model", "box/m", "--json"], {
      cwd,
      home,
      env: { XCSH_RETRY_BASE_MS: "5" },
    });
    assert.equal(r.code, 1);
    assert.equal(server.requests.length, 1);
  });
});

describe("every bundled agent to a result, one provider at a time", () => {
  const AGENTS: [string, Turn][] = [
    ["explore", submit(EXPLORE_SAMPLE)],
    ["plan", { text: "The plan." }],
    ["designer", { text: "Designed." }],
    ["reviewer", submit(REVIEW_SAMPLE)],
    ["task", { text: "Done." }],
    ["quick_task", { text: "Done." }],
  ];
  const cases: [Provider, string[]][] = [
    ["anthropic", []],
    ["openai", []],
    ["google", []],
    ["ollama", ["--model", "ollama/llama3.2"]],
  ];
  for (const [provider, extra] of cases) {
    test(`${provider}${extra.length ? ` (${extra[1]})` : ""}`, async () => {
      for (const [agent, turn] of AGENTS) {
        const res = await run(provider, [agent, "Go.", ...extra], [turn]);
        const result = ok(res);
        assert.ok(result.data !== undefined || result.text, `${agent}: ${JSON.stringify(result)}`);
      }
    });
  }
});
