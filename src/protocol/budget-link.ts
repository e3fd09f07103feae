/**
 * What a task runner asks of the run's budget ({@link BudgetLink}): the one
 * interface both ends of the channel share. At the top of a run it is the
 * governor itself (`runner/budget/run-budget.ts`); inside a child it is the child's
 * gate (`child/budget-gate.ts`), which asks its own parent over the control
 * channel, so a grandchild's request travels up through every level.
 *
 * @module
 */
import type { TokenUsage } from "../types.ts";

/** The answer to one request: a grant names the reservation to settle later. */
export type BudgetAnswer = { ok: true; reqId: string } | { ok: false; reason: string };

export interface BudgetLink {
  /** May a call on `model` with `input` tokens in and up to `output` out be made? */
  request(model: string, input: number, output: number): Promise<BudgetAnswer>;
  /** The granted call `reqId` used `usage`. */
  spent(reqId: string, model: string, usage: TokenUsage): void;
  /** Whether the budget has refused a call: then no new task starts. */
  exhausted(): boolean;
  /**
   * Calls `listener` once, with the reason, when the budget first becomes
   * exhausted anywhere in the run (here, or told by the parent); the result
   * removes it. Running children pass it on, so no task of the tree starts
   * a sub-task after that.
   */
  onExhausted(listener: (reason: string) => void): () => void;
}

/** The listeners of one budget link, told once when it becomes exhausted. */
export function exhaustionNotice(): {
  listen(listener: (reason: string) => void): () => void;
  tell(reason: string): void;
} {
  const listeners = new Set<(reason: string) => void>();
  let told: string | undefined;
  return {
    listen(listener) {
      if (told !== undefined) {
        listener(told);
        return () => {};
      }
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    tell(reason) {
      if (told !== undefined) return;
      told = reason;
      for (const l of [...listeners]) l(reason);
      listeners.clear();
    },
  };
}

/** The error a model call refused by the budget throws; its message says which limit. */
export class BudgetRefused extends Error {
  constructor(reason: string) {
    super(`stopped by the run's budget: ${reason}`);
    this.name = "BudgetRefused";
  }
}
