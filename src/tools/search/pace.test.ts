import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { setImmediate } from "node:timers";
import { pacer } from "./pace.ts";

describe("pacer", () => {
  test("a slice is due once its time is used; breathing lets queued work run", async () => {
    assert.equal(pacer(60_000).due(), false);
    const pace = pacer(0);
    assert.equal(pace.due(), true);
    let ran = false;
    setImmediate(() => (ran = true));
    await pace.breathe();
    assert.equal(ran, true);
  });
});
