// The search shared with a worker thread: the worker starts (from source,
// under Bun and Deno), searches the batches it is handed while the main
// thread does nothing else, and the results equal those of the same batches
// searched on the main thread; without files past the threshold no worker
// is started.

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileReader } from "./file-bytes.ts";
import { SHARE, SharedSearch } from "./grep-share.ts";
import { lineSearcher } from "./line-search.ts";
import { pacer } from "./pace.ts";
import { type BatchResult, searchBatch } from "./search-batch.ts";

let dir = "";
const files: string[] = [];
before(() => {
  dir = mkdtempSync(join(tmpdir(), "xcsh-share-"));
  for (let i = 0; i < 40; i++) {
    const abs = join(dir, `f${String(i).padStart(2, "0")}.txt`);
    const lines = Array.from(
      { length: 5 },
      (_, k) => (k % (i % 4 + 1) === 0 ? `foo ${i}.${k}` : `x ${k}`),
    );
    writeFileSync(abs, i % 9 === 0 ? "foo\0binary" : lines.join("\n"));
    files.push(abs);
  }
  files.push(join(dir, "gone.txt"));
});
after(() => rmSync(dir, { recursive: true, force: true }));

function sharedSearch(perFile: number) {
  const search = lineSearcher("foo", false);
  let seen = 0;
  return new SharedSearch({
    job: { pattern: "foo", ignoreCase: false, perFile, maxBytes: 1 << 20 },
    search,
    read: fileReader(1 << 20),
    enough: (r: BatchResult) => {
      for (const [, found] of r.hits) seen += found.length;
      return seen > 1000;
    },
  });
}

describe("SharedSearch", () => {
  test("the worker searches the batches it is handed; results equal the main thread's", async () => {
    const saved = { ...SHARE };
    Object.assign(SHARE, { batch: 4, workerFrom: 1 });
    try {
      const s = sharedSearch(3);
      for (const f of files) s.add(f);
      // Every full batch goes to the worker as it is sealed: wait for them all.
      const full = Math.floor(files.length / 4);
      for (let t = 0; s.byWorker < full && t < 3000; t++) await sleep(10);
      assert.equal(s.byWorker, full, "the worker searched every batch handed to it");
      const { paths, results } = await s.finish(new AbortController().signal, pacer());
      const search = lineSearcher("foo", false);
      const read = fileReader(1 << 20);
      assert.equal(paths.length, Math.ceil(files.length / 4));
      assert.deepEqual(paths.flat(), files);
      for (const [b, batch] of paths.entries()) {
        assert.deepEqual(results[b], searchBatch(batch, search, read, 3), `batch ${b}`);
      }
    } finally {
      Object.assign(SHARE, saved);
    }
  });

  test("below the threshold no worker starts and the main thread searches all", async () => {
    const saved = { ...SHARE };
    Object.assign(SHARE, { batch: 4, workerFrom: 1000 });
    try {
      const s = sharedSearch(1001);
      for (const f of files) s.add(f);
      const { results } = await s.finish(new AbortController().signal, pacer());
      assert.equal(s.byWorker, 0);
      assert.equal(results.filter((r) => r !== undefined).length, Math.ceil(files.length / 4));
    } finally {
      Object.assign(SHARE, saved);
    }
  });
});
