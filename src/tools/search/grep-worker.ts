/**
 * The second thread of a large `grep` (./grep-share.ts). Receives the search
 * (pattern, caps and a shared counter), then the batches of files as the walk
 * collects them, then the end of the list; takes the next unclaimed batch it
 * has received whenever there is one, and posts each batch's result back
 * with its number (`-1` once the list has ended and it will take no more).
 * Started as a `Worker`; scripts/build.ts bundles it into the binary.
 *
 * @module
 */
import type { FileBytes } from "./file-bytes.ts";
import { fileReader } from "./file-bytes.ts";
import { type LineSearch, lineSearcher } from "./line-search.ts";
import { searchBatch } from "./search-batch.ts";

/** The search, sent first. */
export interface ShareJob {
  /** One Int32: the next batch to claim, shared by both threads. */
  next: SharedArrayBuffer;
  pattern: string;
  ignoreCase: boolean;
  perFile: number;
  maxBytes: number;
}

/** What the main thread sends: the job, a batch, or the end of the list. */
export type ShareMessage = { job: ShareJob } | { paths: string[] } | { end: true };

// deno-lint-ignore no-explicit-any
const scope = globalThis as any;
const batches: string[][] = [];
let job: ShareJob | undefined;
let next: Int32Array;
let search: LineSearch;
let read: (abs: string, knownFile?: boolean) => FileBytes;
let ended = false;

scope.onmessage = (ev: MessageEvent<ShareMessage>) => {
  const m = ev.data;
  if ("job" in m) {
    job = m.job;
    next = new Int32Array(job.next);
    search = lineSearcher(job.pattern, job.ignoreCase);
    read = fileReader(job.maxBytes);
  } else if ("paths" in m) batches.push(m.paths);
  else ended = true;
  if (job === undefined) return;
  for (;;) {
    const b = Atomics.load(next, 0);
    if (b >= batches.length) break;
    if (Atomics.compareExchange(next, 0, b, b + 1) !== b) continue;
    scope.postMessage({ b, r: searchBatch(batches[b], search, read, job.perFile) });
  }
  if (ended) scope.postMessage({ b: -1 });
};
