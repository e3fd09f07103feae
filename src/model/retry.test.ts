import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  classifyModelError,
  DEFAULT_RETRY_POLICY,
  describeModelFailure,
  IdleTimeoutError,
  parseRetryAfter,
  retryDelayMs,
} from "./retry.ts";

const api = (statusCode: number | undefined, headers: Record<string, string> = {}) => ({
  name: "AI_APICallError",
  message: "boom",
  statusCode,
  responseHeaders: headers,
});

describe("classifyModelError", () => {
  test("a cause the message already holds is said once", () => {
    const cause = new Error("connect ECONNREFUSED 127.0.0.1:9");
    const refused = {
      name: "AI_APICallError",
      message: `Cannot connect to API: ${cause.message}`,
      cause,
    };
    assert.equal(
      classifyModelError(refused).reason,
      "Cannot connect to API: connect ECONNREFUSED 127.0.0.1:9",
    );
    const other = { name: "AI_APICallError", message: "fetch failed", cause };
    assert.equal(
      classifyModelError(other).reason,
      "fetch failed (connect ECONNREFUSED 127.0.0.1:9)",
    );
  });

  test("429, 408 and 5xx are retried; other 4xx are not", () => {
    assert.equal(classifyModelError(api(429)).retryable, true);
    assert.equal(classifyModelError(api(408)).retryable, true);
    assert.equal(classifyModelError(api(503)).retryable, true);
    assert.equal(classifyModelError(api(401)).retryable, false);
    assert.equal(classifyModelError(api(400)).retryable, false);
    assert.equal(classifyModelError(api(404)).reason, "HTTP 404: boom");
  });

  test("broken streams, network errors and stalls are retried", () => {
    assert.equal(classifyModelError(api(200)).retryable, true);
    assert.equal(classifyModelError(api(undefined)).retryable, true);
    assert.equal(classifyModelError({ name: "AI_JSONParseError", message: "x" }).retryable, true);
    assert.equal(classifyModelError(new IdleTimeoutError(1000)).retryable, true);
    assert.equal(classifyModelError(new TypeError("terminated")).retryable, true);
    assert.equal(
      classifyModelError({ name: "AI_InvalidPromptError", message: "x" }).retryable,
      false,
    );
  });

  test("retry-after is read from the response", () => {
    assert.equal(classifyModelError(api(429, { "retry-after": "3" })).retryAfterMs, 3000);
  });
});

describe("retry timing", () => {
  test("retry-after in ms, seconds or as a date", () => {
    const now = Date.parse("2030-01-01T00:00:00Z");
    assert.equal(parseRetryAfter({ "retry-after-ms": "250" }, now), 250);
    assert.equal(parseRetryAfter({ "Retry-After": "1.5" }, now), 1500);
    assert.equal(parseRetryAfter({ "retry-after": "Tue, 01 Jan 2030 00:00:10 GMT" }, now), 10_000);
    assert.equal(parseRetryAfter({ "retry-after": "soon" }, now), undefined);
    assert.equal(parseRetryAfter(undefined, now), undefined);
  });

  test("the server's wait is honoured up to the cap; beyond it retries stop", () => {
    const p = DEFAULT_RETRY_POLICY;
    assert.equal(retryDelayMs(0, { retryable: true, reason: "", retryAfterMs: 2000 }, p), 2000);
    assert.equal(
      retryDelayMs(0, { retryable: true, reason: "", retryAfterMs: 3_600_000 }, p),
      undefined,
    );
  });

  test("exponential backoff with bounded jitter", () => {
    const p = { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 1000 };
    const info = { retryable: true, reason: "" };
    assert.equal(retryDelayMs(0, info, p, 0.5), 100);
    assert.equal(retryDelayMs(2, info, p, 0.5), 400);
    assert.equal(retryDelayMs(2, info, p, 0), 300);
    assert.equal(retryDelayMs(9, info, p, 0.5), 1000);
  });

  test("the final error names model, endpoint and attempts", () => {
    const msg = describeModelFailure(
      { retryable: false, status: 401, reason: "HTTP 401: bad key" },
      { model: "openai/gpt", baseURL: "https://api.openai.com/v1" },
      1,
    );
    assert.equal(
      msg,
      "model call failed: openai/gpt at https://api.openai.com/v1: HTTP 401: bad key — check the API key",
    );
  });
});
