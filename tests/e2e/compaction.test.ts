// End-to-end tests of a long task against its model's context window, on
// every wire format (OpenAI-compatible chat, OpenAI Responses, Anthropic
// Messages, Gemini): the model server refuses a request past the window with
// the provider's own overflow error (`strict-rules.ts`, contextWindowRefusal),
// so a task that reads more than twice its window ends `ok` only when it
// compacts. Also: the overflow error answered anyway (compacted and tried
// again once, never more), `--resume` of a session that overflowed, a failed
// summary call (older turns cut, said once), a window the fixed prompt does
// not fit (one line, no call), and the PreCompact hook.
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type RunResult, runXcsh } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import type { RecordedRequest, Turn } from "../support/model-server.ts";
import { agentMd, type World } from "../support/world.ts";

const harness = modelHarness({
  strict: { ollama: { "tiny:1b": { capabilities: ["completion", "tools"], contextLength: 512 } } },
});
const { server } = harness;

/** The window every test's server enforces, and its config says (tokens). */
const WINDOW = 30_000;
/** The file the task reads: 3 000 lines of 100 characters, about 75 000 tokens. */
const LINES = 3_000;
/** Lines per read: about 3 750 tokens. */
const STEP = 150;

const FORMATS = [
  { name: "openai-compatible chat", model: "local/mock-large", provider: "local" },
  { name: "OpenAI Responses", model: "openai/gpt-5-test", provider: "openai" },
  { name: "Anthropic", model: "anthropic/claude-test", provider: "anthropic" },
  { name: "Gemini", model: "google/gemini-test", provider: "google" },
];

function world(windows: Record<string, number>, agentExtra = ""): World {
  const w = harness.world({
    config:
      `providers:\n  local: { type: openai-compatible, baseURL: "${server.url}/v1"${
        windows.local ? `, contextWindow: ${windows.local}` : ""
      } }\n` +
      Object.entries(windows).filter(([p]) => p !== "local").map(([p, n]) =>
        `  ${p}: { contextWindow: ${n} }\n`
      ).join(""),
  });
  const agents = join(w.home, ".xcsh", "agent", "agents");
  mkdirSync(agents, { recursive: true });
  writeFileSync(join(agents, "reader.md"), agentMd("reader", `tools: read\n${agentExtra}`));
  const line = (n: number) => `${String(n).padStart(6, "0")} ${"lorem ipsum ".repeat(8)}`;
  writeFileSync(
    join(w.cwd, "big.txt"),
    Array.from({ length: LINES }, (_, i) => line(i + 1).slice(0, 99)).join("\n") + "\n",
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

const isSummaryCall = (req: RecordedRequest) =>
  req.raw.includes("The conversation is about to pass your context window");

/** The highest line a request's conversation holds (what the model has read so far). */
function lastLineRead(req: RecordedRequest): number {
  const seen = [...req.raw.matchAll(/(\d{6}) lorem/g)].map((m) => Number(m[1]));
  return seen.length > 0 ? Math.max(...seen) : 0;
}

/**
 * Reads big.txt in steps of {@link STEP} lines, counting from what it was
 * told (a summary names the last line read), then answers "read all".
 * A summary call is answered with a summary.
 */
function reader(opts: { summary?: (req: RecordedRequest) => Turn } = {}) {
  let next = 1;
  return (req: RecordedRequest): Turn => {
    if (isSummaryCall(req)) {
      return opts.summary?.(req) ??
        { text: `Summary: big.txt was read up to line ${next - 1}; keep reading from ${next}.` };
    }
    if (next > LINES) return { text: "read all" };
    const from = next;
    next += STEP;
    return {
      toolCalls: [{
        name: "read",
        args: { path: "big.txt", start_line: from, end_line: from + STEP - 1 },
      }],
    };
  };
}

/** The world's latest session (by modification time). */
function session(w: World): { id: string; records: Record<string, unknown>[] } {
  const dir = join(w.home, ".local", "share", "xcsh", "sessions");
  const names = readdirSync(dir).filter((n) => n.endsWith(".jsonl"))
    .sort((a, b) => statSync(join(dir, a)).mtimeMs - statSync(join(dir, b)).mtimeMs);
  assert.ok(names.length >= 1, "a session was written");
  const text = readFileSync(join(dir, names.at(-1)!), "utf8");
  return {
    id: names.at(-1)!.slice(0, -".jsonl".length),
    records: text.trim().split("\n").map((l) => JSON.parse(l)),
  };
}

type Compact = {
  type: "compact";
  trigger: string;
  method: string;
  tokensBefore: number;
  tokensAfter: number;
};

function compactEvents(w: World): Compact[] {
  return session(w).records
    .filter((r) => r.type === "event" && (r.event as { type: string }).type === "compact")
    .map((r) => r.event as Compact);
}

function start(): void {
  server.script([]);
  server.requests.length = 0;
  server.limitWindow({ tokens: WINDOW });
}

describe("a task that reads more than twice its window ends ok", () => {
  for (const f of FORMATS) {
    test(f.name, async () => {
      const w = world({ [f.provider]: WINDOW });
      start();
      harness.respond(reader());
      const r = await xcsh(w, ["run", "reader", "--model", f.model, "--json", "read big.txt"]);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      const result = JSON.parse(r.stdout).results[0];
      assert.equal(result.status, "ok", JSON.stringify(result));
      assert.equal(result.text, "read all");
      // The whole file went through the conversation: more than twice the window.
      const read = server.requests.filter((q) => !isSummaryCall(q));
      assert.equal(lastLineRead(read.at(-1)!), LINES);
      assert.ok(LINES * 100 / 4 > 2 * WINDOW);
      const events = compactEvents(w);
      assert.ok(events.length >= 2, `compactions: ${events.length}`);
      for (const e of events) {
        assert.equal(e.method, "summary");
        assert.equal(e.trigger, "auto");
        assert.ok(e.tokensAfter < e.tokensBefore, JSON.stringify(e));
      }
      // The system prompt and tools are the same bytes before and after a compaction.
      const prefix = (q: RecordedRequest) =>
        JSON.stringify([
          q.body.system ?? q.body.instructions ?? q.body.systemInstruction,
          q.body.tools,
        ]);
      assert.ok(read.every((q) => prefix(q) === prefix(read[0])));
      // The assignment stays in every request.
      assert.ok(read.every((q) => q.raw.includes("read big.txt")));
    });
  }
});

describe("the overflow error answered anyway", () => {
  test("compacts and tries the call again once (vLLM's text)", async () => {
    // The config says nothing: the default window is far larger than the server's.
    const w = world({});
    start();
    server.limitWindow({ tokens: WINDOW, server: "vllm" });
    harness.respond(reader());
    const r = await xcsh(w, [
      "run",
      "reader",
      "--model",
      "local/mock-large",
      "--json",
      "read big.txt",
    ]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(JSON.parse(r.stdout).results[0].text, "read all");
    const events = compactEvents(w);
    // The first compaction answers the refusal; the lowered budget then compacts ahead of it.
    assert.equal(events[0]?.trigger, "overflow", JSON.stringify(events));
    assert.equal(events.filter((e) => e.trigger === "overflow").length, 1, JSON.stringify(events));
    assert.match(r.stderr, /context window is unknown; assuming 128000 tokens/);
    assert.equal(r.stderr.match(/context window is unknown/g)?.length, 1, "said once");
  });

  test("a second overflow for the same call ends the task: never a loop", async () => {
    const w = world({});
    start();
    server.limitWindow(undefined);
    const tooLong = {
      fault: "400",
      message: "prompt is too long: 250000 tokens > 200000 maximum",
    } as const;
    server.script([
      { toolCalls: [{ name: "read", args: { path: "big.txt", start_line: 1, end_line: 100 } }] },
      { toolCalls: [{ name: "read", args: { path: "big.txt", start_line: 101, end_line: 200 } }] },
      tooLong,
      { text: "Summary: read lines 1 to 200." },
      tooLong,
      { text: "never asked" },
    ]);
    harness.respond(undefined);
    const r = await xcsh(w, [
      "run",
      "reader",
      "--model",
      "anthropic/claude-test",
      "--json",
      "read big.txt",
    ]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(JSON.parse(r.stdout).results[0].error, /prompt is too long/);
    assert.equal(server.requests.length, 5);
    assert.equal(server.remaining(), 1);
    assert.deepEqual(compactEvents(w).map((e) => e.trigger), ["overflow"]);
  });
});

test("--resume of a session that overflowed works", async () => {
  const w = world({});
  start();
  server.limitWindow(undefined);
  // The first run reads about 22 000 tokens, then overflows for good.
  const tooLong = {
    fault: "400",
    message: "prompt is too long: 250000 tokens > 200000 maximum",
  } as const;
  server.script([
    ...[1, 301, 601].map((from): Turn => ({
      toolCalls: [{
        name: "read",
        args: { path: "big.txt", start_line: from, end_line: from + 299 },
      }],
    })),
    tooLong,
    { fault: "400", message: "not a summary today" },
    tooLong,
  ]);
  harness.respond(undefined);
  const first = await xcsh(w, [
    "run",
    "reader",
    "--model",
    "anthropic/claude-test",
    "--json",
    "read",
  ]);
  assert.equal(first.code, 1, first.stdout + first.stderr);
  assert.match(JSON.parse(first.stdout).results[0].error, /prompt is too long/);
  // The resume: the whole history passes the server's window now.
  server.script([]);
  server.requests.length = 0;
  server.limitWindow({ tokens: 20_000 });
  harness.respond((req) =>
    isSummaryCall(req) ? { text: "Summary: read lines 1 to 900." } : { text: "resumed fine" }
  );
  const r = await xcsh(w, ["run", "--resume", session(w).id, "--json", "go on"]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.equal(JSON.parse(r.stdout).results[0].text, "resumed fine");
  assert.ok(compactEvents(w).some((e) => e.method === "summary"));
});

test("a failed summary call cuts the older turns instead, said once", async () => {
  const w = world({ anthropic: WINDOW });
  start();
  harness.respond(
    reader({ summary: () => ({ fault: "400", message: "summaries are off today" }) }),
  );
  const r = await xcsh(w, [
    "run",
    "reader",
    "--model",
    "anthropic/claude-test",
    "--json",
    "read big.txt",
  ]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const events = compactEvents(w);
  assert.ok(events.length >= 2);
  assert.ok(events.every((e) => e.method === "cut"));
  assert.equal(r.stderr.match(/the summary of the older turns failed/g)?.length, 1, r.stderr);
  const after = server.requests.filter((q) => !isSummaryCall(q)).at(-1)!;
  assert.match(after.raw, /removed to fit the context window/);
});

test("a window the fixed prompt does not fit (Ollama's /api/show says 512): one line, no call", async () => {
  const w = world({});
  start();
  harness.respond(reader());
  const r = await runXcsh(["run", "reader", "--model", "ollama/tiny:1b", "--json", "read"], {
    cwd: w.cwd,
    home: w.home,
    env: { ...env(), OLLAMA_BASE_URL: server.url },
  });
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.ok(server.shown.includes("tiny:1b"), "the window came from /api/show");
  assert.equal(server.requests.length, 0);
  const error: string = JSON.parse(r.stdout).results[0].error;
  assert.match(error, /^ollama\/tiny:1b: its context window \(512 tokens, 128 of them kept/);
  assert.match(error, /fixed prompt \(\d+ tokens/);
  assert.equal(error.split("\n").length, 1);
});

test("PreCompact hooks run before each compaction, with trigger auto", async () => {
  const seen = "precompact.jsonl";
  const w = world(
    { anthropic: WINDOW },
    `hooks:\n  PreCompact:\n    - matcher: auto\n      hooks:\n        - type: command\n` +
      `          command: "cat >> ${seen}; echo >> ${seen}; exit 2"\n`,
  );
  start();
  harness.respond(reader());
  const r = await xcsh(w, [
    "run",
    "reader",
    "--model",
    "anthropic/claude-test",
    "--sandbox",
    "off",
    "--json",
    "read big.txt",
  ]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const payloads = readFileSync(join(w.cwd, seen), "utf8").trim().split("\n").map((l) =>
    JSON.parse(l)
  );
  assert.equal(payloads.length, compactEvents(w).length);
  assert.ok(payloads.length >= 2);
  for (const p of payloads) {
    assert.equal(p.hook_event_name, "PreCompact");
    assert.equal(p.trigger, "auto");
  }
});

test("an untrusted project's PreCompact hook never runs; after xcsh trust it does", async () => {
  const w = world({ anthropic: WINDOW });
  const flag = join(w.cwd, "precompact-ran");
  mkdirSync(join(w.cwd, ".claude"), { recursive: true });
  writeFileSync(
    join(w.cwd, ".claude", "settings.json"),
    JSON.stringify({
      hooks: {
        PreCompact: [{ hooks: [{ type: "command", command: `cat > /dev/null; touch "${flag}"` }] }],
      },
    }),
  );
  const go = () =>
    xcsh(w, [
      "run",
      "reader",
      "--model",
      "anthropic/claude-test",
      "--sandbox",
      "off",
      "--json",
      "read big.txt",
    ]);
  start();
  harness.respond(reader());
  const r = await go();
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.ok(compactEvents(w).length >= 1, "the task compacted");
  assert.ok(!existsSync(flag), "the untrusted project's PreCompact hook did not run");
  assert.equal((await xcsh(w, ["trust", w.cwd])).code, 0);
  start();
  harness.respond(reader());
  const again = await go();
  assert.equal(again.code, 0, again.stdout + again.stderr);
  assert.ok(existsSync(flag), "after trust it runs");
});
