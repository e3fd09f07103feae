// Tests for the e2e harness: what its server stands for before and after
// `before`, the responder it swaps, the worlds it makes, the order of its
// set-up and tear-down, and a second harness that lives for one group.

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

function ask(url = server.url): Promise<Response> {
  return fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer test-key" },
    body: JSON.stringify({ model: "mock-small", messages: [{ role: "user", content: "hi" }] }),
  });
}

async function answer(url?: string): Promise<string> {
  const r = await ask(url);
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

const second: { url?: string } = {};

describe("a second harness inside a describe", () => {
  const group = modelHarness({ respond: () => ({ text: "second server" }) });

  test("is a server of its own beside the file's, with its own responder", async () => {
    second.url = group.server.url;
    assert.notEqual(group.server.url, server.url);
    respond(() => ({ text: "file server" }));
    assert.equal(await answer(group.server.url), "second server");
    assert.equal(await answer(), "file server");
    assert.equal(group.server.requests.length, 1);
  });
});

describe("after that group", () => {
  test("its server is closed; the file's still answers", async () => {
    assert.ok(second.url);
    await assert.rejects(ask(second.url));
    assert.equal(await answer(), "file server");
  });
});
