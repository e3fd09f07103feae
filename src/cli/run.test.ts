import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { failureLine, resultBody } from "./run.ts";

describe("resultBody", () => {
  test("string data prints as itself, not as a quoted JSON string", () => {
    assert.equal(
      resultBody({ id: "a", agent: "x", status: "ok", data: "hello\nworld" }),
      "hello\nworld",
    );
  });
  test("other data prints as JSON; text as text", () => {
    assert.equal(
      resultBody({ id: "a", agent: "x", status: "ok", data: { n: 1 } }),
      '{\n  "n": 1\n}',
    );
    assert.equal(resultBody({ id: "a", agent: "x", status: "ok", text: "t" }), "t");
    assert.equal(resultBody({ id: "a", agent: "x", status: "error", error: "e" }), "");
  });
});

describe("failureLine", () => {
  test("a plain cancellation is not 'cancelled: cancelled'", () => {
    assert.equal(
      failureLine({ id: "a", agent: "x", status: "cancelled", error: "cancelled" }),
      "task a was cancelled",
    );
  });
  test("a failure states its cause once", () => {
    assert.equal(
      failureLine({ id: "a", agent: "x", status: "error", error: "timed out after 3 s" }),
      "task a failed: timed out after 3 s",
    );
  });
  test("a task the budget stopped says so, not 'failed'", () => {
    assert.equal(
      failureLine({
        id: "a",
        agent: "x",
        status: "budget",
        error: "not started: the run's budget is spent",
      }),
      "task a not started: the run's budget is spent",
    );
  });
});
