import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  admitForChild,
  keyFingerprint,
  MAX_HELD_429,
  mergeRateLimit,
  newsOf,
  pausesFor,
  providerGate,
  scopeOf,
  setPaceUpstream,
  setProviderLimits,
  useProviderLimits,
} from "./provider-gate.ts";
import { MAX_PAUSE_MS, RateLimitView } from "./rate-limit-view.ts";
import type { RateLimitNews } from "../protocol/events.ts";

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
    let calls = 0;
    let siblingDone: Promise<unknown> | undefined;
    const out = await first.run(() => {
      if (calls++ > 0) return Promise.resolve("answered");
      const refused = Promise.reject(rateLimited({ "retry-after-ms": "80" }));
      // The sibling asks right after the 429 is known.
      siblingDone = refused.catch(() => sibling.run(() => Promise.resolve({}), { signal }));
      return refused;
    }, { signal });
    await siblingDone;
    assert.equal(out, "answered", "the 429 was waited out, not thrown");
    assert.equal(calls, 2);
    assert.equal(news.length, 1);
    assert.equal(news[0].provider, "openai");
    assert.equal(news[0].key, keyFingerprint("sk-one"));
    assert.ok(!JSON.stringify(news).includes("sk-one"), "the key never leaves");
    assert.equal(waits.length, 1, "the sibling waited for the pause");
    assert.ok(waits[0] > 0 && waits[0] <= 88);
    const other = providerGate({ ...p, apiKey: "sk-two" }, "gpt-x", {
      onWait: () => assert.fail("another key is not paused"),
    }, view);
    await other.run(() => Promise.resolve({}), { signal });
  });

  test("429s past the most a call waits out go to the retry policy", async () => {
    const g = providerGate({ name: "o", type: "openai" }, "m", {}, new RateLimitView());
    let calls = 0;
    await assert.rejects(
      g.run(() => {
        calls++;
        return Promise.reject(rateLimited({ "retry-after-ms": "1" }));
      }, { signal }),
      /rate limited/,
    );
    assert.equal(calls, MAX_HELD_429 + 1);
    const plain = providerGate({ name: "o", type: "openai" }, "m", {}, new RateLimitView());
    calls = 0;
    await assert.rejects(plain.run(() => {
      calls++;
      return Promise.reject(Object.assign(new Error("boom"), { statusCode: 500 }));
    }, { signal }));
    assert.equal(calls, 1, "other failures are the retry policy's");
    calls = 0;
    await assert.rejects(plain.run(() => {
      calls++;
      return Promise.reject(rateLimited({ "retry-after": "0" }));
    }, { signal }));
    assert.equal(calls, 1, "a 429 that asks for no wait is a plain retry");
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
        details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "0.06s" }],
      },
    });
    const g = providerGate(p, "gemini-a", {}, view);
    let calls = 0;
    let seen: [number, number] = [0, 0];
    await g.run(() => {
      if (calls++ === 0) {
        const refused = Promise.reject(rateLimited({}, body));
        // Read once the gate has taken in the 429.
        refused.catch(() =>
          setTimeout(() => {
            const now = Date.now();
            seen = [
              view.waitMs(scopeOf(p, "gemini-a"), now, 0),
              view.waitMs(scopeOf(p, "gemini-b"), now, 0),
            ];
          }, 0)
        );
        return refused;
      }
      return Promise.resolve({});
    }, { signal });
    assert.ok(seen[0] > 30 && seen[0] <= 60, `gemini-a waits ${seen[0]} ms`);
    assert.equal(seen[1], 0, "another model is not paused");
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

  test("a 429 asking for longer than the policy allows goes to the retry policy", async () => {
    const g = providerGate(
      { name: "o", type: "openai" },
      "m",
      { maxWaitMs: 1000 },
      new RateLimitView(),
    );
    let calls = 0;
    await assert.rejects(g.run(() => {
      calls++;
      return Promise.reject(rateLimited({ "retry-after": "120" }));
    }, { signal }));
    assert.equal(calls, 1);
  });

  test("a child's malformed or far-off report cannot park the run", () => {
    const view = new RateLimitView();
    const now = Date.now();
    mergeRateLimit({ provider: "p", key: "k", pauseUntil: now + 10 * MAX_PAUSE_MS }, now, view);
    assert.equal(view.providerPausedUntil("p", now), now + MAX_PAUSE_MS);
    const bogus = { provider: "q", key: "k", pauseUntil: "soon", requestsRemaining: -1 };
    mergeRateLimit(bogus as unknown as RateLimitNews, now, view);
    assert.equal(view.providerWaitMs("q", now, 0), 0);
    mergeRateLimit(
      { provider: 5, key: "k", pauseUntil: now + 100 } as unknown as RateLimitNews,
      now,
      view,
    );
    assert.equal(view.providerPausedUntil("5", now), undefined);
  });

  test("a pause one child met reaches a sibling through the parent", async () => {
    const [childA, parent, childB] = [
      new RateLimitView(),
      new RateLimitView(),
      new RateLimitView(),
    ];
    const p = { name: "anthropic", type: "anthropic", apiKey: "k" };
    const up: RateLimitNews[] = [];
    const a = providerGate(p, "claude-x", { onLearn: (n) => up.push(n) }, childA);
    let calls = 0;
    let seenB = 0;
    await a.run(() => {
      if (calls++ > 0) return Promise.resolve({});
      // Sent up the channel, merged by the parent, carried down to the sibling.
      const refused = Promise.reject(rateLimited({ "retry-after": "1" }));
      refused.catch(() =>
        setTimeout(() => {
          for (const n of up) mergeRateLimit(n, Date.now(), parent);
          for (const n of pausesFor("anthropic", Date.now(), parent)) {
            mergeRateLimit(n, Date.now(), childB);
          }
          seenB = childB.waitMs(scopeOf(p, "claude-x"), Date.now(), 0);
        }, 0)
      );
      return refused;
    }, { signal });
    assert.ok(seenB > 500 && seenB <= 1000, `the sibling would wait ${seenB} ms`);
    assert.equal(pausesFor("openai", Date.now(), parent).length, 0);
  });

  test("a parent merges a child's news into its view", () => {
    const view = new RateLimitView();
    const now = Date.now();
    mergeRateLimit({ provider: "openai", key: "abc", pauseUntil: now + 1000 }, now, view);
    assert.equal(view.providerPausedUntil("openai", now), now + 1000);
    assert.equal(view.providerPausedUntil("anthropic", now), undefined);
    const x = { provider: "x", key: "k" };
    assert.equal(newsOf(x, { requestsRemaining: 3, requestsLimit: 10 }, now), undefined);
    assert.deepEqual(newsOf(x, { requestsRemaining: 2, requestsLimit: 10 }, now), {
      ...x,
      pauseUntil: now,
      requestsRemaining: 2,
      requestsLimit: 10,
    }, "a quarter left or less is news");
  });
});

describe("admitting the tree's requests", () => {
  test("a child's requests share this process's slots and view", async () => {
    const view = new RateLimitView();
    setProviderLimits("tree", { maxConcurrentRequests: 1 });
    try {
      const scope = { provider: "tree", key: "" };
      const first = await admitForChild(scope, 10, { signal }, view);
      let second = false;
      const next = admitForChild(scope, 10, { signal }, view).then((leave) => {
        second = true;
        return leave;
      });
      await new Promise((r) => setTimeout(r, 20));
      assert.equal(second, false, "the one slot is taken");
      first();
      first({ requestsRemaining: 0 }); // a second report changes nothing
      const leave = await next;
      assert.equal(second, true);
      assert.equal(view.waitMs(scope, Date.now(), 0), 0);
      // Its answer said nothing is left until a second from now.
      leave({ requestsRemaining: 0, requestsResetAt: Date.now() + 1000 });
      assert.ok(view.waitMs(scope, Date.now(), 0) > 0, "the reading reached the view");
    } finally {
      setProviderLimits("tree", undefined);
    }
  });

  test("a waiting admission ends when its task does", async () => {
    const view = new RateLimitView();
    const scope = { provider: "held", key: "" };
    view.observe(scope, { pauseUntil: Date.now() + 60_000 }, Date.now());
    const ac = new AbortController();
    const waits: number[] = [];
    const asked = admitForChild(
      scope,
      0,
      { signal: ac.signal, onWait: (ms) => waits.push(ms) },
      view,
    );
    ac.abort(new Error("task ended"));
    await assert.rejects(asked, /task ended/);
    assert.equal(waits.length, 1);
  });

  test("a paced process asks upstream for each attempt and applies no limits of its own", async () => {
    const asked: string[] = [];
    const reported: unknown[] = [];
    setPaceUpstream((scope) => {
      asked.push(scope.provider);
      return Promise.resolve((reading) => reported.push(reading));
    });
    try {
      useProviderLimits({ paced: { maxConcurrentRequests: 1 } });
      const view = new RateLimitView();
      const g = providerGate({ name: "paced", type: "anthropic" }, "m", {}, view);
      let running = 0;
      let peak = 0;
      const call = async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 5));
        running--;
        return { headers: { "anthropic-ratelimit-requests-remaining": "7" } };
      };
      await Promise.all([g.run(call, { signal }), g.run(call, { signal })]);
      assert.deepEqual(asked, ["paced", "paced"]);
      assert.deepEqual(reported, [{ requestsRemaining: 7 }, { requestsRemaining: 7 }]);
      assert.equal(peak, 2, "the cap is the top-level process's to apply");
    } finally {
      setPaceUpstream(undefined);
    }
  });
});
