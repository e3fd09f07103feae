// Unit tests for a task's cost from its calls.
import { test } from "node:test";
import assert from "node:assert/strict";
import { withCost } from "./task-cost.ts";
import { defaultConfig } from "../../config/validate.ts";
import type { TaskResult } from "../../types.ts";

const base: TaskResult = { id: "a", agent: "x", status: "ok", model: "p/m" };
const call = { input: 10, output: 1, cacheRead: 0, cacheWrite: 0 };

test("the calls' prices add up; each call is priced on its own", () => {
  const seen: number[] = [];
  const r = withCost(
    base,
    [call, { ...call, input: 20 }],
    (_m, u) => {
      seen.push(u.input);
      return { ok: true, usd: u.input / 10 };
    },
    defaultConfig(),
    {},
  );
  assert.equal(r.costUSD, 3);
  assert.deepEqual(seen, [10, 20]);
  assert.equal(withCost(base, [], () => ({ ok: true, usd: 9 }), defaultConfig(), {}).costUSD, 0);
});

test("one unknown price makes the cost null with the reason; no model, no cost", () => {
  const r = withCost(base, [call], () => ({ ok: false, reason: "unknown" }), defaultConfig(), {});
  assert.equal(r.costUSD, null);
  assert.equal(r.costNote, "unknown");
  const none = withCost(
    { ...base, model: undefined },
    [call],
    () => {
      throw new Error("not asked");
    },
    defaultConfig(),
    {},
  );
  assert.equal("costUSD" in none, false);
});
