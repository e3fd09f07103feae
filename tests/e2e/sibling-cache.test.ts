// End-to-end: siblings of a fan-out share their cached prompt prefix. On the
// Anthropic wire (the model server counting cache reads and writes from the
// requests' breakpoints, a write readable only once its answer starts), the
// first task's first request writes the tools and system prompt to the cache
// and the other tasks' first requests read them, although all four were asked
// for together and the first answer is slow. On a provider without cache
// breakpoints the four first requests are in flight together (nothing waits).
// Asserts cache tokens and the server's in-flight count, never times.
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { runXcsh } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import { promptTokens } from "../support/prompt-cache.ts";
import type { RecordedRequest } from "../support/model-server.ts";
import { agentMd } from "../support/world.ts";

const KEY = "sk-ant-test-sibling-cache-0123456789";
const harness = modelHarness({ cache: "computed" });
const { server, respond } = harness;

const TASKS = ["a", "b", "c", "d"];
const taskFlags = TASKS.map((t) => `--task=${t}=Say ${t}.`);

/** Tokens of the request before its messages: the tools and the system prompt. */
function prefixTokens(req: RecordedRequest): number {
  return promptTokens("anthropic", { ...req.body, messages: [] });
}

describe("siblings' first requests", () => {
  test("on Anthropic, the first writes the prefix and the others read it", async () => {
    const w = harness.world({
      agents: { worker: agentMd("worker", "tools: read, grep\nmodel: anthropic/claude-test\n") },
    });
    server.requests.length = 0;
    // The first answer is slow: siblings sent at the same time would find no
    // cache entry yet (the server makes a write readable when its answer starts).
    respond((_req, i) => ({ text: "done", ...(i === 0 ? { delayMs: 1500 } : {}) }));
    const r = await runXcsh(["run", "worker", ...taskFlags, "--json"], {
      cwd: w.cwd,
      home: w.home,
      env: { ANTHROPIC_BASE_URL: `${server.url}/v1`, ANTHROPIC_API_KEY: KEY },
    });
    assert.equal(r.code, 0, r.stderr);
    const firsts = server.requests.filter((q) => q.path === "/v1/messages");
    assert.equal(firsts.length, TASKS.length);
    const [leader, ...followers] = firsts;
    const prefix = prefixTokens(leader);
    assert.equal(leader.usage?.cacheRead, 0, "the first request finds nothing cached");
    assert.ok((leader.usage?.cacheWrite ?? 0) >= prefix, "the first request writes the prefix");
    for (const f of followers) {
      assert.equal(prefixTokens(f), prefix, "the siblings send the same prefix");
      assert.equal(f.usage?.cacheRead, prefix, "a sibling reads the prefix the first wrote");
      assert.ok((f.usage?.cacheWrite ?? 0) < prefix, "and writes only its own assignment");
    }
    // The reads reach each task's usage.
    const results = JSON.parse(r.stdout).results as { usage: { cacheRead: number } }[];
    assert.equal(results.filter((x) => x.usage.cacheRead === prefix).length, TASKS.length - 1);
  });

  test("on a provider without cache breakpoints, nobody waits", async () => {
    const w = harness.world({
      agents: { worker: agentMd("worker", "tools: read, grep\nmodel: local/mock-large\n") },
    });
    server.requests.length = 0;
    server.resetPeak();
    // Each answer is held until all four requests have arrived (at most 10 s):
    // a fan-out that held its siblings back would leave the first alone.
    respond(() => ({ text: "done", holdTogether: TASKS.length }));
    const r = await runXcsh(["run", "worker", ...taskFlags, "--json"], {
      cwd: w.cwd,
      home: w.home,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(server.requests.length, TASKS.length);
    assert.equal(server.peakInFlight(), TASKS.length);
  });
});
