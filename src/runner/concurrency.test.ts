import { test } from "node:test";
import assert from "node:assert/strict";
import { mapLimit } from "./concurrency.ts";

test("mapLimit keeps order and never exceeds the limit", async () => {
  let live = 0;
  let peak = 0;
  const out = await mapLimit([5, 1, 4, 2, 3, 0], 2, async (n) => {
    live++;
    peak = Math.max(peak, live);
    await new Promise((r) => setTimeout(r, n));
    live--;
    return n * 10;
  });
  assert.deepEqual(out, [50, 10, 40, 20, 30, 0]);
  assert.equal(peak, 2);
});

test("mapLimit on an empty list", async () => {
  assert.deepEqual(await mapLimit([], 4, (x) => Promise.resolve(x)), []);
});
