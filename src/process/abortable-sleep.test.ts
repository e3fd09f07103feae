import { test } from "node:test";
import assert from "node:assert/strict";
import { sleep } from "./abortable-sleep.ts";

test("sleep resolves after its time, and rejects at once when aborted", async () => {
  await sleep(1, new AbortController().signal);
  const early = new AbortController();
  early.abort(new Error("gone"));
  await assert.rejects(sleep(60_000, early.signal), /gone/);
  const late = new AbortController();
  const waiting = sleep(60_000, late.signal);
  late.abort(new Error("stopped"));
  await assert.rejects(waiting, /stopped/);
});
