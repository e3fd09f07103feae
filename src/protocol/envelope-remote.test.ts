import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseEnvelope } from "./envelope.ts";

const base = {
  version: 1,
  id: "t",
  agent: { name: "peer", description: "d", systemPrompt: "" },
  assignment: "go",
  cwd: "/",
};

describe("the envelope's remote target", () => {
  test("a card URL or inline card, with string headers", () => {
    const r = parseEnvelope(JSON.stringify({
      ...base,
      remote: { cardUrl: "https://x/card", headers: { "X-API-Key": "k" } },
    }));
    assert.ok(r.ok);
    assert.deepEqual(r.value.remote, { cardUrl: "https://x/card", headers: { "X-API-Key": "k" } });
    const inline = parseEnvelope(JSON.stringify({ ...base, remote: { cardJson: { name: "a" } } }));
    assert.ok(inline.ok);
    assert.deepEqual(inline.value.remote, { cardJson: { name: "a" }, headers: {} });
  });

  test("a target without a card, or with headers that are not strings, is refused", () => {
    for (
      const [remote, field] of [
        [{ headers: {} }, "'remote' must name a card"],
        [{ cardUrl: "https://x", headers: { a: 1 } }, "'remote.headers' must map header names"],
        ["x", "'remote' must be an object"],
      ] as const
    ) {
      const r = parseEnvelope(JSON.stringify({ ...base, remote }));
      assert.equal(r.ok, false);
      assert.match(r.ok ? "" : r.error, new RegExp(field.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
    }
  });
});
