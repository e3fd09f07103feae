// Tests for the rate limiter of the scripted model server: the bucket rules
// with a fake clock, and the headers and 429s over HTTP per wire format.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { openAIDuration, RateLimiter, requestKey } from "./rate-limits.ts";
import { startModelServer } from "./model-server.ts";

describe("RateLimiter", () => {
  test("requests per minute refill continuously and are counted per key", () => {
    let now = 0;
    const l = new RateLimiter({ requestsPerMinute: 2, minuteMs: 600 }, () => now);
    assert.equal(l.admit("openai", "a", "m", 1).ok, true);
    assert.equal(l.admit("openai", "a", "m", 1).ok, true);
    const third = l.admit("openai", "a", "m", 1);
    assert.equal(third.ok, false);
    if (!third.ok) {
      assert.equal(third.headers["retry-after-ms"], "300");
      assert.equal(third.headers["x-ratelimit-remaining-requests"], "0");
    }
    assert.equal(l.admit("openai", "b", "m", 1).ok, true, "another key has its own limit");
    now = 300;
    assert.equal(l.admit("openai", "a", "m", 1).ok, true, "half a minute refills one request");
    assert.deepEqual(l.counts, { allowed: 4, refused: 1 });
  });

  test("per model limits only with perModel", () => {
    const l = new RateLimiter({ requestsPerMinute: 1, perModel: true }, () => 0);
    assert.equal(l.admit("google", "k", "m1", 1).ok, true);
    assert.equal(l.admit("google", "k", "m2", 1).ok, true);
    assert.equal(l.admit("google", "k", "m1", 1).ok, false);
  });

  test("tokens per minute and concurrency", () => {
    const l = new RateLimiter({ tokensPerMinute: 100, concurrent: 1 }, () => 0);
    const first = l.admit("anthropic", "k", "m", 60);
    assert.equal(first.ok, true);
    if (!first.ok) return;
    assert.equal(first.headers["anthropic-ratelimit-tokens-remaining"], "40");
    assert.equal(l.admit("anthropic", "k", "m", 10).ok, false, "one in flight already");
    first.release();
    const over = l.admit("anthropic", "k", "m", 60);
    assert.equal(over.ok, false, "60 tokens, 40 left");
    if (!over.ok) {
      assert.equal(over.headers["retry-after"], "12");
      assert.equal((over.body as { error: { type: string } }).error.type, "rate_limit_error");
    }
  });

  test("Gemini's 429 holds RetryInfo and no headers", () => {
    const l = new RateLimiter({ requestsPerMinute: 1, minuteMs: 6000 }, () => 0);
    l.admit("google", "k", "gemini-x", 1);
    const d = l.admit("google", "k", "gemini-x", 1);
    assert.equal(d.ok, false);
    if (d.ok) return;
    assert.deepEqual(d.headers, {});
    const err = (d.body as { error: { status: string; details: { retryDelay?: string }[] } }).error;
    assert.equal(err.status, "RESOURCE_EXHAUSTED");
    assert.equal(err.details.find((x) => x.retryDelay)?.retryDelay, "6s");
  });

  test("durations and keys", () => {
    assert.equal(openAIDuration(20), "20ms");
    assert.equal(openAIDuration(1000), "1s");
    assert.equal(openAIDuration(360_000), "6m0s");
    assert.equal(requestKey({ authorization: "Bearer sk-1" }, ""), "sk-1");
    assert.equal(requestKey({}, "key=g1&alt=sse"), "g1");
  });
});

describe("model server with rateLimits", () => {
  test("headers on every answer, the provider's 429 past the limit, no turn used", async () => {
    const server = await startModelServer({
      rateLimits: { requestsPerMinute: 1, minuteMs: 60_000 },
      respond: () => ({ text: "ok" }),
    });
    try {
      const body = {
        model: "claude-sonnet-4-5",
        max_tokens: 100,
        messages: [{ role: "user", content: "hi" }],
      };
      const init = {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": "k1" },
        body: JSON.stringify(body),
      };
      const ok = await fetch(`${server.url}/v1/messages`, init);
      await ok.text();
      assert.equal(ok.status, 200);
      assert.equal(ok.headers.get("anthropic-ratelimit-requests-limit"), "1");
      assert.equal(ok.headers.get("anthropic-ratelimit-requests-remaining"), "0");
      assert.ok(Date.parse(ok.headers.get("anthropic-ratelimit-requests-reset") ?? "") > 0);
      const refused = await fetch(`${server.url}/v1/messages`, init);
      const err = await refused.json();
      assert.equal(refused.status, 429);
      assert.equal(refused.headers.get("retry-after"), "60");
      assert.equal(err.error.type, "rate_limit_error");
      assert.deepEqual(server.limited(), { allowed: 1, refused: 1 });
    } finally {
      await server.close();
    }
  });
});
