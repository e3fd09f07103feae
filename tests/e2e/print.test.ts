// `xcsh -p` as a drop-in for `claude -p`: CI scripts written for Claude
// Code's headless mode (json and stream-json, read with jq) run against the
// built binary with only the command name changed; the tool and prompt
// flags reach the model's request; --max-budget-usd stops a task; flags
// that mean nothing here are accepted with a note; bad values exit 2
// naming the flag.
//
// The scripts need `sh` and `jq` (.ci/run installs jq); without them those
// tests skip and say why. Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanEnv, runCommand, runXcsh, XCSH } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import type { RecordedRequest, Turn } from "../support/model-server.ts";
import {
  isAfterTool,
  localConfig,
  makeWorld,
  offeredTools,
  systemPrompt,
} from "../support/world.ts";

const harness = modelHarness({ respond: () => ({ text: "done" }) });
const { server, respond } = harness;

/** Where a program is on PATH, or undefined. */
function which(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? "/usr/bin:/bin").split(":")) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
}
const JQ = which("jq");
const SH = which("sh");
const noScripts = !JQ ? "jq is not installed (apt-get install jq)" : !SH ? "sh is missing" : false;

const listThenAnswer = (req: RecordedRequest): Turn =>
  isAfterTool(req)
    ? { text: "The project is a demo.", usage: { input: 120, output: 8, cacheRead: 20 } }
    : { toolCalls: [{ name: "ls", args: { path: "." } }], usage: { input: 100, output: 5 } };

/**
 * A CI script as Claude Code's headless docs show it. The test changes only
 * the command name: every `claude -p` becomes `"$XCSH" -p`.
 */
const JSON_SCRIPT = `set -eu
out=$(claude -p "Summarize this project" --output-format json \\
  --allowedTools "Read,Grep" --append-system-prompt "Answer in one line." \\
  --max-turns 5 --max-budget-usd 2 --permission-mode acceptEdits \\
  --dangerously-skip-permissions)
is_error=$(printf '%s' "$out" | jq -r '.is_error')
if [ "$is_error" != "false" ]; then echo "failed: $(printf '%s' "$out" | jq -r '.result')" >&2; exit 1; fi
echo "result=$(printf '%s' "$out" | jq -r '.result')"
echo "type=$(printf '%s' "$out" | jq -r '.type')/$(printf '%s' "$out" | jq -r '.subtype')"
session=$(printf '%s' "$out" | jq -r '.session_id')
echo "session=$session"
echo "cost=$(printf '%s' "$out" | jq -r '.total_cost_usd')"
echo "turns=$(printf '%s' "$out" | jq -r '.num_turns')"
echo "input=$(printf '%s' "$out" | jq -r '.usage.input_tokens')"
echo "output=$(printf '%s' "$out" | jq -r '.usage.output_tokens')"
echo "cached=$(printf '%s' "$out" | jq -r '.usage.cache_read_input_tokens')"
follow=$(claude -p --resume "$session" "And its title?" --output-format json)
echo "follow_session=$(printf '%s' "$follow" | jq -r '.session_id')"
again=$(echo "from stdin" | claude -p --continue --output-format json)
echo "continue_session=$(printf '%s' "$again" | jq -r '.session_id')"
`;

const STREAM_SCRIPT = `set -eu
claude -p "List the files" --output-format stream-json --verbose \\
  --include-partial-messages > stream.jsonl
echo "init=$(jq -r 'select(.type == "system" and .subtype == "init") | .session_id' stream.jsonl)"
echo "cwd=$(jq -r 'select(.type == "system" and .subtype == "init") | .cwd' stream.jsonl)"
echo "tools=$(jq -r 'select(.type == "system" and .subtype == "init") | .tools | join(",")' stream.jsonl)"
echo "tool_use=$(jq -r 'select(.type == "assistant") | .message.content[] | select(.type == "tool_use") | .name' stream.jsonl)"
echo "tool_result_for=$(jq -r 'select(.type == "user") | .message.content[] | select(.type == "tool_result") | .tool_use_id' stream.jsonl)"
echo "tool_use_id=$(jq -r 'select(.type == "assistant") | .message.content[] | select(.type == "tool_use") | .id' stream.jsonl)"
echo "said=$(jq -r 'select(.type == "assistant") | .message.content[] | select(.type == "text") | .text' stream.jsonl)"
echo "partial=$(jq -r 'select(.type == "stream_event") | .event.delta.text' stream.jsonl | tr -d '\\n')"
echo "result=$(jq -r 'select(.type == "result") | .result' stream.jsonl)"
echo "result_session=$(jq -r 'select(.type == "result") | .session_id' stream.jsonl)"
echo "last=$(tail -n 1 stream.jsonl | jq -r '.type')"
`;

/** The script with only the command name changed. */
function forXcsh(script: string): string {
  const changed = script.replaceAll("claude -p", '"$XCSH" -p');
  assert.ok(!changed.includes("claude "), "only the command name changes");
  return changed;
}

/** Runs `script` with sh in `cwd`; its `key=value` lines. */
async function runScript(script: string, w: { cwd: string; home: string }) {
  const file = join(w.cwd, "ci.sh");
  writeFileSync(file, forXcsh(script));
  const r = await runCommand(SH!, [file], {
    cwd: w.cwd,
    env: { ...cleanEnv(w.home), XCSH },
  });
  const values: Record<string, string> = {};
  for (const line of r.stdout.split("\n")) {
    const eq = line.indexOf("=");
    if (eq > 0) values[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return { ...r, values };
}

describe("a CI script written for claude -p", () => {
  test("--output-format json: every jq path of Claude's docs reads a value", {
    skip: noScripts,
  }, async () => {
    const w = harness.world();
    respond(listThenAnswer);
    server.requests.length = 0;
    const r = await runScript(JSON_SCRIPT, w);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    const v = r.values;
    assert.equal(v.result, "The project is a demo.");
    assert.equal(v.type, "result/success");
    assert.match(v.session, /^[0-9A-Za-z_-]{8,}$/);
    assert.equal(v.cost, "0");
    assert.equal(v.turns, "2");
    // 220 input tokens, 20 of them read from the cache: Claude counts those apart.
    assert.equal(v.input, "200");
    assert.equal(v.output, "13");
    assert.equal(v.cached, "20");
    // --resume and --continue continue the session the first call started.
    assert.equal(v.follow_session, v.session);
    assert.equal(v.continue_session, v.session);
    // The notes for the flags that mean nothing here, one line each, never an exit 2.
    assert.match(r.stderr, /--dangerously-skip-permissions is accepted and ignored/);
    assert.match(r.stderr, /--permission-mode acceptEdits is accepted and ignored/);
    // --allowedTools: those tools and the read-only ones; --append-system-prompt reached the model.
    const first = server.requests[0];
    assert.deepEqual(offeredTools(first).sort(), ["find", "grep", "ls", "read", "submit_result"]);
    assert.match(systemPrompt(first), /Answer in one line\.$/m);
    const last = server.requests.at(-1)!;
    assert.match(JSON.stringify(last.body.messages), /from stdin/);
    assert.match(JSON.stringify(last.body.messages), /And its title\?/);
  });

  test("--output-format stream-json: system/init, assistant, user, stream_event, result", {
    skip: noScripts,
  }, async () => {
    const w = harness.world();
    respond(listThenAnswer);
    const r = await runScript(STREAM_SCRIPT, w);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    const v = r.values;
    assert.match(v.init, /^[0-9A-Za-z_-]{8,}$/);
    assert.equal(v.result_session, v.init);
    assert.equal(v.cwd, w.cwd);
    assert.ok(v.tools.split(",").includes("LS"), v.tools);
    assert.equal(v.tool_use, "LS", "Claude Code's name of the tool");
    assert.ok(v.tool_use_id !== "" && v.tool_use_id !== "null");
    assert.equal(v.tool_result_for, v.tool_use_id);
    assert.equal(v.said, "The project is a demo.");
    assert.equal(v.partial, "The project is a demo.");
    assert.equal(v.result, "The project is a demo.");
    assert.equal(v.last, "result");
    const lines = readFileSync(join(w.cwd, "stream.jsonl"), "utf8").trimEnd().split("\n");
    const first = JSON.parse(lines[0]);
    assert.equal(first.type, "system");
    assert.equal(first.subtype, "init");
  });
});

describe("xcsh -p", () => {
  test("the prompt from the argument and stdin, text out, exit 0", async () => {
    const w = harness.world();
    respond(() => ({ text: "plain answer" }));
    server.requests.length = 0;
    const r = await runXcsh(["-p", "Review this:"], { cwd: w.cwd, home: w.home, stdin: "diff\n" });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "plain answer\n");
    assert.match(JSON.stringify(server.requests[0].body.messages), /Review this:\\ndiff/);
  });

  test("--json-schema: structured_output; --system-prompt replaces, --disallowedTools removes", async () => {
    const w = harness.world();
    respond(() => ({
      toolCalls: [{ name: "submit_result", args: { data: { verdict: "fine", score: 3 } } }],
    }));
    server.requests.length = 0;
    const schema = JSON.stringify({
      type: "object",
      properties: { verdict: { type: "string" }, score: { type: "number" } },
      required: ["verdict", "score"],
    });
    const r = await runXcsh([
      "-p",
      "judge",
      "--output-format",
      "json",
      "--json-schema",
      schema,
      "--system-prompt",
      "You judge code.",
      "--disallowedTools",
      "Bash",
    ], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(out.structured_output, { verdict: "fine", score: 3 });
    assert.equal(out.is_error, false);
    const req = server.requests[0];
    assert.match(systemPrompt(req), /You judge code\./);
    assert.doesNotMatch(systemPrompt(req), /delegated worker/);
    assert.ok(!offeredTools(req).includes("bash"), offeredTools(req).join(","));
    assert.ok(offeredTools(req).includes("read"));
  });

  test("--max-turns reached: subtype error_max_turns, is_error, exit 1", async () => {
    const w = harness.world();
    respond(() => ({ toolCalls: [{ name: "ls", args: { path: "." } }] }));
    const r = await runXcsh(["-p", "loop", "--max-turns", "2", "--output-format", "json"], {
      cwd: w.cwd,
      home: w.home,
    });
    assert.equal(r.code, 1, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.type, "result");
    assert.equal(out.subtype, "error_max_turns");
    assert.equal(out.is_error, true);
    assert.equal(out.num_turns, 2);
  });

  test("--max-budget-usd: the run's budget stops the call that could pass it", async () => {
    const extra =
      `  anth: { type: anthropic, baseURL: "${server.url}/v1", apiKeyEnv: TEST_ANTH_KEY }\n`;
    const w = harness.keep(makeWorld(
      localConfig(server.url).replace(/(providers:\n {2}local: [^\n]*\n)/, `$1${extra}`),
    ));
    // Each call costs $0.30 on Claude Sonnet 4.5 ($3 per million input tokens).
    respond(() => ({
      toolCalls: [{ name: "ls", args: { path: "." } }],
      usage: { input: 100_000, output: 0 },
    }));
    server.requests.length = 0;
    const r = await runXcsh([
      "-p",
      "loop",
      "--model",
      "anth/claude-sonnet-4-5",
      "--max-budget-usd",
      "2.5",
      "--max-turns",
      "40",
      "--output-format",
      "json",
    ], { cwd: w.cwd, home: w.home, env: { TEST_ANTH_KEY: "k" } });
    assert.equal(r.code, 1, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.subtype, "error_max_budget_usd", r.stdout);
    assert.equal(out.is_error, true);
    assert.match(out.result, /run's budget/);
    // Each call reserves what it may cost at most before it is made: the one
    // that could pass $2.50 is never sent, so the spend stays within it.
    assert.ok(
      server.requests.length >= 2 && server.requests.length < 40,
      `${server.requests.length} calls`,
    );
    assert.ok(out.total_cost_usd <= 2.5, String(out.total_cost_usd));
    assert.ok(Math.abs(out.total_cost_usd - server.requests.length * 0.3) < 1e-9);
  });

  test("--max-budget-usd over a model with no price: refused, or counted free when asked", async () => {
    // The OpenAI wire, priced by OpenAI's list, which has no such model.
    const extra = `  far: { type: openai, baseURL: "${server.url}/v1", ` +
      `apiKeyEnv: TEST_FAR_KEY }\n`;
    const w = harness.keep(makeWorld(
      localConfig(server.url).replace(/(providers:\n {2}local: [^\n]*\n)/, `$1${extra}`),
    ));
    respond(() => ({ text: "answered" }));
    const base = ["-p", "go", "--model", "far/gpt-unheard-of-9", "--max-budget-usd", "1"];
    const opts = { cwd: w.cwd, home: w.home, env: { TEST_FAR_KEY: "k" } };
    server.requests.length = 0;
    const refused = await runXcsh(base, opts);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr + refused.stdout, /no price is known for far\/gpt-unheard-of-9/);
    assert.match(refused.stderr + refused.stdout, /--budget-unpriced-free/);
    assert.equal(server.requests.length, 0, "refused before the first call");
    const free = await runXcsh([...base, "--budget-unpriced-free"], opts);
    assert.equal(free.code, 0, free.stderr);
    assert.match(free.stdout, /answered/);
  });

  test("a refusal (an unknown agent) is a result with is_error under json, exit 1", async () => {
    const w = harness.world();
    const r = await runXcsh(["-p", "--agent", "nobody", "go", "--output-format", "json"], {
      cwd: w.cwd,
      home: w.home,
    });
    assert.equal(r.code, 1, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.is_error, true);
    assert.match(out.result, /nobody/);
  });

  test("--continue with no session in this folder: one line, exit 2", async () => {
    const w = harness.world();
    const r = await runXcsh(["-p", "--continue", "go"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--continue: no session was started in this folder/);
  });

  for (
    const [args, pattern] of [
      [["--max-budget-usd", "0"], /--max-budget-usd: expected a positive number/],
      [["--max-budget-usd=-1"], /--max-budget-usd: expected a positive number/],
      [["--max-budget-usd", "$5"], /--max-budget-usd: expected a positive number/],
      [["--output-format", "xml"], /--output-format: expected text, json, stream-json, got "xml"/],
      [
        ["--permission-mode", "yolo"],
        /--permission-mode: expected one of default, acceptEdits, plan/,
      ],
      [["--allowedTools", "Bash(git"], /--allowedTools: /],
      [["--json-schema", "{not json"], /^xcsh: --json-schema: not valid JSON/m],
      [
        ["--outputformat", "json"],
        /unknown flag '--outputformat' \(did you mean '--output-format'\?\)/,
      ],
    ] as const
  ) {
    test(`bad input: ${args.join(" ")} exits 2 naming the flag`, async () => {
      const w = harness.world();
      server.requests.length = 0;
      const r = await runXcsh(["-p", ...args, "go"], { cwd: w.cwd, home: w.home });
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, pattern);
      assert.doesNotMatch(r.stderr, /\n\s+at /, "no stack trace");
      assert.equal(server.requests.length, 0);
    });
  }

  test("xcsh run names the nearest flag: --json-schema → --schema", async () => {
    const w = harness.world();
    const r = await runXcsh(["run", "task", "--json-schema", "{}", "go"], {
      cwd: w.cwd,
      home: w.home,
    });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /unknown flag '--json-schema' \(did you mean '--schema'\?\)/);
  });
});
