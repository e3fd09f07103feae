/**
 * The ratelimit section: a fan-out of 64 tasks at concurrency 16 against the
 * local model server limiting requests per key the way the real APIs do
 * (`tests/support/rate-limits.ts`: a token bucket of 8 requests refilled at
 * 8 per second, a "minute" scaled to one second), a fraction of what the
 * fan-out asks for. Every task must end ok; the wall time is compared with
 * the least the limits allow: the first 8 requests at once, then one per
 * refill interval, so (64 − 8) × 125 ms (target ≤ 1.2×). The 429s the server
 * sent are recorded for information.
 *
 * @module
 */
import { startModelServer } from "../../tests/support/model-server.ts";
import { details, log, median, row } from "../report.ts";
import { requireXcsh } from "../measure.ts";
import { runTasks, SUBMIT, taskHome } from "./tasks.ts";

const TASKS = 64;
const CONCURRENCY = 16;
const PER_MINUTE = 8;
const MINUTE_MS = 1000;

export async function benchRateLimit(): Promise<void> {
  requireXcsh();
  const ideal = ((TASKS - PER_MINUTE) * MINUTE_MS) / PER_MINUTE;
  const runs: number[] = [];
  const refused: number[] = [];
  for (let i = 0; i < 3; i++) {
    // A fresh server per run: each run starts with a full bucket.
    const server = await startModelServer({
      respond: () => SUBMIT,
      rateLimits: { requestsPerMinute: PER_MINUTE, minuteMs: MINUTE_MS },
    });
    try {
      const { home, cwd } = taskHome(`ratelimit-${i}`, server.url, CONCURRENCY);
      runs.push((await runTasks(home, cwd, TASKS)).ms);
      refused.push(server.limited().refused);
      log(`ratelimit run ${i + 1}: ${Math.round(runs.at(-1)!)} ms, ${refused.at(-1)} × 429`);
    } finally {
      await server.close();
    }
  }
  row(
    "ratelimit",
    `${TASKS} tasks at ${CONCURRENCY} vs the limits' least (${PER_MINUTE}/s bucket)`,
    median(runs),
    ideal,
    "ms",
    1.2,
  );
  details.ratelimit = { runsMs: runs, idealMs: ideal, refused };
}
