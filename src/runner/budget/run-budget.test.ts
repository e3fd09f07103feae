// Unit tests for the run's budget with prices: reservations priced at the
// output a call may ask for, settlement at what it used, and a model with
// no price refused under a dollar limit unless counted as free.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createRunBudget } from "./run-budget.ts";
import type { PriceCall } from "./task-cost.ts";
import type { XcshConfig } from "../../types.ts";

/** $1 per thousand tokens in or out; `x/unpriced` has no price. */
const price: PriceCall = (model, u) =>
  model === "x/unpriced"
    ? { ok: false, reason: "not in the price table" }
    : { ok: true, usd: (u.input + u.output) / 1000 };

function budget(limits: Parameters<typeof createRunBudget>[0]["limits"], unpricedFree = false) {
  return createRunBudget({ limits, price, config: {} as XcshConfig, env: {}, unpricedFree });
}

describe("createRunBudget", () => {
  test("reserves the most a call may cost and settles at what it used", async () => {
    const b = budget({ usd: 3 });
    const a = await b.request("x/m", 500, 1500); // $2 reserved
    assert.equal(a.ok, true);
    assert.equal((await b.request("x/m", 500, 1500)).ok, false, "$4 would pass $3");
    // A refusal ends the budget, even though the first call settles low.
    b.spent(a.ok ? a.reqId : "", "x/m", { input: 500, output: 10 });
    assert.equal(b.exhausted(), true);
    const r = b.report();
    assert.ok(Math.abs(r.spent.usd - 0.51) < 1e-9);
    assert.equal(r.spent.tokens, 510);
    assert.equal(r.spent.requests, 1);
    assert.equal(r.exhausted, "usd");
  });

  test("tells its listeners once, when a limit first stops a call", async () => {
    const b = budget({ requests: 1 });
    const heard: string[] = [];
    const off = b.onExhausted((why) => heard.push(why));
    assert.equal((await b.request("x/m", 1, 1)).ok, true);
    assert.deepEqual(heard, [], "a granted call tells nobody");
    assert.equal((await b.request("x/m", 1, 1)).ok, false);
    assert.equal((await b.request("x/m", 1, 1)).ok, false);
    assert.equal(heard.length, 1, "told once");
    assert.match(heard[0], /request/);
    // A listener that comes later hears it at once; one removed hears nothing more.
    const late: string[] = [];
    b.onExhausted((why) => late.push(why));
    assert.deepEqual(late, heard);
    off();
  });

  test("an unpriced model's refusal does not end the budget for the others", async () => {
    const b = budget({ usd: 10 });
    let told = 0;
    b.onExhausted(() => told++);
    assert.equal((await b.request("x/unpriced", 1, 1)).ok, false);
    assert.equal(told, 0);
    assert.equal(b.exhausted(), false);
  });

  test("no price under a dollar limit: refused with the opt-in named", async () => {
    const b = budget({ usd: 1 });
    const a = await b.request("x/unpriced", 1, 1);
    assert.equal(a.ok, false);
    assert.match(
      !a.ok ? a.reason : "",
      /no price is known for x\/unpriced.*--budget-unpriced-free/,
    );
    assert.match(b.unpriced([null, "x/m", "x/unpriced"]) ?? "", /x\/unpriced/);
    assert.equal(b.unpriced(["x/m"]), undefined);
  });

  test("no price, counted as free when asked", async () => {
    const b = budget({ usd: 1 }, true);
    assert.equal((await b.request("x/unpriced", 10_000, 10_000)).ok, true);
    assert.equal(b.unpriced(["x/unpriced"]), undefined);
  });

  test("no dollar limit: prices are not needed", async () => {
    const b = budget({ tokens: 100 });
    assert.equal((await b.request("x/unpriced", 50, 50)).ok, true);
    assert.equal((await b.request("x/unpriced", 1, 0)).ok, false);
  });
});
