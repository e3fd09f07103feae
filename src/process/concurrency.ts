/**
 * Runs async jobs with at most N in flight: a list mapped in input order
 * ({@link mapLimit}), or a cap shared by callers that start jobs on their own
 * ({@link createLimiter}; waiting jobs start first come, first served).
 *
 * @example
 * ```ts
 * await mapLimit([1, 2, 3], 2, async (n) => n * 2); // [2, 4, 6]
 * declare function runOneChild(): Promise<number>;
 * const slot = createLimiter(8);
 * await slot(() => runOneChild());
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

/** Runs `fn` once fewer than `limit` jobs of this limiter are running. */
export type Limiter = <T>(fn: () => Promise<T>) => Promise<T>;

/** A cap of `limit` jobs at once, shared by everyone holding it. */
export function createLimiter(limit: number): Limiter {
  const max = Math.max(1, limit);
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    if (running >= max) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await fn();
    } finally {
      // Hand the slot straight to the next in line, or free it.
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
