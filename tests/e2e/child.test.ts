// End-to-end tests of `xcsh __child` through the built binary against the
// scripted local model server, for all four wire formats: Anthropic Messages
// (`anthropic/…` with ANTHROPIC_BASE_URL), OpenAI chat completions (a custom
// openai-compatible provider from config.yml in a temporary HOME), OpenAI's
// Responses API (`openai/…` with OPENAI_BASE_URL) and Gemini generateContent
// (`google/…` with GEMINI_BASE_URL).
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { requireBinary, type RunResult, runXcsh } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import type { ModelServer, RecordedRequest, Turn } from "../support/model-server.ts";
import { configOf, type PlanOptions, planText, TEST_AGENT } from "../support/plan.ts";

const SECRET = "sk-test-very-secret-key-0123456789";

// deno-lint-ignore no-explicit-any
type Event = Record<string, any>;

/** A wire format and how to point the child at the server with it. */
interface Format {
  name: "anthropic" | "openai" | "responses" | "google";
  /** The `provider/model` the envelope names. */
  model: string;
  /** The `provider/model` the config's `smol` role names. */
  smol: string;
  /** config.yml text for HOME (needs the server URL). */
  config: (url: string) => string;
  env: (url: string) => Record<string, string>;
  /** The variable that holds the key. */
  keyVar: string;
  /** The base URL the child talks to (named in its errors). */
  baseURL: (url: string) => string;
  /** The model (the part after `provider/`) a recorded request asks for. */
  modelOf: (req: RecordedRequest) => string;
  /** Tool names offered in a recorded request. */
  toolNames: (body: Event) => string[];
  /** Text of the system prompt in a recorded request. */
  system: (body: Event) => string;
}

const FORMATS: Format[] = [
  {
    name: "anthropic",
    model: "anthropic/claude-test",
    smol: "anthropic/claude-smol",
    config: () => "models:\n  roles:\n    smol: anthropic/claude-smol\n",
    env: (url) => ({ ANTHROPIC_BASE_URL: `${url}/v1`, ANTHROPIC_API_KEY: SECRET }),
    keyVar: "ANTHROPIC_API_KEY",
    baseURL: (url) => `${url}/v1`,
    modelOf: (req) => req.body.model,
    toolNames: (b) => (b.tools ?? []).map((t: Event) => t.name),
    system: (b) => (b.system ?? []).map((s: Event) => s.text).join("\n"),
  },
  {
    name: "openai",
    model: "local/mock-large",
    smol: "local/mock-small",
    config: (url) =>
      `providers:\n  local: { type: openai-compatible, baseURL: "${url}/v1", apiKeyEnv: LOCAL_KEY }\n` +
      "models:\n  roles:\n    smol: local/mock-small\n",
    env: () => ({ LOCAL_KEY: SECRET }),
    keyVar: "LOCAL_KEY",
    baseURL: (url) => `${url}/v1`,
    modelOf: (req) => req.body.model,
    toolNames: (b) => (b.tools ?? []).map((t: Event) => t.function.name),
    system: (b) =>
      (b.messages ?? []).filter((m: Event) => m.role === "system")
        .map((m: Event) => m.content).join("\n"),
  },
  {
    name: "responses",
    model: "openai/gpt-5-test",
    smol: "openai/gpt-5-smol",
    config: () => "models:\n  roles:\n    smol: openai/gpt-5-smol\n",
    env: (url) => ({ OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: SECRET }),
    keyVar: "OPENAI_API_KEY",
    baseURL: (url) => `${url}/v1`,
    modelOf: (req) => req.body.model,
    toolNames: (b) => (b.tools ?? []).map((t: Event) => t.name),
    system: (b) =>
      (b.input ?? []).filter((m: Event) => m.role === "system" || m.role === "developer")
        .map((m: Event) => typeof m.content === "string" ? m.content : JSON.stringify(m.content))
        .join("\n"),
  },
  {
    name: "google",
    model: "google/gemini-test",
    smol: "google/gemini-smol",
    config: () => "models:\n  roles:\n    smol: google/gemini-smol\n",
    env: (url) => ({ GEMINI_BASE_URL: `${url}/v1beta`, GEMINI_API_KEY: SECRET }),
    keyVar: "GEMINI_API_KEY",
    baseURL: (url) => `${url}/v1beta`,
    modelOf: (req) => geminiModel(req),
    toolNames: (b) =>
      (b.tools ?? []).flatMap((t: Event) => t.functionDeclarations ?? [])
        .map((d: Event) => d.name),
    system: (b) => (b.systemInstruction?.parts ?? []).map((p: Event) => p.text).join("\n"),
  },
];

/** The model in a Gemini request's path, `/v1beta/models/{model}:{method}`. */
function geminiModel(req: RecordedRequest): string {
  const m = /^\/v1beta\/models\/([^/:]+):/.exec(req.path);
  assert.ok(m, `not a Gemini path: ${req.path}`);
  return m[1];
}

const EXPLORE_DATA = {
  query: "Where is the greeting printed?",
  files: [{ path: "hello.txt", line_start: 1, line_end: 2, description: "the greeting" }],
  code: [{ path: "hello.txt", line_start: 1, line_end: 1, language: "text", content: "hello" }],
  architecture: "A single text file.",
  start_here: { path: "hello.txt", reason: "it is the only file" },
};

let scratch = "";
let explore: Event;

const harness = modelHarness({
  setup: async () => {
    scratch = harness.scratch(mkdtempSync(join(tmpdir(), "xcsh-child-")));
    const r = await runXcsh(["agents", "show", "explore", "--json"], {
      home: join(scratch, "none"),
    });
    assert.equal(r.code, 0, r.stderr);
    explore = JSON.parse(r.stdout).agent;
    assert.equal(explore.name, "explore");
  },
});
const { server } = harness;

/** Starts the server afresh for one test: these turns and no requests seen yet. */
function fresh(turns: Turn[]): void {
  server.script(turns);
  server.requests.length = 0;
}

let counter = 0;

/** A fresh HOME and working folder (with one file). */
function dirs(config: string): { home: string; cwd: string } {
  const base = join(scratch, String(++counter));
  const home = join(base, "home");
  const cwd = join(base, "work");
  mkdirSync(join(home, ".xcsh", "agent"), { recursive: true });
  mkdirSync(cwd, { recursive: true });
  writeFileSync(join(home, ".xcsh", "agent", "config.yml"), config);
  writeFileSync(join(cwd, "hello.txt"), "hello\nworld\n");
  return { home, cwd };
}

/** A test's part of a plan; `wire` completes it with the parent's defaults. */
function envelope(cwd: string, extra: Event = {}): Event {
  return { cwd, limits: { maxTurns: 10, timeoutMs: 30_000, submitRetries: 3 }, ...extra };
}

/** The complete plan a child reads: `e` with the config the parent read from `configText`. */
function wire(e: Event, configText: string): string {
  return planText({ ...e, config: configText } as PlanOptions);
}

function events(r: RunResult): Event[] {
  const lines = r.stdout.split("\n").filter((l) => l !== "");
  return lines.map((l) => {
    try {
      return JSON.parse(l);
    } catch {
      assert.fail(`stdout line is not JSON: ${l}\nstderr: ${r.stderr}`);
    }
  });
}

function resultOf(r: RunResult): Event {
  const all = events(r);
  const results = all.filter((e) => e.type === "result");
  assert.equal(results.length, 1, `exactly one result event expected:\n${r.stdout}\n${r.stderr}`);
  assert.equal(all[all.length - 1].type, "result", "the result is the last event");
  assert.ok(!r.stdout.includes(SECRET) && !r.stderr.includes(SECRET), "the key leaked");
  return results[0];
}

interface ChildRun {
  r: RunResult;
  result: Event;
  server: ModelServer;
}

/** Runs one child against the server, started afresh with `turns`. */
async function runChild(
  f: Format,
  turns: Turn[],
  env: (f: Format, url: string, cwd: string) => { envelope: Event; env?: Record<string, string> },
): Promise<ChildRun> {
  fresh(turns);
  const config = f.config(server.url);
  const { home, cwd } = dirs(config);
  const spec = env(f, server.url, cwd);
  const r = await runXcsh(["__child"], {
    cwd,
    home,
    env: { XCSH_RETRY_BASE_MS: "5", ...f.env(server.url), ...spec.env },
    stdin: wire(spec.envelope, config),
  });
  return { r, result: resultOf(r), server };
}

for (const f of FORMATS) {
  describe(`xcsh __child (${f.name} wire format)`, () => {
    test("a tool call, then a final answer", async () => {
      const { r, result, server } = await runChild(
        f,
        [
          { text: "Reading.", toolCalls: [{ name: "read", args: { path: "hello.txt" } }] },
          { text: "It says hello world.", usage: { input: 20, output: 7 } },
        ],
        (f, _url, cwd) => ({ envelope: envelope(cwd, { model: f.model }) }),
      );
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(
        { status: result.status, text: result.text, id: result.id },
        { status: "ok", text: "It says hello world.", id: "0-test" },
      );
      const evs = events(r);
      // The test models are in no catalogue: the assumed window is said with the start.
      const provider = f.model.split("/")[0];
      assert.deepEqual(evs[0], {
        type: "start",
        id: "0-test",
        agent: "tester",
        model: f.model,
        depth: 0,
        windowNote: "its context window is unknown; assuming 128000 tokens " +
          `(set providers.${provider}.contextWindow)`,
      });
      const types = evs.map((e) => e.type);
      assert.ok(types.indexOf("tool_start") < types.indexOf("tool_end"));
      assert.deepEqual(evs.find((e) => e.type === "tool_start")?.args, { path: "hello.txt" });
      assert.equal(evs.find((e) => e.type === "tool_end")?.ok, true);
      assert.ok(evs.some((e) => e.type === "text"));
      assert.ok(evs.some((e) => e.type === "usage" && e.input === 20 && e.output === 7));
      assert.equal(server.requests.length, 2);
      // The second request carries the file's lines back to the model.
      assert.match(JSON.stringify(server.requests[1].body), /1\\thello\\n2\\tworld/);
      assert.match(f.system(server.requests[0].body), /You are a test agent\./);
    });

    test("explore's schema is satisfied on the first try", async () => {
      const { r, result, server } = await runChild(
        f,
        [{ toolCalls: [{ name: "submit_result", args: { result: { data: EXPLORE_DATA } } }] }],
        (_f, _url, cwd) => ({
          envelope: envelope(cwd, {
            model: f.smol,
            agent: explore,
            outputSchema: explore.output,
            assignment: "Where is the greeting?",
          }),
        }),
      );
      assert.equal(r.code, 0, r.stderr);
      assert.equal(result.status, "ok");
      assert.deepEqual(result.data, EXPLORE_DATA);
      assert.equal(server.requests.length, 1);
      const body = server.requests[0].body;
      // The smol role picked the model; the request offers explore's tools only.
      assert.equal(f.modelOf(server.requests[0]), f.smol.split("/")[1]);
      assert.deepEqual(f.toolNames(body).sort(), [
        "bash",
        "find",
        "grep",
        "ls",
        "read",
        "submit_result",
      ]);
      assert.match(f.system(body), /submit_result/);
      assert.match(f.system(body), /start_here/);
      // thinkingLevel minimal reaches the provider.
      if (f.name === "anthropic") {
        // claude-smol is read as a current model: adaptive thinking at its lowest effort.
        assert.deepEqual(body.thinking, { type: "adaptive" });
        assert.deepEqual(body.output_config, { effort: "low" });
      } else if (f.name === "google") {
        // gemini-smol is read as a current model: a level, clamped to what the API takes.
        assert.deepEqual(body.generationConfig.thinkingConfig, {
          thinkingLevel: "low",
          includeThoughts: false,
        });
      } else if (f.name === "responses") {
        assert.equal(body.reasoning.effort, "minimal");
      } else assert.equal(body.reasoning_effort, "minimal");
    });

    test("an invalid submission is corrected on retry", async () => {
      const { r, result, server } = await runChild(
        f,
        [
          {
            toolCalls: [{
              name: "submit_result",
              args: { result: { data: { query: "q", files: "none" } } },
            }],
          },
          { toolCalls: [{ name: "submit_result", args: { result: { data: EXPLORE_DATA } } }] },
        ],
        (_f, _url, cwd) => ({
          envelope: envelope(cwd, { model: f.smol, agent: explore, outputSchema: explore.output }),
        }),
      );
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(result.data, EXPLORE_DATA);
      assert.equal(server.requests.length, 2);
      const sent = JSON.stringify(server.requests[1].body);
      assert.match(sent, /must have required property 'code'/);
      assert.match(sent, /data\/files: must be array/);
      const ends = events(r).filter((e) => e.type === "tool_end");
      assert.deepEqual(ends.map((e) => e.ok), [false, true]);
    });

    test("invalid submissions until the limit fail the task with the errors", async () => {
      const bad = { name: "submit_result", args: { result: { data: { query: 1 } } } };
      const { r, result, server } = await runChild(
        f,
        [{ toolCalls: [bad] }, { toolCalls: [bad] }, { text: "never reached" }],
        (_f, _url, cwd) => ({
          envelope: envelope(cwd, {
            model: f.smol,
            agent: explore,
            outputSchema: explore.output,
            limits: { maxTurns: 10, timeoutMs: 30_000, submitRetries: 1 },
          }),
        }),
      );
      assert.equal(r.code, 1);
      assert.equal(result.status, "error");
      assert.match(result.error, /rejected 2 times/);
      assert.match(result.error, /data\/query: must be string/);
      assert.match(result.error, /must have required property 'files'/);
      assert.equal(server.requests.length, 2);
      assert.equal(result.data, undefined);
    });

    test("a model that never submits is reminded, then the task fails", async () => {
      const { r, result, server } = await runChild(
        f,
        [{ text: "Done, I think." }, { text: "Still done." }, { text: "Really done." }, {
          text: "unused",
        }],
        (_f, _url, cwd) => ({
          envelope: envelope(cwd, { model: f.smol, agent: explore, outputSchema: explore.output }),
        }),
      );
      assert.equal(r.code, 1);
      assert.equal(result.status, "error");
      assert.match(result.error, /without calling submit_result \(reminded 2 times\)/);
      assert.equal(result.text, "Really done.");
      assert.equal(server.requests.length, 3);
      assert.match(JSON.stringify(server.requests[1].body), /without calling `submit_result`/);
    });

    test("plan mode offers no write tools, and a call to one is refused", async () => {
      const { r, result, server } = await runChild(
        f,
        [
          { toolCalls: [{ name: "write", args: { path: "new.txt", content: "x" } }] },
          { text: "I could not write." },
        ],
        (_f, _url, cwd) => ({
          envelope: envelope(cwd, { model: f.model, planMode: true }),
          env: { XCSH_SPAWNS: "*" },
        }),
      );
      assert.equal(r.code, 0, r.stderr);
      assert.equal(result.status, "ok");
      const offered = f.toolNames(server.requests[0].body);
      for (const denied of ["edit", "write", "bash", "task"]) {
        assert.ok(!offered.includes(denied), `${denied} offered in plan mode: ${offered}`);
      }
      assert.ok(offered.includes("read") && offered.includes("submit_result"));
      const end = events(r).find((e) => e.type === "tool_end");
      assert.equal(end?.ok, false);
      assert.match(end?.summary, /unknown tool 'write'/);
    });

    test("no spawn right in the plan removes the task tool (XCSH_SPAWNS adds none)", async () => {
      const spawner = { ...TEST_AGENT, spawns: "*" };
      const { r, server } = await runChild(
        f,
        [{ text: "ok" }],
        (f, _url, cwd) => ({
          envelope: envelope(cwd, { model: f.model, agent: spawner, depthAllowsSpawn: false }),
          env: { XCSH_SPAWNS: "*" },
        }),
      );
      assert.equal(r.code, 0, r.stderr);
      const offered = f.toolNames(server.requests[0].body);
      assert.ok(!offered.includes("task"));
      assert.ok(offered.includes("bash") && offered.includes("edit"));
      // The same agent with the right in its plan: the task tool, whatever the environment says.
      const allowed = await runChild(
        f,
        [{ text: "ok" }],
        (f, _url, cwd) => ({
          envelope: envelope(cwd, { model: f.model, agent: spawner }),
          env: { XCSH_SPAWNS: "" },
        }),
      );
      assert.equal(allowed.r.code, 0, allowed.r.stderr);
      assert.ok(f.toolNames(allowed.server.requests[0].body).includes("task"));
    });

    const recoverable: [string, Turn][] = [
      ["HTTP 500", { fault: "500" }],
      ["HTTP 429 with retry-after", { fault: "429", retryAfter: 0 }],
      ["malformed SSE", { fault: "malformed-sse" }],
      ["a stream cut off mid-way", { fault: "disconnect" }],
      ["a stalled request", { fault: "stall" }],
    ];
    for (const [what, fault] of recoverable) {
      test(`${what} is retried`, async () => {
        const { r, result, server } = await runChild(
          f,
          [fault, { text: "Recovered." }],
          (f, _url, cwd) => ({
            envelope: envelope(cwd, { model: f.model }),
            env: { XCSH_MODEL_IDLE_TIMEOUT_MS: "500" },
          }),
        );
        assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
        assert.equal(result.text, "Recovered.");
        assert.equal(server.requests.length, 2);
        assert.match(r.stderr, /retry 1\/3/);
      });
    }

    test("persistent 5xx ends in an error naming provider, model and base URL", async () => {
      let url = "";
      const { r, result, server } = await runChild(
        f,
        [{ fault: "500" }, { fault: "500" }, { fault: "500" }, { fault: "500" }, { text: "no" }],
        (f, u, cwd) => {
          url = u;
          return { envelope: envelope(cwd, { model: f.model }) };
        },
      );
      assert.equal(r.code, 1);
      assert.equal(server.requests.length, 4);
      assert.ok(result.error.includes(`${f.model} at ${f.baseURL(url)}`), result.error);
      assert.match(result.error, /HTTP 500/);
      assert.match(result.error, /gave up after 4 attempts/);
    });

    test("a stall past the envelope's timeout is a named timeout error", async () => {
      const { r, result } = await runChild(
        f,
        [{ fault: "stall" }],
        (f, _url, cwd) => ({
          envelope: envelope(cwd, {
            model: f.model,
            limits: { maxTurns: 5, timeoutMs: 700, submitRetries: 3 },
          }),
        }),
      );
      assert.equal(r.code, 1);
      assert.match(result.error, /timed out after 0\.7 s/);
      assert.ok(result.error.includes(f.model));
    });

    test("a missing API key is a one-line error naming the variable", async () => {
      fresh([{ text: "unused" }]);
      const config = f.config(server.url);
      const { home, cwd } = dirs(config);
      const env = f.env(server.url);
      const variable = f.keyVar;
      delete env[variable];
      const r = await runXcsh(["__child"], {
        cwd,
        home,
        env,
        stdin: wire(envelope(cwd, { model: f.model }), config),
      });
      const result = resultOf(r);
      assert.equal(r.code, 1);
      assert.match(result.error, new RegExp(`^${variable}`));
      assert.ok(!result.error.includes("\n"));
      assert.equal(server.requests.length, 0);
    });
  });
}

describe("xcsh __child (Gemini specifics)", () => {
  const GOOGLE = FORMATS.find((f) => f.name === "google")!;

  test("events come in order and the tool round trip uses functionCall/functionResponse", async () => {
    const { r, result, server } = await runChild(
      GOOGLE,
      [
        {
          reasoning: "I should read the file.",
          text: "Reading.",
          toolCalls: [{ name: "read", args: { path: "hello.txt" } }],
        },
        { text: "It says hello world.", usage: { input: 20, output: 7 } },
      ],
      (f, _url, cwd) => ({ envelope: envelope(cwd, { model: f.model }) }),
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(result.text, "It says hello world.");
    const evs = events(r);
    // Consecutive text deltas folded into one entry, to compare the sequence.
    const seq: string[] = [];
    for (const e of evs) if (seq.at(-1) !== e.type || e.type !== "text") seq.push(e.type);
    assert.deepEqual(seq, [
      "start",
      "answering",
      "text",
      "usage",
      "tool_start",
      "tool_end",
      "text",
      "usage",
      "result",
    ]);
    // Thoughts are not text; the text deltas make up the answers.
    const texts = evs.filter((e) => e.type === "text").map((e) => e.delta).join("");
    assert.equal(texts, "Reading.It says hello world.");
    assert.equal(evs.find((e) => e.type === "tool_start")?.tool, "read");
    assert.deepEqual(evs.find((e) => e.type === "usage"), {
      type: "usage",
      id: "0-test",
      input: 10,
      output: 5,
      cacheRead: 0,
      cacheWrite: 0,
    });

    assert.equal(server.requests.length, 2);
    for (const req of server.requests) {
      assert.equal(req.format, "google");
      assert.equal(req.path, "/v1beta/models/gemini-test:streamGenerateContent");
      assert.equal(req.query, "alt=sse");
      assert.equal(req.headers["x-goog-api-key"], SECRET);
      assert.equal(req.headers.authorization, undefined);
    }
    const contents: Event[] = server.requests[1].body.contents;
    assert.deepEqual(contents.map((c) => c.role), ["user", "model", "user"]);
    assert.match(JSON.stringify(contents[0]), /Read hello\.txt and say what it contains\./);
    const call = contents[1].parts.find((p: Event) => p.functionCall)?.functionCall;
    assert.equal(call?.name, "read");
    assert.deepEqual(call?.args, { path: "hello.txt" });
    const response = contents[2].parts.find((p: Event) => p.functionResponse)?.functionResponse;
    assert.equal(response?.name, "read");
    assert.match(JSON.stringify(response), /1\\thello\\n2\\tworld/);
  });

  test("the request carries systemInstruction, functionDeclarations and the output limit", async () => {
    const { r, server } = await runChild(
      GOOGLE,
      [{ text: "ok" }],
      (f, _url, cwd) => ({ envelope: envelope(cwd, { model: f.model }), env: { XCSH_SPAWNS: "" } }),
    );
    assert.equal(r.code, 0, r.stderr);
    const body = server.requests[0].body;
    assert.equal(body.model, undefined, "Gemini names the model in the path only");
    assert.deepEqual(Object.keys(body.systemInstruction), ["parts"]);
    assert.match(GOOGLE.system(body), /You are a test agent\./);
    assert.ok(
      !JSON.stringify(body.contents).includes("You are a test agent."),
      "the system prompt is not repeated as a user turn",
    );
    const declarations: Event[] = body.tools.flatMap((t: Event) => t.functionDeclarations ?? []);
    const names = declarations.map((d) => d.name);
    for (const name of ["bash", "edit", "find", "grep", "ls", "read", "submit_result", "write"]) {
      assert.ok(names.includes(name), `${name} not offered: ${names}`);
    }
    assert.ok(!names.includes("task"), "no spawn rights, no task tool");
    assert.equal(new Set(names).size, names.length, "each tool declared once");
    for (const d of declarations) {
      assert.equal(typeof d.description, "string");
      assert.ok(d.description.length > 0, `${d.name} has no description`);
      assert.equal(d.parametersJsonSchema?.type, "object", `${d.name} has no JSON schema`);
    }
    assert.equal(body.generationConfig.maxOutputTokens, 16384);
    // The envelope sets no thinking level: no thinking options are sent.
    assert.equal(body.generationConfig.thinkingConfig, undefined);
  });

  const thinking: [string, string | undefined, Event | undefined][] = [
    ["gemini-3-pro-preview", "high", { thinkingLevel: "high", includeThoughts: false }],
    ["gemini-3-flash-preview", "low", { thinkingLevel: "low", includeThoughts: false }],
    // Gemini 3 cannot turn thinking off: its lowest level is the nearest.
    ["gemini-3-pro-preview", "off", { thinkingLevel: "low", includeThoughts: false }],
    ["gemini-2.5-flash", "medium", { thinkingBudget: 8192, includeThoughts: false }],
    ["gemini-2.5-flash", "off", { thinkingBudget: 0, includeThoughts: false }],
    ["gemini-2.5-pro", "off", undefined],
    ["gemini-3-pro-preview", "xhigh", { thinkingLevel: "high", includeThoughts: false }],
    ["gemini-2.0-flash", "xhigh", undefined],
  ];
  for (const [model, level, expected] of thinking) {
    test(`thinkingLevel ${level} on ${model} becomes generationConfig.thinkingConfig`, async () => {
      const { r, server } = await runChild(
        GOOGLE,
        [{ text: "ok" }],
        (_f, _url, cwd) => ({
          envelope: envelope(cwd, {
            model: `google/${model}`,
            modelSettings: { thinkingLevel: level },
          }),
        }),
      );
      assert.equal(r.code, 0, r.stderr);
      assert.equal(GOOGLE.modelOf(server.requests[0]), model);
      assert.deepEqual(server.requests[0].body.generationConfig.thinkingConfig, expected);
    });
  }

  test("GOOGLE_GENERATIVE_AI_BASE_URL (a bare host) and GOOGLE_GENERATIVE_AI_API_KEY work too", async () => {
    fresh([{ text: "alt names" }]);
    const { home, cwd } = dirs("");
    const r = await runXcsh(["__child"], {
      cwd,
      home,
      env: {
        GOOGLE_GENERATIVE_AI_BASE_URL: server.url,
        GOOGLE_GENERATIVE_AI_API_KEY: SECRET,
      },
      stdin: wire(envelope(cwd, { model: "google/gemini-test" }), ""),
    });
    const result = resultOf(r);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(result.text, "alt names");
    assert.equal(server.requests[0].path, "/v1beta/models/gemini-test:streamGenerateContent");
    assert.equal(server.requests[0].headers["x-goog-api-key"], SECRET);
  });

  test("a missing key names GEMINI_API_KEY and its alternative", async () => {
    const { home, cwd } = dirs("");
    const r = await runXcsh(["__child"], {
      cwd,
      home,
      env: { GEMINI_BASE_URL: "http://127.0.0.1:9/v1beta" },
      stdin: wire(envelope(cwd, { model: "google/gemini-test" }), ""),
    });
    const result = resultOf(r);
    assert.equal(r.code, 1);
    assert.equal(
      result.error,
      "GEMINI_API_KEY or GOOGLE_GENERATIVE_AI_API_KEY is not set: " +
        "export GEMINI_API_KEY=<your key> to use provider 'google'",
    );
  });

  test("a 500 and then a 429 in Google's error shape are both retried", async () => {
    const { r, result, server } = await runChild(
      GOOGLE,
      [{ fault: "500" }, { fault: "429", retryAfter: 0 }, { text: "Recovered." }],
      (f, _url, cwd) => ({ envelope: envelope(cwd, { model: f.model }) }),
    );
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
    assert.equal(result.text, "Recovered.");
    assert.equal(server.requests.length, 3);
    assert.match(r.stderr, /retry 1\/3/);
    assert.match(r.stderr, /retry 2\/3/);
  });
});

describe("xcsh __child (either format)", () => {
  test("OPENAI_BASE_URL points the built-in openai provider elsewhere", async () => {
    fresh([{ toolCalls: [{ name: "submit_result", args: { result: { data: { n: 1 } } } }] }]);
    const { home, cwd } = dirs("");
    const r = await runXcsh(["__child"], {
      cwd,
      home,
      env: { OPENAI_BASE_URL: `${server.url}/v1`, OPENAI_API_KEY: SECRET },
      stdin: wire(
        envelope(cwd, { model: "openai/gpt-5-mock", modelSettings: { thinkingLevel: "high" } }),
        "",
      ),
    });
    const result = resultOf(r);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(result.data, { n: 1 });
    assert.equal(server.requests[0].path, "/v1/responses");
    assert.equal(server.requests[0].body.reasoning.effort, "high");
    assert.equal(server.requests[0].headers.authorization, `Bearer ${SECRET}`);
  });

  test("JTD output schemas are validated as JTD", async () => {
    const jtd = { properties: { count: { type: "int32" } } };
    const { r, result, server } = await runChild(
      FORMATS[0],
      [
        { toolCalls: [{ name: "submit_result", args: { result: { data: { count: 1.5 } } } }] },
        { toolCalls: [{ name: "submit_result", args: { result: { data: { count: 2 } } } }] },
      ],
      (f, _url, cwd) => ({ envelope: envelope(cwd, { model: f.model, outputSchema: jtd }) }),
    );
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(result.data, { count: 2 });
    assert.match(FORMATS[0].system(server.requests[0].body), /JTD schema/);
  });

  test("an agent that gives up through submit_result fails with its reason", async () => {
    const { r, result } = await runChild(
      FORMATS[1],
      [{ toolCalls: [{ name: "submit_result", args: { result: { error: "no such code" } } }] }],
      (f, _url, cwd) => ({ envelope: envelope(cwd, { model: f.model }) }),
    );
    assert.equal(r.code, 1);
    assert.equal(result.error, "the agent gave up: no such code");
  });

  test("maxTurns bounds the loop", async () => {
    const call = { toolCalls: [{ name: "ls", args: {} }] };
    const { r, result, server } = await runChild(
      FORMATS[1],
      [call, call, call],
      (f, _url, cwd) => ({
        envelope: envelope(cwd, {
          model: f.model,
          limits: { maxTurns: 2, timeoutMs: 30_000, submitRetries: 3 },
        }),
      }),
    );
    assert.equal(r.code, 1);
    assert.match(result.error, /turn limit \(2 model calls\)/);
    assert.equal(server.requests.length, 2);
  });

  test("an unknown provider is an error listing the known ones", async () => {
    const { r, result, server } = await runChild(
      FORMATS[1],
      [{ text: "unused" }],
      (_f, _url, cwd) => ({ envelope: envelope(cwd, { model: "nosuch/model-x" }) }),
    );
    assert.equal(r.code, 1);
    assert.match(result.error, /unknown provider 'nosuch'/);
    assert.match(result.error, /anthropic, google, local, ollama, openai/);
    assert.equal(server.requests.length, 0);
  });

  test("the plan's model is the one run (XCSH_MODEL was the parent's to read); the depth counter is honoured", async () => {
    const { r, server } = await runChild(
      FORMATS[1],
      [{ text: "hi" }],
      (_f, _url, cwd) => ({
        envelope: envelope(cwd, { model: "local/from-plan" }),
        env: { XCSH_MODEL: "local/from-env", XCSH_TASK_DEPTH: "2" },
      }),
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(server.requests[0].body.model, "from-plan");
    assert.deepEqual(events(r)[0].depth, 2);
  });

  test("a bad config file is the parent's error, naming the file and the key", async () => {
    fresh([{ text: "unused" }]);
    const { home, cwd } = dirs(FORMATS[1].config(server.url) + "task:\n  maxConcurrency: 0\n");
    const r = await runXcsh(["run", "quick_task", "go"], {
      cwd,
      home,
      env: FORMATS[1].env(server.url),
    });
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /\/\.xcsh\/agent\/config\.yml: 'task\.maxConcurrency' must be a positive integer, got 0/,
    );
    assert.equal(server.requests.length, 0);
  });

  test("a bad config in the plan is one error line naming the key; no file is read", async () => {
    fresh([{ text: "unused" }]);
    const { home, cwd } = dirs("task:\n  maxConcurrency: [not, read]\n");
    const config = configOf(FORMATS[1].config(server.url));
    const bad = { ...config, task: { ...config.task, maxConcurrency: 0 } };
    const r = await runXcsh(["__child"], {
      cwd,
      home,
      env: FORMATS[1].env(server.url),
      stdin: planText({ cwd, model: FORMATS[1].model, config: bad }),
    });
    const result = resultOf(r);
    assert.equal(r.code, 1);
    assert.equal(
      result.error,
      "invalid envelope: 'config' is invalid: 'task.maxConcurrency' must be a positive integer, got 0",
    );
    assert.equal(server.requests.length, 0);
  });

  const complete = (): Event =>
    JSON.parse(planText({ id: "x", cwd: "/", model: "local/m", assignment: "go" }));
  const without = (field: string): string => {
    const doc = complete();
    delete doc[field];
    return JSON.stringify(doc);
  };
  const badEnvelopes: [string, string, RegExp][] = [
    ["not JSON", "{nope", /^invalid envelope: not valid JSON/],
    ["empty stdin", "", /^invalid envelope: stdin was empty/],
    [
      "an older version",
      JSON.stringify({ ...complete(), version: 1 }),
      /^invalid envelope: the plan is task envelope version 1; this xcsh speaks version 3 \(run the same xcsh version on both sides\)$/,
    ],
    [
      "the version before this one",
      JSON.stringify({ ...complete(), version: 2 }),
      /^invalid envelope: the plan is task envelope version 2; this xcsh speaks version 3 \(run the same xcsh version on both sides\)$/,
    ],
    [
      "a newer version",
      JSON.stringify({ ...complete(), version: 4 }),
      /^invalid envelope: the plan is task envelope version 4; this xcsh speaks version 3/,
    ],
    ["a missing assignment", without("assignment"), /^invalid envelope: 'assignment' is missing/],
    ["a missing sandbox", without("sandbox"), /^invalid envelope: 'sandbox' is missing/],
    ["a missing tool set", without("toolSet"), /^invalid envelope: 'toolSet' is missing/],
    ["a missing config", without("config"), /^invalid envelope: 'config' is missing/],
    ["a missing model", without("model"), /^invalid envelope: 'model' is missing/],
    [
      "a null model",
      JSON.stringify({ ...complete(), model: null }),
      /'model' must be the resolved/,
    ],
    [
      "an unknown field",
      JSON.stringify({ ...complete(), fallback: "child decides" }),
      /^invalid envelope: 'fallback' is not a field of a version 3 plan$/,
    ],
    [
      "a bad limit",
      JSON.stringify({ ...complete(), limits: { maxTurns: 0, timeoutMs: 1, submitRetries: 0 } }),
      /'limits\.maxTurns' must be a positive integer/,
    ],
  ];
  for (const [what, stdin, expected] of badEnvelopes) {
    test(`an envelope with ${what} gets exactly one error result`, async () => {
      const r = await runXcsh(["__child"], { home: join(scratch, "none"), stdin });
      const all = events(r);
      assert.equal(all.length, 1, r.stdout);
      assert.equal(all[0].type, "result");
      assert.equal(all[0].status, "error");
      assert.match(all[0].error, expected);
      assert.equal(r.code, 1);
    });
  }

  test("SIGTERM cancels the model call and the commands and reports an error", async () => {
    fresh([
      { toolCalls: [{ name: "bash", args: { command: "sleep 31.25 & echo started; wait" } }] },
      { text: "unused" },
    ]);
    const { home, cwd } = dirs(FORMATS[1].config(server.url));
    const child = spawn(requireBinary(), ["__child"], {
      cwd,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, LOCAL_KEY: SECRET },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    const toolStarted = new Promise<void>((resolve) => {
      child.stdout.setEncoding("utf8").on("data", (d: string) => {
        stdout += d;
        if (stdout.includes('"tool_start"')) resolve();
      });
    });
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const closed = new Promise<number | null>((resolve) =>
      child.on("close", (code) => resolve(code))
    );
    child.stdin.end(
      wire(envelope(cwd, { model: FORMATS[1].model }), FORMATS[1].config(server.url)),
    );
    await toolStarted;
    // process.kill, not child.kill: Deno's child.kill reports the signal as the
    // way the child ended even when the child handles it and exits.
    process.kill(child.pid!, "SIGTERM");
    const code = await closed;
    const r: RunResult = { code, signal: null, stdout, stderr };
    const result = resultOf(r);
    assert.equal(code, 1);
    assert.match(result.error, /interrupted by SIGTERM/);
    assert.equal(server.requests.length, 1);
    // The command's process group went with it: no `sleep 31.25` is left.
    if (existsSync("/proc/self/cmdline")) {
      const left = readdirSync("/proc").filter((p) => /^\d+$/.test(p)).filter((p) => {
        try {
          return readFileSync(`/proc/${p}/cmdline`, "utf8").includes("31.25");
        } catch {
          return false;
        }
      });
      assert.deepEqual(left, []);
    }
  });

  test("the write tool changes files relative to cwd", async () => {
    let dir = "";
    const { r } = await runChild(
      FORMATS[0],
      [
        { toolCalls: [{ name: "write", args: { path: "out/new.txt", content: "made\n" } }] },
        { text: "written" },
      ],
      (f, _url, cwd) => {
        dir = cwd;
        return { envelope: envelope(cwd, { model: f.model }) };
      },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.ok(existsSync(join(dir, "out", "new.txt")));
  });
});
