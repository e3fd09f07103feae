// End-to-end: the output schema travels inside submit_result's parameters, in
// each of the four wire formats (Anthropic Messages, OpenAI chat completions,
// OpenAI Responses, Gemini). The scripted model builds its answer ONLY from the
// tool schema it is offered (tests/support/schema-instance.ts), as a model
// that follows tool schemas does, and must succeed for the bundled `explore`
// and `reviewer` and a JTD `--schema`. Also: reminders force the tool choice,
// a provider refusing tool_choice gets the plain reminder, Anthropic requests
// carry at most four cache breakpoints, cached tokens reach --json usage, and
// one turn's output is capped.
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type RunResult, runXcsh } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import type { RecordedRequest, Turn } from "../support/model-server.ts";
import { forcedTool, offeredTool, schemaFollower } from "../support/schema-instance.ts";
import { agentMd } from "../support/world.ts";

const KEY = "sk-test-schema-key-0123456789";

// deno-lint-ignore no-explicit-any
type Json = any;

interface Wire {
  name: RecordedRequest["format"];
  model: string;
  env: (url: string) => Record<string, string>;
}

const WIRES: Wire[] = [
  {
    name: "anthropic",
    model: "anthropic/claude-test",
    env: (url) => ({ ANTHROPIC_BASE_URL: `${url}/v1`, ANTHROPIC_API_KEY: KEY }),
  },
  { name: "openai", model: "local/mock-large", env: () => ({}) },
  {
    name: "responses",
    model: "openai/gpt-test",
    env: (url) => ({ OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: KEY }),
  },
  {
    name: "google",
    model: "google/gemini-test",
    env: (url) => ({ GEMINI_BASE_URL: `${url}/v1beta`, GEMINI_API_KEY: KEY }),
  },
];

/** A JTD schema using every form, a recursive `ref` and a map (no strict form). */
const JTD_ALL = {
  definitions: {
    node: {
      properties: { name: { type: "string" } },
      optionalProperties: { children: { elements: { ref: "node" } } },
    },
  },
  properties: {
    count: { type: "uint8" },
    when: { type: "timestamp" },
    level: { enum: ["low", "high"] },
    tags: { elements: { type: "string" } },
    scores: { values: { type: "float64" } },
    shape: {
      discriminator: "kind",
      mapping: {
        circle: { properties: { r: { type: "float32" } } },
        square: { properties: { side: { type: "int16" } } },
      },
    },
    tree: { ref: "node" },
    note: { type: "string", nullable: true },
  },
  optionalProperties: { extra: { type: "boolean" } },
};

/** A JTD schema OpenAI's strict mode can express (optional properties included). */
const JTD_STRICT = {
  properties: {
    id: { type: "int32" },
    items: { elements: { properties: { n: { type: "uint16" } } } },
  },
  optionalProperties: { label: { type: "string" }, at: { type: "timestamp" } },
};

let respond: (req: RecordedRequest, index: number) => Turn = schemaFollower;
let offset = 0;
const harness = modelHarness({ cache: "computed", respond: (req, i) => respond(req, i - offset) });
const { server } = harness;

/** This test's requests; `respond` sees indexes counted from this test's first. */
function script(fn: (req: RecordedRequest, index: number) => Turn): () => RecordedRequest[] {
  offset = server.requests.length;
  const start = offset;
  respond = fn;
  return () => server.requests.slice(start);
}

async function run(
  wire: Wire,
  args: string[],
  agents: Record<string, string> = {},
): Promise<{ r: RunResult; doc: Json }> {
  const w = harness.world({
    config: `providers:\n  local: { type: openai-compatible, baseURL: "${server.url}/v1" }\n`,
    agents,
  });
  writeFileSync(join(w.cwd, "hello.txt"), "hello\nworld\n");
  const r = await runXcsh(["run", ...args, "--model", wire.model, "--json"], {
    cwd: w.cwd,
    home: w.home,
    env: { XCSH_RETRY_BASE_MS: "5", ...wire.env(server.url) },
  });
  let doc: Json;
  try {
    doc = JSON.parse(r.stdout);
  } catch {
    assert.fail(`not JSON (exit ${r.code}):\n${r.stdout}\n${r.stderr}`);
  }
  assert.ok(!r.stdout.includes(KEY) && !r.stderr.includes(KEY), "the key leaked");
  return { r, doc };
}

function ok(r: RunResult, doc: Json): Json {
  assert.equal(doc.results?.[0]?.status, "ok", `${JSON.stringify(doc)}\n${r.stderr}`);
  assert.equal(r.code, 0);
  return doc.results[0];
}

for (const wire of WIRES) {
  describe(`a model that follows tool schemas (${wire.name} wire format)`, () => {
    test("the bundled explore succeeds on the first submission", async () => {
      const reqs = script(schemaFollower);
      const { r, doc } = await run(wire, ["explore", "Where is the greeting?"]);
      const result = ok(r, doc);
      assert.equal(reqs().length, 1, "one model call: the first submission was valid");
      assert.equal(typeof result.data.query, "string");
      assert.equal(result.data.files.length, 1);
      const params = offeredTool(reqs()[0], "submit_result");
      const data = params.properties.result.anyOf[0].properties.data;
      assert.deepEqual(
        [...(data.required ?? [])].sort(),
        ["architecture", "code", "files", "query", "start_here"],
      );
    });

    test("the bundled reviewer succeeds on the first submission", async () => {
      const reqs = script(schemaFollower);
      const { r, doc } = await run(wire, ["reviewer", "Review hello.txt"]);
      const result = ok(r, doc);
      assert.equal(reqs().length, 1);
      assert.ok(["correct", "incorrect"].includes(result.data.overall_correctness));
    });

    test("a JTD --schema with every form succeeds", async () => {
      const reqs = script(schemaFollower);
      const { r, doc } = await run(wire, [
        "task",
        "Count things",
        "--schema",
        JSON.stringify(JTD_ALL),
      ]);
      const result = ok(r, doc);
      assert.equal(reqs().length, 1);
      assert.equal(result.data.count, 0);
      assert.equal(result.data.when, "2026-12-01T00:00:00Z");
      assert.deepEqual(result.data.tree, { name: "x" });
      const sent = JSON.stringify(reqs()[0].body);
      if (wire.name === "google") assert.ok(!sent.includes("$ref"), "Gemini gets refs inlined");
      if (wire.name === "responses") {
        const tool = reqs()[0].body.tools.find((t: Json) => t.name === "submit_result");
        assert.equal(tool.strict, false, "a map has no strict form");
      }
    });

    test("a reminder forces submit_result on the next turn", async () => {
      const reqs = script((
        req,
        i,
      ) => (i === 0 ? { text: "All done, nothing to add." } : schemaFollower(req)));
      const { r, doc } = await run(wire, ["task", "Count", "--schema", JSON.stringify(JTD_STRICT)]);
      ok(r, doc);
      assert.equal(reqs().length, 2);
      assert.equal(forcedTool(reqs()[0]), undefined, "the first turn is free");
      assert.equal(forcedTool(reqs()[1]), "submit_result");
    });
  });
}

describe("provider specifics", () => {
  test("OpenAI gets the strict form; a null for an optional property means absent", async () => {
    const wire = WIRES.find((w) => w.name === "responses")!;
    const reqs = script(schemaFollower);
    const { r, doc } = await run(wire, ["task", "Count", "--schema", JSON.stringify(JTD_STRICT)]);
    const result = ok(r, doc);
    const tool = reqs()[0].body.tools.find((t: Json) => t.name === "submit_result");
    assert.equal(tool.strict, true);
    const data = tool.parameters.properties.result.anyOf[0].properties.data;
    assert.deepEqual(data.required, ["id", "items", "label", "at"]);
    assert.deepEqual(data.properties.label.type, ["string", "null"]);
    // The model sent label: null and at: null; the result leaves them out.
    assert.deepEqual(result.data, { id: -2147483648, items: [{ n: 0 }] });
    assert.equal(typeof reqs()[0].body.prompt_cache_key, "string");
    assert.equal(reqs()[0].body.store, false);
  });

  test("a provider refusing tool_choice gets the plain reminder", async () => {
    const wire = WIRES.find((w) => w.name === "openai")!;
    const reqs = script((req, i) => {
      if (forcedTool(req)) return { fault: "400", message: "tool_choice is not supported" };
      return i === 0 ? { text: "Finished." } : schemaFollower(req);
    });
    const { r, doc } = await run(wire, ["task", "Count", "--schema", JSON.stringify(JTD_STRICT)]);
    ok(r, doc);
    assert.deepEqual(reqs().map((q) => forcedTool(q)), [undefined, "submit_result", undefined]);
  });

  test("Anthropic without thinking gets tool_choice {type: tool}", async () => {
    const wire = WIRES.find((w) => w.name === "anthropic")!;
    const reqs = script((req, i) => (i === 0 ? { text: "Done." } : schemaFollower(req)));
    const { r, doc } = await run(wire, ["plain", "Count", "--schema", JSON.stringify(JTD_STRICT)], {
      plain: agentMd("plain", ""),
    });
    ok(r, doc);
    assert.equal(reqs()[0].body.tool_choice?.type, "auto");
    assert.deepEqual(reqs()[1].body.tool_choice, { type: "tool", name: "submit_result" });
  });

  test("Anthropic requests carry at most four breakpoints and read the cache", async () => {
    const wire = WIRES.find((w) => w.name === "anthropic")!;
    const reqs = script((req, i) =>
      i < 3 ? { toolCalls: [{ name: "read", args: { path: "hello.txt" } }] } : schemaFollower(req)
    );
    const { r, doc } = await run(wire, ["task", "Read", "--schema", JSON.stringify(JTD_STRICT)]);
    const result = ok(r, doc);
    assert.equal(reqs().length, 4);
    for (const q of reqs()) {
      const marks = (JSON.stringify(q.body).match(/"cache_control"/g) ?? []).length;
      assert.ok(marks >= 3 && marks <= 4, `${marks} breakpoints`);
      assert.ok(q.body.tools.at(-1).cache_control, "the tools are cached");
      assert.ok(q.body.system.at(-1).cache_control, "the system prompt is cached");
      const last = q.body.messages.at(-1).content;
      assert.ok(last.at(-1).cache_control, "the end of the conversation is cached");
    }
    assert.ok(result.usage.cacheRead > 0, `usage ${JSON.stringify(result.usage)}`);
    assert.ok(result.usage.cacheWrite > 0);
    assert.ok(result.usage.input > result.usage.cacheRead);
  });

  test("one turn's output past 1 MiB fails the task with a clear error", async () => {
    const wire = WIRES.find((w) => w.name === "anthropic")!;
    const reqs = script(() => ({ text: "y".repeat(1024 * 1024 + 10) }));
    const { r, doc } = await run(wire, ["task", "Talk"]);
    assert.equal(r.code, 1);
    assert.match(doc.results[0].error, /the model's turn passed 1 MiB of output/);
    assert.equal(reqs().length, 1, "not retried");
  });
});
