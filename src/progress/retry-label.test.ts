import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { retryLabel } from "./retry-label.ts";

describe("retryLabel", () => {
  const base = { type: "retry" as const, id: "0-t", maxRetries: 3 };
  test("a retry after a delay", () => {
    assert.equal(
      retryLabel({ ...base, attempt: 1, delayMs: 1500, reason: "HTTP 503" }),
      "retrying in 1.5 s: HTTP 503 (1/3)",
    );
  });
  test("attempt 0: at once, without a refused parameter", () => {
    assert.equal(
      retryLabel({ ...base, attempt: 0, delayMs: 0, reason: "the server refuses stream_options" }),
      "trying again: the server refuses stream_options",
    );
  });
});
