/**
 * What a search finds in one batch of files, in a form that crosses to a
 * worker thread and back: for each file, whether it was skipped, over the
 * size limit, binary or searched, and the matching lines of those with any.
 * The same code runs on the main thread and in ./grep-worker.ts, so a batch
 * gives the same answer wherever it is searched.
 *
 * @example
 * ```ts
 * import type { FileBytes } from "./file-bytes.ts";
 * import type { LineSearch } from "./line-search.ts";
 *
 * declare const search: LineSearch; // finds "foo"
 * declare function read(abs: string): FileBytes;
 * const r = searchBatch(["/t/a.ts"], search, read, 101);
 * r.kinds[0] === SEARCHED; r.hits; // [[0, [[3, "foo"]]]]
 * ```
 *
 * @module
 */
import type { FileBytes } from "./file-bytes.ts";
import type { LineSearch } from "./line-search.ts";
import { looksBinary } from "./walk.ts";

/** Not a regular file, or unreadable. */
export const SKIPPED = 0;
/** Over the per-file size limit. */
export const TOO_LARGE = 1;
/** Read, but binary (a NUL near the start). */
export const BINARY = 2;
/** Read and searched. */
export const SEARCHED = 3;

export interface BatchResult {
  /** One of the constants above, per file. */
  kinds: Uint8Array;
  /** `[index in the batch, matches]` for each file with a match, in order. */
  hits: [number, [number, string][]][];
}

/**
 * Searches `paths` (files the walk listed as regular) in order, up to
 * `perFile` matching lines each.
 */
export function searchBatch(
  paths: readonly string[],
  search: LineSearch,
  read: (abs: string, knownFile?: boolean) => FileBytes,
  perFile: number,
): BatchResult {
  const kinds = new Uint8Array(paths.length);
  const hits: BatchResult["hits"] = [];
  for (let i = 0; i < paths.length; i++) {
    const got = read(paths[i], true);
    if (got.kind !== "bytes") {
      kinds[i] = got.kind === "too-large" ? TOO_LARGE : SKIPPED;
      continue;
    }
    if (looksBinary(got.bytes)) {
      kinds[i] = BINARY;
      continue;
    }
    kinds[i] = SEARCHED;
    const found = search(got.bytes, perFile);
    if (found.length > 0) hits.push([i, found]);
  }
  return { kinds, hits };
}
