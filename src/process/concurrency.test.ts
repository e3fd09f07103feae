import { test } from "node:test";
import assert from "node:assert/strict";
import { createLimiter, mapLimit } from "./concurrency.ts";

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

test("a limiter caps jobs started separately, first come first served, failures free the slot", async () => {
  const slot = createLimiter(2);
  let live = 0;
  let peak = 0;
  const started: number[] = [];
  const job = (n: number) =>
    slot(async () => {
      started.push(n);
      live++;
      peak = Math.max(peak, live);
      await new Promise((r) => setTimeout(r, 5));
      live--;
      if (n === 1) throw new Error("boom");
      return n;
    });
  const all = await Promise.allSettled([0, 1, 2, 3, 4].map(job));
  assert.equal(peak, 2);
  assert.deepEqual(started, [0, 1, 2, 3, 4]);
  assert.equal(all[1].status, "rejected");
  assert.deepEqual(all.filter((r) => r.status === "fulfilled").map((r) => r.value), [0, 2, 3, 4]);
  assert.equal(await slot(() => Promise.resolve("free")), "free", "every slot came back");
});
