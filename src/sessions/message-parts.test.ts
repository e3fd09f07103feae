// Unit tests for rewriting a conversation's parts: the rule keeps, replaces
// or drops each object part; other messages and parts pass unchanged; an
// assistant message left empty is dropped, another role's is kept.

import { test } from "node:test";
import assert from "node:assert/strict";
import { mapParts } from "./message-parts.ts";

test("each object part through the rule; an emptied assistant message goes", () => {
  const messages = [
    { role: "user", content: "plain text stays" },
    { role: "assistant", content: [{ type: "reasoning" }, "odd", { type: "text", text: "a" }] },
    { role: "assistant", content: [{ type: "reasoning" }] },
    { role: "tool", content: [{ type: "reasoning" }] },
    "not a message",
  ];
  const out = mapParts(
    messages,
    (p) => p.type === "reasoning" ? undefined : { ...p, text: String(p.text).toUpperCase() },
  );
  assert.deepEqual(out, [
    { role: "user", content: "plain text stays" },
    { role: "assistant", content: ["odd", { type: "text", text: "A" }] },
    { role: "tool", content: [] },
    "not a message",
  ]);
  assert.deepEqual(
    messages[2],
    { role: "assistant", content: [{ type: "reasoning" }] },
    "unchanged",
  );
});
