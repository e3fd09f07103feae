/**
 * The limits of a task (the envelope's `limits`: its type lives here), their
 * defaults, and the largest time limit a timer can hold.
 *
 * Decides what a task gets when nothing says otherwise (50 model calls, 600 s,
 * 3 invalid submissions), the most tasks one call may hold, and how a time limit becomes a timer: timers hold at
 * most 2³¹−1 ms (about 24.8 days), and a larger value would fire at once, so
 * longer limits are capped there — in practice, no limit. Pure.
 *
 * @example
 * ```ts
 * timerMs(99_999_999 * 1000); // 2147483647
 * ```
 *
 * @module
 */
/** Limits the parent hands a child. */
export interface TaskLimits {
  maxTurns: number;
  timeoutMs: number;
  /** Invalid `submit_result` calls tolerated before the task fails. */
  submitRetries: number;
}

/** Limits used when neither the agent, the call nor the config sets one. */
export const DEFAULT_LIMITS: Readonly<TaskLimits> = {
  maxTurns: 50,
  timeoutMs: 600_000,
  submitRetries: 3,
};

/**
 * The most tasks one call may hold (`--task` on the command line, `tasks` of
 * the MCP and `task` tools): a bound on the children and envelopes one call
 * queues, whatever the concurrency.
 */
export const MAX_TASKS_PER_CALL = 64;

/**
 * The largest envelope a parent sends or a child reads (16 MiB): far above
 * any model's context window, far below what would exhaust memory.
 */
export const MAX_ENVELOPE_BYTES = 16 * 1024 * 1024;

/** The message for an envelope of `bytes` over {@link MAX_ENVELOPE_BYTES}. */
export function envelopeTooLarge(bytes: number): string {
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  return `the task envelope is ${mib(bytes)}, over the ${
    mib(MAX_ENVELOPE_BYTES)
  } limit: shorten the assignment or the context`;
}

/** The longest delay `setTimeout` honours. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A time limit in milliseconds as a timer can hold it: at least 1, at most {@link MAX_TIMER_MS}. */
export function timerMs(ms: number): number {
  if (!Number.isFinite(ms)) return MAX_TIMER_MS;
  return Math.min(Math.max(1, Math.round(ms)), MAX_TIMER_MS);
}
