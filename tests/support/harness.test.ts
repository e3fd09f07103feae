// Tests for the e2e harness: what its server stands for before and after
// `before`, the responder it swaps, the worlds it makes and the order of its
// set-up and tear-down.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { modelHarness } from "./harness.ts";

const seen: string[] = [];
const { server, respond, world } = modelHarness({
  respond: () => ({ text: "first" }),
  setup: () => {
    seen.push(`setup ${server.url}`);
  },
  // The server still answers here (a refused connection fails the file): it
  // closes after the tear-down.
  teardown: async () => void await ask(),
});

let early: unknown;
try {
  void server.url;
} catch (err) {
  early = err;
}

function ask(): Promise<Response> {
  return fetch(`${server.url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer test-key" },
    body: JSON.stringify({ model: "mock-small", messages: [{ role: "user", content: "hi" }] }),
  });
}

async function answer(): Promise<string> {
  const r = await ask();
  assert.equal(r.status, 200);
  return (await r.json()).choices[0].message.content;
}

describe("model harness", () => {
  test("the server cannot be read before it starts; setup runs once it listens", () => {
    assert.match(String(early), /model server is not started yet/);
    assert.equal(seen.length, 1);
    assert.match(seen[0], /^setup http:\/\/127\.0\.0\.1:\d+$/);
  });

  test("the responder answers an empty queue and can be swapped or removed", async () => {
    assert.equal(await answer(), "first");
    respond(() => ({ text: "second" }));
    assert.equal(await answer(), "second");
    server.script([{ text: "queued" }]);
    assert.equal(await answer(), "queued", "the queue comes first");
    respond(undefined);
    const r = await ask();
    assert.equal(r.status, 500);
    assert.match(await r.text(), /no scripted turn left/);
    assert.equal(server.requests.length, 4);
  });

  test("the peak of requests in flight is the running server's, reset through it", async () => {
    respond(() => ({ text: "peak" }));
    assert.equal(await answer(), "peak");
    assert.equal(server.peakInFlight(), 1);
    server.resetPeak();
    assert.equal(server.peakInFlight(), 0);
  });

  test("a world's config points at the server; agents and full configs are honoured", () => {
    const w = world({ agents: { boss: "---\nname: boss\n---\nLead.\n" }, extraConfig: "x: 1\n" });
    const config = readFileSync(join(w.home, ".xcsh", "agent", "config.yml"), "utf8");
    assert.ok(config.includes(`baseURL: "${server.url}/v1"`), config);
    assert.ok(config.endsWith("x: 1\n"), config);
    assert.ok(existsSync(join(w.cwd, ".xcsh", "agents", "boss.md")));
    const own = world({ config: "models: {}\n" });
    assert.equal(
      readFileSync(join(own.home, ".xcsh", "agent", "config.yml"), "utf8"),
      "models: {}\n",
    );
  });
});
