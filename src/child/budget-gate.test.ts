// Unit tests for a child's budget gate: a request goes out as an event with a
// fresh id and waits for its answer; an answer to an id never asked is
// ignored; no answer in time, or the parent's end, is a refusal.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createBudgetGate } from "./budget-gate.ts";
import type { ChildEvent } from "../protocol/events.ts";

function gate(timeoutMs = 10_000) {
  const events: ChildEvent[] = [];
  const g = createBudgetGate({ id: "t", emit: (e) => events.push(e), timeoutMs });
  const lastReq = () => {
    const e = events.at(-1);
    assert.equal(e?.type, "budget_request");
    return e as Extract<ChildEvent, { type: "budget_request" }>;
  };
  return { g, events, lastReq };
}

describe("createBudgetGate", () => {
  test("a grant answers the request with its id", async () => {
    const { g, lastReq } = gate();
    const asked = g.request("anth/m", 100, 50);
    const req = lastReq();
    assert.deepEqual([req.model, req.input, req.output], ["anth/m", 100, 50]);
    g.onControl({ type: "grant", reqId: req.reqId });
    assert.deepEqual(await asked, { ok: true, reqId: req.reqId });
    assert.equal(g.exhausted(), false);
  });

  test("a deny refuses and marks the budget spent", async () => {
    const { g, lastReq } = gate();
    const asked = g.request("m", 1, 1);
    g.onControl({ type: "deny", reqId: lastReq().reqId, reason: "the run's usd budget is spent" });
    assert.deepEqual(await asked, { ok: false, reason: "the run's usd budget is spent" });
    assert.equal(g.exhausted(), true);
  });

  test("the parent's exhausted notice: spent here too, and passed on once", () => {
    const { g } = gate();
    const heard: string[] = [];
    g.onExhausted((why) => heard.push(why));
    assert.equal(g.exhausted(), false);
    g.onControl({ type: "exhausted", reason: "a sibling spent it" });
    g.onControl({ type: "exhausted", reason: "again" });
    assert.equal(g.exhausted(), true);
    assert.deepEqual(heard, ["a sibling spent it"]);
  });

  test("a grant for an id it did not ask is ignored", async () => {
    const { g, lastReq } = gate(50);
    const asked = g.request("m", 1, 1);
    const real = lastReq().reqId;
    g.onControl({ type: "grant", reqId: "guessed" });
    g.onControl({ type: "grant", reqId: real.toUpperCase() });
    const a = await asked;
    assert.equal(a.ok, false, "only the timeout answered");
    // A late grant for the real id changes nothing.
    g.onControl({ type: "grant", reqId: real });
  });

  test("ids are fresh per request", () => {
    const { g, events } = gate();
    void g.request("m", 1, 1);
    void g.request("m", 1, 1);
    const ids = events.map((e) => (e as { reqId: string }).reqId);
    assert.notEqual(ids[0], ids[1]);
    g.parentGone();
  });

  test("no answer in time is a refusal", async () => {
    const { g } = gate(20);
    const a = await g.request("m", 1, 1);
    assert.equal(a.ok, false);
    assert.match(!a.ok ? a.reason : "", /did not answer/);
  });

  test("the parent's end refuses what waits and what comes", async () => {
    const { g } = gate();
    const waiting = g.request("m", 1, 1);
    g.parentGone();
    assert.equal((await waiting).ok, false);
    assert.equal((await g.request("m", 1, 1)).ok, false);
  });

  test("spent reports the call under its id", () => {
    const { g, events } = gate();
    g.spent("r1", "m", { input: 3, output: 4 });
    assert.deepEqual(events.at(-1), {
      type: "budget_spent",
      id: "t",
      reqId: "r1",
      model: "m",
      input: 3,
      output: 4,
      cacheRead: 0,
      cacheWrite: 0,
    });
  });
});
