/**
 * How a large `grep` uses a second core. Past the files searched during the
 * walk, the walk collects the rest in batches (in walk order) and hands each
 * to a `Worker` (./grep-worker.ts) as soon as it is full; the worker searches
 * them while the walk goes on. When the walk ends, the main thread and the
 * worker both take the next unclaimed batch from a shared counter until none
 * is left, or until the batches searched so far, taken in order, hold more
 * matches than the cap. Nearly all of a full scan is system calls (readdir,
 * open, read, close), which the two threads make at the same time. Results
 * come back by batch number and are merged in order by the caller, so the
 * output is that of a search on one thread. Without a worker (it could not
 * start, or it failed) the main thread searches whatever is left.
 *
 * @module
 */
import { workerModule } from "../../runtime.ts";
import type { FileBytes } from "./file-bytes.ts";
import type { ShareJob, ShareMessage } from "./grep-worker.ts";
import type { LineSearch } from "./line-search.ts";
import type { Pacer } from "./pace.ts";
import { type BatchResult, searchBatch } from "./search-batch.ts";

/**
 * When a search shares its work: the first `inlineFiles` files are searched
 * during the walk (most searches end there: a small tree, or the cap
 * reached); the rest are collected in batches of `batch` files, and a worker
 * starts once `workerFrom` files are collected (for fewer, its start costs
 * more than it saves). Tests lower these to reach the shared path on small
 * trees.
 */
export const SHARE = { inlineFiles: 1000, batch: 64, workerFrom: 256 };

/** A worker running ./grep-worker.ts, or undefined when none can start. */
function startWorker(): Worker | undefined {
  try {
    const url = workerModule(
      new URL("./grep-worker.ts", import.meta.url),
      "src/tools/search/grep-worker.ts",
    );
    return new Worker(url, { type: "module" });
  } catch {
    return undefined;
  }
}

export interface ShareOptions {
  job: Omit<ShareJob, "next">;
  search: LineSearch;
  read: (abs: string, knownFile?: boolean) => FileBytes;
  /** Told each batch's result in order; true once no later batch matters. */
  enough: (r: BatchResult) => boolean;
}

/** Batches collected during a walk and searched on two threads. */
export class SharedSearch {
  /** True once the results merged so far hold enough: stop the walk. */
  stopped = false;
  /** Batches the worker searched (the rest were searched here). */
  byWorker = 0;
  private readonly batches: string[][] = [];
  private current: string[] = [];
  private collected = 0;
  private readonly results: (BatchResult | undefined)[] = [];
  private readonly next = new Int32Array(new SharedArrayBuffer(4));
  private worker: Worker | undefined;
  private helperDone = true;
  private merged = 0;
  private wake: (() => void) | undefined;

  constructor(private readonly o: ShareOptions) {}

  /** Adds the next file of the walk. */
  add(abs: string): void {
    this.current.push(abs);
    if (this.current.length >= SHARE.batch) this.seal();
    if (++this.collected === SHARE.workerFrom) this.start();
  }

  private seal(): void {
    const paths = this.current;
    this.current = [];
    this.batches.push(paths);
    if (this.worker !== undefined) this.send({ paths });
  }

  private send(m: ShareMessage): void {
    try {
      this.worker!.postMessage(m);
    } catch {
      this.helperDone = true;
    }
  }

  private start(): void {
    const worker = startWorker();
    if (worker === undefined) return;
    this.worker = worker;
    this.helperDone = false;
    worker.onmessage = (ev: MessageEvent<{ b: number; r?: BatchResult }>) => {
      if (ev.data.b < 0) this.helperDone = true;
      else {
        this.results[ev.data.b] = ev.data.r;
        this.byWorker++;
      }
      this.advance();
      this.wake?.();
    };
    worker.onerror = (ev: Event) => {
      ev.preventDefault();
      this.helperDone = true;
      this.wake?.();
    };
    this.send({ job: { ...this.o.job, next: this.next.buffer as SharedArrayBuffer } });
    for (const paths of this.batches) this.send({ paths });
  }

  private advance(): void {
    const { results } = this;
    while (!this.stopped && results[this.merged] !== undefined) {
      this.stopped = this.o.enough(results[this.merged++]!);
    }
  }

  private here(b: number): void {
    const r = searchBatch(this.batches[b], this.o.search, this.o.read, this.o.job.perFile);
    this.results[b] = r;
  }

  /**
   * Searches what is left once the walk has ended; the results of the
   * batches in order, up to the one after which `enough` said stop (later
   * ones may be missing). Terminates the worker.
   */
  async finish(
    signal: AbortSignal,
    pace: Pacer,
  ): Promise<{ paths: string[][]; results: (BatchResult | undefined)[] }> {
    if (this.current.length > 0) this.seal();
    const n = this.batches.length;
    if (this.worker !== undefined) this.send({ end: true });
    try {
      while (!this.stopped && !signal.aborted) {
        const b = Atomics.add(this.next, 0, 1);
        if (b >= n) break;
        this.here(b);
        this.advance();
        if (pace.due()) await pace.breathe();
      }
      Atomics.store(this.next, 0, n);
      while (!this.stopped && this.merged < n && !signal.aborted) {
        if (this.helperDone) {
          // Whatever the worker did not deliver is searched here.
          for (let b = this.merged; b < n && !this.stopped; b++) {
            if (this.results[b] === undefined) this.here(b);
            this.advance();
          }
          break;
        }
        await new Promise<void>((done) => (this.wake = done));
        this.wake = undefined;
      }
    } finally {
      this.close();
    }
    return { paths: this.batches, results: this.results };
  }

  /** Stops the worker (also when the search ends early). */
  close(): void {
    this.worker?.terminate();
    this.worker = undefined;
  }
}
