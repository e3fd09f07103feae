// Unit tests for the run governor's arithmetic: reservations count until
// settled, every limit refuses the call that would cross it, the first
// refusal ends the budget, and spend stays within the limit plus what
// in-flight calls cost beyond their reservation.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { budgetLine, createGovernor } from "./budget-governor.ts";

describe("createGovernor", () => {
  test("dollars: reservations in flight count against the limit", () => {
    const g = createGovernor({ usd: 1 }, 0);
    assert.deepEqual(g.reserve("a", { usd: 0.4, tokens: 10 }, 0), { ok: true });
    assert.deepEqual(g.reserve("b", { usd: 0.4, tokens: 10 }, 0), { ok: true });
    const c = g.reserve("c", { usd: 0.4, tokens: 10 }, 0);
    assert.equal(c.ok, false);
    assert.equal(!c.ok && c.limit, "usd");
    assert.match(!c.ok ? c.reason : "", /may cost \$0.4000; \$0.2000 of the run.s \$1.00 are left/);
  });

  test("the first refusal ends the budget, even for a call that would fit", () => {
    const g = createGovernor({ usd: 1 }, 0);
    assert.equal(g.reserve("a", { usd: 0.9, tokens: 0 }, 0).ok, true);
    g.settle("a", { usd: 0.5, tokens: 0 });
    assert.equal(g.reserve("b", { usd: 0.6, tokens: 0 }, 0).ok, false);
    assert.equal(g.reserve("c", { usd: 0.01, tokens: 0 }, 0).ok, false);
    assert.equal(g.exhausted(), "usd");
  });

  test("settling with less than reserved frees the difference", () => {
    const g = createGovernor({ tokens: 1000 }, 0);
    assert.equal(g.reserve("a", { usd: 0, tokens: 800 }, 0).ok, true);
    g.settle("a", { usd: 0, tokens: 300 });
    assert.equal(g.reserve("b", { usd: 0, tokens: 700 }, 0).ok, true);
    assert.equal(g.report(0).spent.tokens, 300);
    assert.equal(g.report(0).inFlight, 1);
  });

  test("requests: the call that would be one too many is refused", () => {
    const g = createGovernor({ requests: 2 }, 0);
    assert.equal(g.reserve("a", { usd: 0, tokens: 0 }, 0).ok, true);
    assert.equal(g.reserve("b", { usd: 0, tokens: 0 }, 0).ok, true);
    const c = g.reserve("c", { usd: 0, tokens: 0 }, 0);
    assert.equal(!c.ok && c.limit, "requests");
  });

  test("a released reservation goes back", () => {
    const g = createGovernor({ requests: 1 }, 0);
    assert.equal(g.reserve("a", { usd: 0, tokens: 0 }, 0).ok, true);
    g.release("a");
    assert.equal(g.reserve("b", { usd: 0, tokens: 0 }, 0).ok, true);
  });

  test("deadline: no call once it has passed", () => {
    const g = createGovernor({ deadlineAt: 1000 }, 0);
    assert.equal(g.reserve("a", { usd: 0, tokens: 0 }, 999).ok, true);
    const b = g.reserve("b", { usd: 0, tokens: 0 }, 1000);
    assert.equal(!b.ok && b.limit, "deadline");
    assert.deepEqual(g.report(1500).limits, { deadlineMs: 1000 });
    assert.equal(g.report(1500).spent.elapsedMs, 1500);
  });

  test("no limits: every call is granted", () => {
    const g = createGovernor({}, 0);
    for (let i = 0; i < 100; i++) {
      assert.equal(g.reserve(`r${i}`, { usd: 5, tokens: 1e6 }, i).ok, true);
    }
  });

  test("the bound: spend exceeds the limit only by in-flight calls' excess over reservation", () => {
    // Many concurrent callers; each call's actual cost may exceed its reservation by up to 10%.
    const limit = 10;
    const g = createGovernor({ usd: limit }, 0);
    const inFlight: { id: string; reserve: number }[] = [];
    let maxExcess = 0;
    let n = 0;
    for (let step = 0; step < 500; step++) {
      if (inFlight.length < 8 && step % 3 !== 2) {
        const reserve = 0.1 + (step % 7) * 0.05;
        const id = `r${n++}`;
        if (g.reserve(id, { usd: reserve, tokens: 0 }, 0).ok) inFlight.push({ id, reserve });
      } else if (inFlight.length > 0) {
        const c = inFlight.shift()!;
        const actual = c.reserve * (step % 2 === 0 ? 1.1 : 0.5);
        maxExcess += Math.max(0, actual - c.reserve);
        g.settle(c.id, { usd: actual, tokens: 0 });
      }
    }
    for (const c of inFlight) g.settle(c.id, { usd: c.reserve, tokens: 0 });
    const spent = g.report(0).spent.usd;
    assert.ok(g.exhausted() === "usd", "the budget was reached");
    assert.ok(spent <= limit + maxExcess + 1e-9, `spent ${spent} within ${limit} + ${maxExcess}`);
  });
});

test("budgetLine: each limit the run had, and the one that stopped it", () => {
  const g = createGovernor({ usd: 1, requests: 5 }, 0);
  g.reserve("a", { usd: 0.25, tokens: 10 }, 0);
  g.settle("a", { usd: 0.25, tokens: 10 });
  g.reserve("b", { usd: 0.9, tokens: 10 }, 0);
  assert.equal(
    budgetLine(g.report(0)),
    "budget: spent $0.2500 of $1.0000, 1 of 5 requests; the usd limit stopped the run",
  );
});
