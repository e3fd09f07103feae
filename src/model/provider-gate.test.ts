import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  keyFingerprint,
  mergeRateLimit,
  newsOf,
  providerGate,
  type RateLimitNews,
  scopeOf,
  setProviderLimits,
} from "./provider-gate.ts";
import { RateLimitView } from "./rate-limit-view.ts";

const signal = new AbortController().signal;

/** An error shaped like the AI SDK's APICallError for a 429. */
function rateLimited(headers: Record<string, string>, body = "") {
  return Object.assign(new Error("rate limited"), {
    name: "AI_APICallError",
    statusCode: 429,
    responseHeaders: headers,
    responseBody: body,
  });
}

describe("providerGate", () => {
  test("one 429 holds the sibling call of the same provider and key", async () => {
    const view = new RateLimitView();
    const news: RateLimitNews[] = [];
    const p = { name: "openai", type: "openai", apiKey: "sk-one" };
    const first = providerGate(p, "gpt-x", { onLearn: (n) => news.push(n) }, view);
    const waits: number[] = [];
    const sibling = providerGate(p, "gpt-x", { onWait: (ms) => waits.push(ms) }, view);
    await assert.rejects(
      first.run(() => Promise.reject(rateLimited({ "retry-after-ms": "80" })), { signal }),
    );
    assert.equal(news.length, 1);
    assert.equal(news[0].provider, "openai");
    assert.equal(news[0].key, keyFingerprint("sk-one"));
    assert.ok(!JSON.stringify(news).includes("sk-one"), "the key never leaves");
    const out = await sibling.run(() => Promise.resolve({ text: "ok" }), { signal });
    assert.equal(out.text, "ok");
    assert.equal(waits.length, 1, "the sibling waited for the pause");
    assert.ok(waits[0] > 0 && waits[0] <= 88);
    const other = providerGate({ ...p, apiKey: "sk-two" }, "gpt-x", {
      onWait: () => assert.fail("another key is not paused"),
    }, view);
    await other.run(() => Promise.resolve({}), { signal });
  });

  test("headers of a good answer are read: nothing left waits for the reset", async () => {
    const view = new RateLimitView();
    const p = { name: "anthropic", type: "anthropic", apiKey: "k" };
    const g = providerGate(p, "claude-x", {}, view);
    const reset = new Date(Date.now() + 60_000).toISOString();
    await g.run(() =>
      Promise.resolve({
        headers: {
          "anthropic-ratelimit-requests-remaining": "0",
          "anthropic-ratelimit-requests-reset": reset,
        },
      }), { signal });
    assert.ok(view.waitMs(g.scope, Date.now(), 0) > 50_000);
  });

  test("Gemini is scoped per model; a 429's RetryInfo pauses that model only", async () => {
    const view = new RateLimitView();
    const p = { name: "google", type: "google", apiKey: "g" };
    const body = JSON.stringify({
      error: {
        code: 429,
        details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "30s" }],
      },
    });
    const g = providerGate(p, "gemini-a", {}, view);
    await assert.rejects(g.run(() => Promise.reject(rateLimited({}, body)), { signal }));
    assert.ok(view.waitMs(scopeOf(p, "gemini-a"), Date.now(), 0) > 29_000);
    assert.equal(view.waitMs(scopeOf(p, "gemini-b"), Date.now(), 0), 0);
  });

  test("maxConcurrentRequests queues calls, never refuses them", async () => {
    const view = new RateLimitView();
    setProviderLimits("capped", { maxConcurrentRequests: 2 });
    try {
      const g = providerGate({ name: "capped", type: "openai" }, "m", {}, view);
      let running = 0;
      let peak = 0;
      const call = async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 5));
        running--;
        return {};
      };
      await Promise.all(Array.from({ length: 6 }, () => g.run(call, { signal })));
      assert.equal(peak, 2);
    } finally {
      setProviderLimits("capped", undefined);
    }
  });

  test("a parent merges a child's news into its view", () => {
    const view = new RateLimitView();
    const now = Date.now();
    mergeRateLimit({ provider: "openai", key: "abc", pauseUntil: now + 1000 }, now, view);
    assert.equal(view.providerPausedUntil("openai", now), now + 1000);
    assert.equal(view.providerPausedUntil("anthropic", now), undefined);
    assert.equal(newsOf({ provider: "x", key: "k" }, { requestsRemaining: 3 }), undefined);
  });
});
