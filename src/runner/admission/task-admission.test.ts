import { test } from "node:test";
import assert from "node:assert/strict";
import { createLimiter } from "../../process/concurrency.ts";
import { RateLimitView } from "../../model/rate-limit-view.ts";
import { pausedProvider, queued } from "./task-admission.ts";

test("a full cap queues a task and it says so; a free slot starts it at once", async () => {
  const cap = createLimiter(1);
  const said: string[] = [];
  let release = () => {};
  const first = queued(cap, () => said.push("a"), () => new Promise<void>((r) => release = r));
  const second = queued(cap, () => said.push("b"), () => Promise.resolve());
  assert.deepEqual(said, ["b"]);
  release();
  await Promise.all([first, second]);
});

test("a task waits while its provider is paused, then starts", async () => {
  const view = new RateLimitView();
  view.observe({ provider: "openai", key: "k" }, { pauseUntil: Date.now() + 40 }, Date.now());
  const waits: [number, string][] = [];
  await pausedProvider("openai/gpt-x", undefined, (ms, p) => waits.push([ms, p]), view);
  assert.equal(waits.length, 1);
  assert.equal(waits[0][1], "openai");
  assert.ok(view.providerPausedUntil("openai", Date.now()) === undefined);
  await pausedProvider("anthropic/claude", undefined, () => assert.fail("not paused"), view);
  await pausedProvider(null, undefined, () => assert.fail("no provider"), view);
});
