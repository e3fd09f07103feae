// End to end: Codex's `model_verbosity` in an agent file, through the built
// binary against the scripted model server (strict: it refuses a verbosity
// the real Responses API refuses). An OpenAI GPT-5 model gets it as
// `text.verbosity`; a model without the setting gets nothing and the run
// says so once; a Codex TOML agent works the same; a bad value is a warning
// naming the file and the field, and the run goes on without it.
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runXcsh } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import { agentMd, type World } from "../support/world.ts";

const KEY = "sk-test-verbosity-0123456789";
const harness = modelHarness({ respond: () => ({ text: "done" }) });
const { server } = harness;

/** Runs `agent` in `w` with OpenAI and Anthropic pointed at the server. */
async function run(w: World, agent: string) {
  server.requests.length = 0;
  const r = await runXcsh(["run", agent, "go"], {
    cwd: w.cwd,
    home: w.home,
    env: {
      OPENAI_BASE_URL: `${server.url}/v1`,
      OPENAI_API_KEY: KEY,
      ANTHROPIC_BASE_URL: `${server.url}/v1`,
      ANTHROPIC_API_KEY: KEY,
      XCSH_RETRY_BASE_MS: "5",
    },
  });
  assert.equal(r.code, 0, r.stderr);
  assert.ok(server.requests.length > 0, r.stderr);
  return r;
}

/** The stderr lines that speak of model_verbosity. */
const verbosityLines = (stderr: string) =>
  stderr.split("\n").filter((l) => l.includes("model_verbosity"));

describe("model_verbosity", () => {
  test("an OpenAI GPT-5 model is sent it as text.verbosity", async () => {
    const w = harness.world({
      agents: { brief: agentMd("brief", "model: openai/gpt-5\nmodel_verbosity: low\n") },
    });
    const r = await run(w, "brief");
    const req = server.requests[0];
    assert.equal(req.format, "responses");
    assert.equal(req.body.text?.verbosity, "low");
    assert.deepEqual(verbosityLines(r.stderr), [], r.stderr);
    const check = await runXcsh(["agents", "check"], { cwd: w.cwd, home: w.home });
    assert.doesNotMatch(check.stdout, /model_verbosity/, check.stdout);
    const show = await runXcsh(["agents", "show", "brief", "--json"], { cwd: w.cwd, home: w.home });
    assert.equal(JSON.parse(show.stdout).agent.verbosity, "low", show.stdout);
  });

  test("an Anthropic model is sent nothing of it; the run says why once", async () => {
    const w = harness.world({
      agents: {
        brief: agentMd("brief", "model: anthropic/claude-sonnet-4-5\nmodel_verbosity: low\n"),
      },
    });
    const r = await run(w, "brief");
    const req = server.requests[0];
    assert.equal(req.format, "anthropic");
    assert.doesNotMatch(req.raw, /verbosity/);
    const lines = verbosityLines(r.stderr);
    assert.equal(lines.length, 1, r.stderr);
    assert.match(
      lines[0],
      /warning: .*brief\.md: agent 'brief': 'model_verbosity' low not sent: anthropic\/claude-sonnet-4-5 has no verbosity setting$/,
    );
  });

  test("an OpenAI model before GPT-5 takes only medium: low is not sent, and said", async () => {
    const w = harness.world({
      agents: { old: agentMd("old", "model: openai/gpt-4.1\nmodel_verbosity: low\n") },
    });
    const r = await run(w, "old");
    assert.equal(server.requests[0].body.text?.verbosity, undefined);
    const lines = verbosityLines(r.stderr);
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0], /'model_verbosity' low not sent: openai\/gpt-4\.1 takes only medium$/);
  });

  test('a Codex TOML agent\'s model_verbosity = "high" is sent the same way', async () => {
    const w = harness.world();
    mkdirSync(join(w.cwd, ".codex", "agents"), { recursive: true });
    writeFileSync(
      join(w.cwd, ".codex", "agents", "wordy.toml"),
      'name = "wordy"\ndescription = "Explains"\nmodel = "openai/gpt-5.1"\n' +
        'model_verbosity = "high"\ndeveloper_instructions = "Explain."\n',
    );
    const r = await run(w, "wordy");
    assert.equal(server.requests[0].body.text?.verbosity, "high");
    assert.deepEqual(verbosityLines(r.stderr), [], r.stderr);
  });

  test("a bad value is a warning naming the file and the field; the run goes on without it", async () => {
    const w = harness.world({
      agents: { loud: agentMd("loud", "model: openai/gpt-5\nmodel_verbosity: loud\n") },
    });
    const r = await run(w, "loud");
    assert.equal(server.requests[0].body.text?.verbosity, undefined);
    assert.match(r.stderr, /1 agent file has warnings \(xcsh agents check\)/);
    const check = await runXcsh(["agents", "check"], { cwd: w.cwd, home: w.home });
    const lines = verbosityLines(check.stdout);
    assert.equal(lines.length, 1, check.stdout);
    assert.match(
      lines[0],
      /loud\.md: 'model_verbosity' must be low, medium or high, not string "loud"; ignored/,
    );
  });
});
