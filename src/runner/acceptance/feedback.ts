/**
 * What a child is told when its work fails its acceptance checks: the
 * failing checks' names and the tail of their output, and how many rounds
 * it has left. Never the checks themselves (their commands, patterns or
 * globs): a child told only what failed cannot satisfy a check by editing
 * it. Pure.
 *
 * @example
 * ```ts
 * checkFeedback([{ name: "build", ok: false, output: "exit code 1" }], 0);
 * // "Your result was not accepted: 1 acceptance check failed.\n\n## build\nexit code 1\n\n…"
 * ```
 *
 * @module
 */
import type { CheckOutcome } from "../../types.ts";

/** The next user message of a child whose checks in `outcomes` failed. */
export function checkFeedback(outcomes: readonly CheckOutcome[], roundsLeft: number): string {
  const failed = outcomes.filter((o) => !o.ok && !o.skipped);
  const parts = [
    `Your result was not accepted: ${failed.length} acceptance check${
      failed.length === 1 ? "" : "s"
    } failed.`,
    ...failed.map((o) => `## ${o.name}\n${o.output}`),
    "Fix the cause of these failures, then submit your result again." +
    (roundsLeft === 0
      ? " This is your last round: if the checks fail again, the task is rejected."
      : ""),
  ];
  return parts.join("\n\n");
}
