// Unit tests for a paced child's link to its parent: a request goes out as
// an event with a fresh id and waits for its grant; a grant for another id
// is ignored; the answer's limits go back as `pace_done`; an abort or the
// parent's end never leaves a request waiting.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createPaceLink } from "./pace-link.ts";
import type { ChildEvent } from "../protocol/events.ts";

function link() {
  const events: ChildEvent[] = [];
  const l = createPaceLink({ id: "t", emit: (e) => events.push(e) });
  return { l, events };
}

const signal = new AbortController().signal;

describe("createPaceLink", () => {
  test("asks with the scope, goes on its grant, reports the answer's limits", async () => {
    const { l, events } = link();
    const asked = l.upstream({ provider: "g", key: "ab12", model: "m" }, 42, signal);
    const req = events[0] as Extract<ChildEvent, { type: "pace_request" }>;
    assert.deepEqual(
      [req.type, req.provider, req.key, req.model, req.tokens],
      ["pace_request", "g", "ab12", "m", 42],
    );
    let granted = false;
    void asked.then(() => granted = true);
    l.onControl({ type: "pace_grant", reqId: "guessed" });
    l.onControl({ type: "grant", reqId: req.reqId });
    await new Promise((r) => setTimeout(r, 5));
    assert.equal(granted, false, "only a pace_grant with its own id lets it go");
    l.onControl({ type: "pace_grant", reqId: req.reqId });
    const done = await asked;
    done({ requestsRemaining: 3, requestsResetAt: 1000 });
    assert.deepEqual(events[1], {
      type: "pace_done",
      id: "t",
      reqId: req.reqId,
      requestsRemaining: 3,
      requestsResetAt: 1000,
    });
  });

  test("an abort ends the wait; the parent's end lets every request go", async () => {
    const { l, events } = link();
    const ac = new AbortController();
    const aborted = l.upstream({ provider: "p", key: "" }, 0, ac.signal);
    ac.abort(new Error("stopped"));
    await assert.rejects(aborted, /stopped/);
    const waiting = l.upstream({ provider: "p", key: "" }, 0, signal);
    l.parentGone();
    (await waiting)();
    (await l.upstream({ provider: "p", key: "" }, 0, signal))();
    assert.equal(events.filter((e) => e.type === "pace_request").length, 2);
    assert.equal(events.filter((e) => e.type === "pace_done").length, 0, "no one to tell");
  });
});
