import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  MAX_PAUSE_MS,
  parseDuration,
  RateLimitView,
  readRateLimit,
  retryInfoDelayMs,
} from "./rate-limit-view.ts";

const T0 = Date.parse("2026-01-01T00:00:00Z");

describe("readRateLimit", () => {
  test("Anthropic headers: remaining counts and RFC 3339 resets", () => {
    const r = readRateLimit(
      "anthropic",
      {
        "Anthropic-RateLimit-Requests-Remaining": "3",
        "anthropic-ratelimit-requests-reset": "2026-01-01T00:00:02Z",
        "anthropic-ratelimit-tokens-remaining": "900",
        "anthropic-ratelimit-tokens-reset": "2026-01-01T00:00:01.500Z",
      },
      undefined,
      T0,
    );
    assert.deepEqual(r, {
      requestsRemaining: 3,
      requestsResetAt: T0 + 2000,
      tokensRemaining: 900,
      tokensResetAt: T0 + 1500,
    });
  });

  test("Anthropic 429: retry-after in seconds pauses", () => {
    const r = readRateLimit("anthropic", { "retry-after": "7" }, { status: 429 }, T0);
    assert.equal(r.pauseUntil, T0 + 7000);
  });

  test("OpenAI headers: durations, retry-after-ms before retry-after", () => {
    const r = readRateLimit(
      "openai",
      {
        "x-ratelimit-remaining-requests": "0",
        "x-ratelimit-reset-requests": "6m0s",
        "x-ratelimit-remaining-tokens": "149984",
        "x-ratelimit-reset-tokens": "20ms",
        "retry-after-ms": "250",
        "retry-after": "1",
      },
      { status: 429 },
      T0,
    );
    assert.equal(r.requestsRemaining, 0);
    assert.equal(r.requestsResetAt, T0 + 360_000);
    assert.equal(r.tokensResetAt, T0 + 20);
    assert.equal(r.pauseUntil, T0 + 250);
  });

  test("a 429 without retry headers waits for the reset of what ran out", () => {
    const r = readRateLimit(
      "openai",
      {
        "x-ratelimit-remaining-requests": "0",
        "x-ratelimit-reset-requests": "1.5s",
      },
      { status: 429 },
      T0,
    );
    assert.equal(r.pauseUntil, T0 + 1500);
  });

  test("Gemini 429: RetryInfo.retryDelay in the body", () => {
    const body = JSON.stringify({
      error: {
        code: 429,
        status: "RESOURCE_EXHAUSTED",
        details: [
          { "@type": "type.googleapis.com/google.rpc.QuotaFailure", violations: [] },
          { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "38s" },
        ],
      },
    });
    assert.equal(readRateLimit("google", {}, { status: 429, body }, T0).pauseUntil, T0 + 38_000);
    assert.equal(retryInfoDelayMs("not json"), undefined);
    assert.equal(retryInfoDelayMs({ error: { details: [{ retryDelay: "1s" }] } }), undefined);
  });

  test("a 200 sets no pause; bogus values are ignored; long resets are capped", () => {
    const r = readRateLimit(
      "openai",
      {
        "x-ratelimit-remaining-requests": "lots",
        "x-ratelimit-reset-requests": "soon",
        "x-ratelimit-reset-tokens": "99999h",
      },
      { status: 200 },
      T0,
    );
    assert.deepEqual(r, { tokensResetAt: T0 + MAX_PAUSE_MS });
  });

  test("durations", () => {
    assert.equal(parseDuration("1s"), 1000);
    assert.equal(parseDuration("6m0s"), 360_000);
    assert.equal(parseDuration("1h2m3.5s"), 3_723_500);
    assert.equal(parseDuration("20ms"), 20);
    assert.equal(parseDuration("0.5s"), 500);
    assert.equal(parseDuration("5 s"), undefined);
    assert.equal(parseDuration("s"), undefined);
  });
});

describe("RateLimitView", () => {
  const a = { provider: "anthropic", key: "k1" };
  const b = { provider: "anthropic", key: "k2" };

  test("one 429 pauses every request of its scope, and only its scope", () => {
    const v = new RateLimitView();
    v.observe(a, { pauseUntil: T0 + 2000 }, T0);
    assert.equal(v.waitMs(a, T0 + 500, 0), 1500);
    assert.equal(v.waitMs(b, T0 + 500, 0), 0);
    assert.equal(v.pauseUntil(a, T0 + 500), T0 + 2000);
    assert.equal(v.waitMs(a, T0 + 2000, 0.9), 0);
    assert.equal(v.pauseUntil(a, T0 + 2000), undefined);
  });

  test("jitter adds at most a tenth of the wait, at most 1 s", () => {
    const v = new RateLimitView();
    v.observe(a, { pauseUntil: T0 + 2000 }, T0);
    assert.equal(v.waitMs(a, T0, 0.5), 2100);
    v.observe(a, { pauseUntil: T0 + 60_000 }, T0);
    assert.equal(v.waitMs(a, T0, 0.999), 60_999);
  });

  test("a later answer never shortens a pause", () => {
    const v = new RateLimitView();
    v.observe(a, { pauseUntil: T0 + 5000 }, T0);
    v.observe(a, { pauseUntil: T0 + 1000, requestsRemaining: 3 }, T0);
    assert.equal(v.waitMs(a, T0, 0), 5000);
  });

  test("requests started count against what is left until the reset", () => {
    const v = new RateLimitView();
    v.observe(a, { requestsRemaining: 2, requestsResetAt: T0 + 3000 }, T0);
    assert.equal(v.waitMs(a, T0, 0), 0);
    v.started(a, T0);
    assert.equal(v.waitMs(a, T0, 0), 0);
    v.started(a, T0);
    assert.equal(v.waitMs(a, T0, 0), 3000, "two sent, none left");
    v.observe(a, { requestsRemaining: 1, requestsResetAt: T0 + 3000 }, T0 + 10);
    assert.equal(v.waitMs(a, T0 + 10, 0), 0, "a fresh answer replaces the count");
  });

  test("no tokens left waits for the tokens' reset", () => {
    const v = new RateLimitView();
    v.observe(a, { tokensRemaining: 0, tokensResetAt: T0 + 800 }, T0);
    assert.equal(v.waitMs(a, T0, 0), 800);
  });

  test("the user's pace spaces requests before any 429", () => {
    const v = new RateLimitView((p) => p === "anthropic" ? { requestsPerMinute: 120 } : undefined);
    assert.equal(v.waitMs(a, T0, 0), 0);
    v.started(a, T0);
    assert.equal(v.waitMs(a, T0, 0), 500);
    v.started(a, T0 + 500);
    assert.equal(v.waitMs(a, T0 + 600, 0), 400);
    const t = new RateLimitView(() => ({ tokensPerMinute: 6000 }));
    t.started(a, T0, 300);
    assert.equal(t.waitMs(a, T0, 0), 3000);
  });

  test("paused lists the scopes still paused", () => {
    const v = new RateLimitView();
    v.observe(a, { pauseUntil: T0 + 100 }, T0);
    v.observe(b, { pauseUntil: T0 + 50 }, T0);
    assert.deepEqual(v.paused(T0 + 60).map((p) => p.pauseUntil), [T0 + 100]);
  });
});

describe("RateLimitView with the limit known", () => {
  const a = { provider: "openai", key: "k1" };
  test("a spent bucket gives one request back per refill interval, not all at the reset", () => {
    const v = new RateLimitView();
    // 4 per 1200 ms: the bucket was empty at T0 and is full again at T0 + 1200.
    v.observe(a, { requestsRemaining: 0, requestsLimit: 4, requestsResetAt: T0 + 1200 }, T0);
    assert.equal(v.waitMs(a, T0, 0), 300);
    v.started(a, T0 + 300);
    assert.equal(v.waitMs(a, T0 + 300, 0), 300, "the next one a further interval on");
    v.started(a, T0 + 600);
    v.started(a, T0 + 900);
    v.started(a, T0 + 1200);
    assert.equal(v.waitMs(a, T0 + 1200, 0), 300, "past the reset, still paced");
  });

  test("readings carry the limit", () => {
    const r = readRateLimit(
      "anthropic",
      {
        "anthropic-ratelimit-requests-limit": "50",
        "anthropic-ratelimit-requests-remaining": "49",
      },
      undefined,
      T0,
    );
    assert.equal(r.requestsLimit, 50);
    assert.equal(
      readRateLimit("openai", { "x-ratelimit-limit-requests": "3" }, undefined, T0).requestsLimit,
      3,
    );
  });
});
