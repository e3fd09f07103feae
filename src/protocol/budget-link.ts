/**
 * What a task runner asks of the run's budget ({@link BudgetLink}): the one
 * interface both ends of the channel share. At the top of a run it is the
 * governor itself (`runner/run-budget.ts`); inside a child it is the child's
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
}

/** The error a model call refused by the budget throws; its message says which limit. */
export class BudgetRefused extends Error {
  constructor(reason: string) {
    super(`stopped by the run's budget: ${reason}`);
    this.name = "BudgetRefused";
  }
}
