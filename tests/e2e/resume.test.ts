// End-to-end tests of `xcsh run --resume` after every way a run ends — a
// final text, submit_result, a timeout mid-call, `xcsh cancel` mid-call,
// the turn limit, and a crash (every process of the run SIGKILLed mid-call) —
// on all four wire formats (OpenAI-compatible chat, OpenAI Responses,
// Anthropic Messages, Gemini), against the model server with its pairing
// rules on: a replayed tool call without its result is refused there as the
// real APIs refuse it. The first run's model comes from `--model` with no
// `models.default` set, so every resume also checks that a session keeps the
// model it ran on; a separate test switches model with `--model`.
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { type RunResult, runXcsh } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import type { RecordedRequest, Turn } from "../support/model-server.ts";
import { agentMd, processesIn, waitForNoProcessesIn, type World } from "../support/world.ts";

const harness = modelHarness();
const { server } = harness;

interface Format {
  name: string;
  /** `--model` of the first run. */
  model: string;
  /** The path a request of this format goes to. */
  path: RegExp;
}

const FORMATS: Format[] = [
  { name: "openai-compatible chat", model: "local/mock-large", path: /^\/v1\/chat\/completions$/ },
  { name: "OpenAI Responses", model: "openai/gpt-5-test", path: /^\/v1\/responses$/ },
  { name: "Anthropic", model: "anthropic/claude-test", path: /^\/v1\/messages$/ },
  { name: "Gemini", model: "google/gemini-test", path: /^\/v1beta\/models\/gemini-test:/ },
];

/** Every provider pointed at the server; config sets no model at all. */
function world(extraConfig = ""): World {
  const w = harness.world({
    config: `providers:\n  local: { type: openai-compatible, baseURL: "${server.url}/v1" }\n` +
      extraConfig,
  });
  const agents = join(w.home, ".xcsh", "agent", "agents");
  mkdirSync(agents, { recursive: true });
  writeFileSync(join(agents, "worker.md"), agentMd("worker", "tools: bash, read\n"));
  writeFileSync(
    join(agents, "limited.md"),
    agentMd("limited", "tools: bash, read\nmaxTurns: 1\n"),
  );
  return w;
}

function env(): Record<string, string> {
  return {
    ANTHROPIC_BASE_URL: `${server.url}/v1`,
    ANTHROPIC_API_KEY: "sk-ant-test",
    OPENAI_BASE_URL: `${server.url}/v1`,
    OPENAI_API_KEY: "sk-openai-test",
    GEMINI_BASE_URL: `${server.url}/v1beta`,
    GEMINI_API_KEY: "gemini-test-key",
  };
}

function xcsh(w: World, args: string[]): Promise<RunResult> {
  return runXcsh(args, { cwd: w.cwd, home: w.home, env: env() });
}

function script(turns: Turn[]): void {
  server.script(turns);
  server.requests.length = 0;
}

function sessionsDir(w: World): string {
  return join(w.home, ".local", "share", "xcsh", "sessions");
}

/** The one session of a world (each test's world runs one task). */
function onlySession(w: World): { id: string; text: string } {
  const names = readdirSync(sessionsDir(w)).filter((n) => n.endsWith(".jsonl"));
  assert.equal(names.length, 1, names.join(", "));
  const id = names[0].slice(0, -".jsonl".length);
  return { id, text: readFileSync(join(sessionsDir(w), names[0]), "utf8") };
}

async function until(what: string, check: () => boolean | Promise<boolean>, maxMs = 30_000) {
  const end = Date.now() + maxMs;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`timed out waiting for ${what}`);
}

/** Waits until the run's session shows its bash call started (the call now runs). */
async function untilCallRuns(w: World): Promise<void> {
  await until("the bash call to start", () => {
    try {
      return /"type":"tool_start"[^\n]*"tool":"bash"/.test(onlySession(w).text);
    } catch {
      return false;
    }
  });
}

const SLEEP: Turn = { toolCalls: [{ name: "bash", args: { command: "sleep 60" } }] };
const SCHEMA = JSON.stringify({
  type: "object",
  required: ["n"],
  properties: { n: { type: "integer" } },
});
const submit = (n: number): Turn => ({
  toolCalls: [{ name: "submit_result", args: { result: { data: { n } } } }],
});

/** One way a run ends: the first run, then what its resume is answered with. */
interface Ending {
  name: string;
  /** Runs the first task in `w` on `model`, checking how it ended. */
  first(w: World, model: string): Promise<void>;
  /** The resume's extra flags and scripted answer. */
  resumeTurn: Turn;
  /** Text the resumed request must hold besides the first assignment. */
  replayed?: RegExp;
  /** Checks the resumed result. */
  check(result: Record<string, unknown>): void;
}

const okText = (r: Record<string, unknown>) => assert.equal(r.text, "resumed fine");

const ENDINGS: Ending[] = [
  {
    name: "a final text",
    async first(w, model) {
      script([{ text: "first answer" }]);
      const r = await xcsh(w, ["run", "worker", "--model", model, "--json", "first task"]);
      assert.equal(r.code, 0, r.stderr);
    },
    resumeTurn: { text: "resumed fine" },
    replayed: /first answer/,
    check: okText,
  },
  {
    name: "submit_result (a --schema run)",
    async first(w, model) {
      script([submit(1)]);
      const r = await xcsh(w, [
        "run",
        "worker",
        "--model",
        model,
        "--schema",
        SCHEMA,
        "--json",
        "first task",
      ]);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(JSON.parse(r.stdout).results[0].data, { n: 1 });
    },
    resumeTurn: submit(2),
    replayed: /Result accepted/,
    check: (r) => assert.deepEqual(r.data, { n: 2 }),
  },
  {
    name: "a timeout mid-call",
    async first(w, model) {
      script([SLEEP]);
      const r = await xcsh(w, [
        "run",
        "worker",
        "--model",
        model,
        "--sandbox",
        "off",
        "--timeout",
        "4",
        "--json",
        "first task",
      ]);
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stdout, /timed out/);
      assert.match(onlySession(w).text, /"tool":"bash"/, "the run reached its bash call");
    },
    resumeTurn: { text: "resumed fine" },
    replayed: /Interrupted: the run ended/,
    check: okText,
  },
  {
    name: "xcsh cancel mid-call",
    async first(w, model) {
      script([SLEEP]);
      const started = await xcsh(w, [
        "run",
        "--background",
        "worker",
        "--model",
        model,
        "--sandbox",
        "off",
        "first task",
      ]);
      assert.equal(started.code, 0, started.stderr);
      const run = started.stdout.trim();
      await untilCallRuns(w);
      const c = await xcsh(w, ["cancel", run]);
      assert.equal(c.code, 0, c.stderr);
      const waited = await xcsh(w, ["wait", run, "--json"]);
      assert.equal(JSON.parse(waited.stdout).results[0].status, "cancelled");
      assert.deepEqual(await waitForNoProcessesIn(w.cwd), []);
    },
    resumeTurn: { text: "resumed fine" },
    replayed: /Interrupted: the run ended/,
    check: okText,
  },
  {
    name: "the turn limit",
    async first(w, model) {
      script([{ toolCalls: [{ name: "read", args: { path: "README.md" } }] }]);
      const r = await xcsh(w, ["run", "limited", "--model", model, "--json", "first task"]);
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stdout, /turn limit/);
    },
    resumeTurn: { text: "resumed fine" },
    replayed: /# demo project/,
    check: okText,
  },
  {
    name: "a crash mid-call (every process SIGKILLed)",
    async first(w, model) {
      script([SLEEP]);
      const running = xcsh(w, [
        "run",
        "worker",
        "--model",
        model,
        "--sandbox",
        "off",
        "first task",
      ]);
      await untilCallRuns(w);
      for (const pid of processesIn(w.cwd)) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
      const r = await running;
      assert.equal(r.signal, "SIGKILL");
      assert.doesNotMatch(onlySession(w).text, /"type":"result"/, "the run wrote no result");
    },
    resumeTurn: { text: "resumed fine" },
    replayed: /Interrupted: the run ended/,
    check: okText,
  },
];

for (const format of FORMATS) {
  describe(`resume on ${format.name}`, () => {
    for (const ending of ENDINGS) {
      test(`after ${ending.name}`, async () => {
        const w = world();
        await ending.first(w, format.model);
        const { id } = onlySession(w);
        script([ending.resumeTurn]);
        const r = await xcsh(w, ["run", "--resume", id, "--json", "follow-up task"]);
        assert.equal(r.code, 0, `${r.stderr}\n${r.stdout}`);
        const result = JSON.parse(r.stdout).results[0];
        assert.equal(result.status, "ok", JSON.stringify(result));
        ending.check(result);
        assert.equal(server.requests.length, 1, "one model call, accepted");
        const req: RecordedRequest = server.requests[0];
        assert.match(req.path, format.path, "the session's own model and provider");
        const body = JSON.stringify(req.body);
        assert.match(body, /first task[^]*follow-up task/);
        if (ending.replayed) assert.match(body, ending.replayed);
      });
    }
  });
}

describe("the model of a resumed session", () => {
  // No provider key is set, so nothing but the session can name the model.
  for (
    const [what, model, extra] of [
      ["an Ollama model", "ollama/llama3.2", { OLLAMA_BASE_URL: "/v1" }],
      ["a config-only provider's model", "local/mock-small", {}],
    ] as const
  ) {
    test(`is kept with no models.default and no key: ${what} from --model`, async () => {
      const w = world();
      const only = Object.fromEntries(
        Object.entries(extra).map(([k, v]) => [k, `${server.url}${v}`]),
      );
      const run = (args: string[]) => runXcsh(args, { cwd: w.cwd, home: w.home, env: only });
      const chats = () => server.requests.filter((r) => r.path === "/v1/chat/completions");
      script([{ text: "first answer" }]);
      const first = await run(["run", "worker", "--model", model, "first task"]);
      assert.equal(first.code, 0, first.stderr);
      script([{ text: "resumed fine" }]);
      const r = await run(["run", "--resume", onlySession(w).id, "follow-up task"]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, "resumed fine\n");
      assert.equal(chats().length, 1);
      assert.equal(chats()[0].body.model, model.split("/")[1]);
      assert.match(JSON.stringify(chats()[0].body), /first task[^]*first answer[^]*follow-up/);
    });
  }

  test("a session an older xcsh wrote (envelope version 1) resumes on a complete plan", async () => {
    const w = world();
    const run = (args: string[]) => runXcsh(args, { cwd: w.cwd, home: w.home });
    script([{ text: "first answer" }]);
    const first = await run(["run", "worker", "--model", "local/mock-small", "first task"]);
    assert.equal(first.code, 0, first.stderr);
    // Its header as version 1 kept it: the agent's spawn field, no tool set,
    // sandbox or prompt context (the child then decided those).
    const { id, text } = onlySession(w);
    const [head, ...rest] = text.split("\n");
    const header = JSON.parse(head);
    const { toolSet: _t, sandbox: _s, promptContext: _p, agentSet: _a, ...v1 } = header.envelope;
    header.envelope = { ...v1, version: 1, agent: { ...v1.agent, spawns: "*" } };
    writeFileSync(
      join(sessionsDir(w), `${id}.jsonl`),
      [JSON.stringify(header), ...rest].join("\n"),
    );
    script([{ text: "resumed fine" }]);
    const r = await run(["run", "--resume", id, "follow-up task"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "resumed fine\n");
    const tools = (server.requests[0].body.tools ?? []).map(
      (t: { function: { name: string } }) => t.function.name,
    );
    assert.ok(!tools.includes("task"), `the old spawn field grants nothing: ${tools}`);
  });

  test("stays the one it ran on when models.default changed since", async () => {
    const w = world();
    // No key is set: the new default could not even run.
    const run = (args: string[]) => runXcsh(args, { cwd: w.cwd, home: w.home });
    script([{ text: "first answer" }]);
    const first = await run(["run", "worker", "--model", "local/mock-small", "first task"]);
    assert.equal(first.code, 0, first.stderr);
    writeFileSync(
      join(w.home, ".xcsh", "agent", "config.yml"),
      `providers:\n  local: { type: openai-compatible, baseURL: "${server.url}/v1" }\n` +
        "models:\n  default: anthropic/claude-test\n",
    );
    script([{ text: "resumed fine" }]);
    const r = await run(["run", "--resume", onlySession(w).id, "follow-up task"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(server.requests[0].path, "/v1/chat/completions");
    assert.equal(server.requests[0].body.model, "mock-small");
    assert.doesNotMatch(r.stderr, /anthropic|models\.default/, "no word of the new default");
  });

  test("--model with --resume to another model of the same provider drops its thinking too", async () => {
    const w = world();
    script([{ reasoning: "private chain of thought", text: "first answer" }]);
    const first = await xcsh(w, [
      "run",
      "worker",
      "--model",
      "anthropic/claude-test",
      "first task",
    ]);
    assert.equal(first.code, 0, first.stderr);
    script([{ text: "resumed fine" }]);
    const r = await xcsh(w, [
      "run",
      "--resume",
      onlySession(w).id,
      "--model",
      "anthropic/claude-other",
      "follow-up task",
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stderr,
      /session switched from anthropic\/claude-test to anthropic\/claude-other/,
    );
    const req = server.requests[0];
    assert.equal(req.body.model, "claude-other");
    const blocks = req.body.messages.flatMap((m: { content: unknown }) =>
      Array.isArray(m.content) ? m.content : []
    );
    assert.deepEqual(blocks.filter((b: { type: string }) => /thinking/.test(b.type)), []);
    assert.doesNotMatch(JSON.stringify(req.body), /private chain of thought|mock-signature/);
    assert.match(JSON.stringify(req.body), /first answer[^]*follow-up task/);
  });

  test("--model with --resume switches it, dropping what cannot cross, with a note", async () => {
    const w = world();
    script([
      {
        reasoning: "private chain of thought",
        toolCalls: [{ name: "read", args: { path: "README.md" } }],
      },
      { reasoning: "more thought", text: "first answer" },
    ]);
    const first = await xcsh(w, [
      "run",
      "worker",
      "--model",
      "anthropic/claude-test",
      "first task",
    ]);
    assert.equal(first.code, 0, first.stderr);
    const { id, text } = onlySession(w);
    assert.match(text, /private chain of thought/, "the thinking was recorded");

    script([{ text: "resumed fine" }]);
    const r = await xcsh(w, [
      "run",
      "--resume",
      id,
      "--model",
      "openai/gpt-5-test",
      "--json",
      "follow-up task",
    ]);
    assert.equal(r.code, 0, r.stderr);
    const notes = r.stderr.split("\n").filter((l) => /session switched/.test(l));
    assert.equal(notes.length, 1, r.stderr);
    assert.match(
      notes[0],
      /session switched from anthropic\/claude-test to openai\/gpt-5-test; \d+ items? of reasoning and provider metadata/,
    );
    const req = server.requests[0];
    assert.equal(req.path, "/v1/responses");
    assert.equal(req.body.model, "gpt-5-test");
    const body = JSON.stringify(req.body);
    assert.match(body, /first task[^]*# demo project[^]*first answer[^]*follow-up task/);
    assert.doesNotMatch(body, /private chain of thought|more thought/, "no thinking crosses");
    assert.doesNotMatch(body, /mock-signature/, "no signature crosses");

    // The session now runs on the model it was switched to.
    script([{ text: "still fine" }]);
    const again = await xcsh(w, ["run", "--resume", id, "third task"]);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(server.requests[0].path, "/v1/responses");
    assert.doesNotMatch(again.stderr, /session switched/);
  });
});
