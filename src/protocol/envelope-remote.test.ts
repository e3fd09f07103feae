import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseEnvelope } from "./envelope.ts";
import { planReaders } from "../child/plan-readers.ts";
import { planText } from "../../tests/support/plan.ts";

/** A complete plan whose `remote` is `remote` (anything, as the wire may carry it). */
function withRemote(remote: unknown): string {
  const doc = JSON.parse(planText({ cwd: "/", model: "a2a/peer", agent: { name: "peer" } }));
  return JSON.stringify({ ...doc, remote });
}

describe("the envelope's remote target", () => {
  test("a card URL or inline card, with string headers", () => {
    const r = parseEnvelope(
      withRemote({ cardUrl: "https://x/card", headers: { "X-API-Key": "k" } }),
      planReaders,
    );
    assert.ok(r.ok, r.ok ? "" : r.error);
    assert.deepEqual(r.value.remote, { cardUrl: "https://x/card", headers: { "X-API-Key": "k" } });
    const inline = parseEnvelope(withRemote({ cardJson: { name: "a" } }), planReaders);
    assert.ok(inline.ok);
    assert.deepEqual(inline.value.remote, { cardJson: { name: "a" }, headers: {} });
    const local = parseEnvelope(withRemote(null), planReaders);
    assert.ok(local.ok);
    assert.equal(local.value.remote, undefined, "null: a local agent");
  });

  test("a target without a card, or with headers that are not strings, is refused", () => {
    for (
      const [remote, field] of [
        [{ headers: {} }, "'remote' must name a card"],
        [{ cardUrl: "https://x", headers: { a: 1 } }, "'remote.headers' must map header names"],
        ["x", "'remote' must be an object"],
      ] as const
    ) {
      const r = parseEnvelope(withRemote(remote), planReaders);
      assert.equal(r.ok, false);
      assert.match(r.ok ? "" : r.error, new RegExp(field.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
    }
  });
});
