import { test } from "node:test";
import assert from "node:assert/strict";
import {
  learnedFromChild,
  learnedFromParent,
  learnedHere,
  listenDown,
  setUpward,
} from "./pause-relay.ts";
import type { RateLimitNews } from "../protocol/events.ts";

test("a child's pause reaches every other child and goes up; a parent's goes down only", () => {
  const heard: Record<string, RateLimitNews[][]> = { a: [], b: [] };
  const a = (p: RateLimitNews[]) => heard.a.push(p);
  const b = (p: RateLimitNews[]) => heard.b.push(p);
  const offA = listenDown(a);
  const offB = listenDown(b);
  const up: RateLimitNews[] = [];
  setUpward((n) => up.push(n));
  try {
    const until = Date.now() + 60_000;
    learnedFromChild({ provider: "relay-p", key: "k1", pauseUntil: until }, a);
    assert.equal(heard.a.length, 0, "not back to the child that reported it");
    assert.equal(heard.b.length, 1);
    assert.deepEqual(heard.b[0], [{ provider: "relay-p", key: "k1", pauseUntil: until }]);
    assert.equal(up.length, 1);

    learnedFromParent({ provider: "relay-p", key: "k2", pauseUntil: until });
    assert.equal(heard.a.length, 1);
    assert.equal(heard.b.length, 2);
    assert.equal(heard.b[1].length, 2, "both keys' pauses");
    assert.equal(up.length, 1, "a pause from above does not go back up");

    // What this process's own call learned goes down to every child, not up.
    learnedHere("relay-p");
    assert.equal(heard.a.length, 2);
    assert.equal(heard.b.length, 3);
    assert.equal(up.length, 1);

    // News without a pause (a bucket running low, already past) sends nothing down.
    learnedFromChild({ provider: "relay-q", key: "k", pauseUntil: Date.now() - 1 }, a);
    assert.equal(heard.b.length, 3);
  } finally {
    offA();
    offB();
    setUpward(undefined);
  }
});
