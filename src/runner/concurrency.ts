/**
 * Runs async jobs with at most N in flight, keeping results in input order.
 *
 * @example
 * ```ts
 * await mapLimit([1, 2, 3], 2, async (n) => n * 2); // [2, 4, 6]
 * ```
 *
 * @module
 */

/** Maps `items` through `fn` with at most `limit` calls running at once. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  };
  const n = Math.max(1, Math.min(limit, items.length));
  await Promise.all(Array.from({ length: n }, worker));
  return results;
}
