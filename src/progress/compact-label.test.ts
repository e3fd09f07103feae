// How a compaction reads in the progress.

import { test } from "node:test";
import assert from "node:assert/strict";
import { compactLabel } from "./compact-label.ts";

test("a summary, and a cut with the reason the first time", () => {
  const base = {
    type: "compact",
    id: "0",
    tokensBefore: 150000,
    tokensAfter: 30000,
    messages: 40,
  } as const;
  assert.equal(
    compactLabel({ ...base, trigger: "auto", method: "summary" }),
    "compacted the conversation to fit the window: 40 older messages summarised (150000 → 30000 tokens)",
  );
  assert.equal(
    compactLabel({
      ...base,
      trigger: "overflow",
      method: "cut",
      note: "the summary failed (HTTP 500)\nmore",
    }),
    "compacted the conversation after the provider refused its size: 40 older messages cut " +
      "(150000 → 30000 tokens); the summary failed (HTTP 500) more",
  );
});
