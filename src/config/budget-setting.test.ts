// Unit tests for reading a budget: accepted values per limit, the bad ones
// (0, negative, non-numeric, a currency sign), durations, and combining two.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { hasBudget, lowerBudget, parseBudgetValue } from "./budget-setting.ts";

describe("parseBudgetValue", () => {
  test("dollars", () => {
    assert.deepEqual(parseBudgetValue("usd", "2.5"), { ok: true, value: 2.5 });
    assert.deepEqual(parseBudgetValue("usd", 0.02), { ok: true, value: 0.02 });
    for (const bad of ["0", "-1", "$5", "5$", "five", "", "1e3", "Infinity"]) {
      const r = parseBudgetValue("usd", bad);
      assert.equal(r.ok, false, bad);
      assert.match(!r.ok ? r.message : "", /US dollars/);
    }
  });

  test("tokens and requests are whole numbers", () => {
    assert.deepEqual(parseBudgetValue("tokens", "1000"), { ok: true, value: 1000 });
    assert.deepEqual(parseBudgetValue("requests", 3), { ok: true, value: 3 });
    for (const bad of ["0", "-3", "1.5", "x", "10k"]) {
      assert.equal(parseBudgetValue("tokens", bad).ok, false, bad);
    }
  });

  test("deadline: seconds or a duration", () => {
    assert.deepEqual(parseBudgetValue("deadline", "45"), { ok: true, value: 45 });
    assert.deepEqual(parseBudgetValue("deadline", "90s"), { ok: true, value: 90 });
    assert.deepEqual(parseBudgetValue("deadline", "30m"), { ok: true, value: 1800 });
    assert.deepEqual(parseBudgetValue("deadline", "2h"), { ok: true, value: 7200 });
    for (const bad of ["0", "0m", "-5", "5d", "m", "soon"]) {
      assert.equal(parseBudgetValue("deadline", bad).ok, false, bad);
    }
  });
});

test("lowerBudget: each limit the lower; one-sided limits kept", () => {
  assert.deepEqual(lowerBudget({ usd: 5, tokens: 100 }, { usd: 2, requests: 3 }), {
    usd: 2,
    tokens: 100,
    requests: 3,
  });
  assert.equal(hasBudget({}), false);
  assert.equal(hasBudget({ deadline: 1 }), true);
});
