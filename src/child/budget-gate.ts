/**
 * How a child under a budget asks its parent before each model call: a
 * `budget_request` event on stdout with a fresh, unguessable `reqId`, and a
 * wait for the parent's `grant` or `deny` with that id on stdin (the control
 * channel, `protocol/control.ts`). No answer within the timeout, or the
 * parent's pipe ending, is a refusal: a child whose governor is gone makes
 * no more calls. An answer with an id the child did not ask is ignored.
 *
 * @example
 * ```ts
 * const gate = createBudgetGate({ id: "0-a", emit: () => {}, timeoutMs: 30_000 });
 * // The control channel hands the parent's messages to gate.onControl.
 * gate.onControl({ type: "cancel" });
 * ```
 *
 * @module
 */
import type { Emit } from "../protocol/events.ts";
import { type ControlMessage, newRequestId } from "../protocol/control.ts";
import { type BudgetAnswer, type BudgetLink, exhaustionNotice } from "../protocol/budget-link.ts";

/** How long a child waits for its parent's answer before taking it as a refusal. */
export const DEFAULT_GRANT_TIMEOUT_MS = 60_000;

export interface BudgetGateOptions {
  id: string;
  emit: Emit;
  timeoutMs: number;
}

export interface BudgetGate extends BudgetLink {
  /** A control message from the parent. */
  onControl(message: ControlMessage): void;
  /** The parent's pipe ended: every open and later request is refused. */
  parentGone(): void;
}

export function createBudgetGate(o: BudgetGateOptions): BudgetGate {
  const waiting = new Map<string, (a: BudgetAnswer) => void>();
  let gone = false;
  let refused = false;
  const notice = exhaustionNotice();
  const answer = (reqId: string, a: BudgetAnswer) => {
    const resolve = waiting.get(reqId);
    if (!resolve) return;
    waiting.delete(reqId);
    if (!a.ok) refused = true;
    resolve(a);
  };
  return {
    request(model, input, output) {
      if (gone) {
        refused = true;
        return Promise.resolve({ ok: false, reason: "the parent process is gone" });
      }
      const reqId = newRequestId();
      return new Promise<BudgetAnswer>((resolve) => {
        const timer = setTimeout(() =>
          answer(reqId, {
            ok: false,
            reason: `the parent did not answer a budget request within ${
              Math.round(o.timeoutMs / 1000)
            } s`,
          }), o.timeoutMs);
        waiting.set(reqId, (a) => {
          clearTimeout(timer);
          resolve(a);
        });
        o.emit({ type: "budget_request", id: o.id, reqId, model, input, output });
      });
    },
    spent(reqId, model, usage) {
      o.emit({
        type: "budget_spent",
        id: o.id,
        reqId,
        model,
        input: usage.input,
        output: usage.output,
        cacheRead: usage.cacheRead ?? 0,
        cacheWrite: usage.cacheWrite ?? 0,
      });
    },
    exhausted: () => refused,
    onExhausted: notice.listen,
    onControl(m) {
      if (m.type === "grant") answer(m.reqId, { ok: true, reqId: m.reqId });
      else if (m.type === "deny") answer(m.reqId, { ok: false, reason: m.reason });
      else if (m.type === "exhausted") {
        refused = true;
        notice.tell(m.reason);
      }
    },
    parentGone() {
      gone = true;
      for (const reqId of [...waiting.keys()]) {
        answer(reqId, { ok: false, reason: "the parent process is gone" });
      }
    },
  };
}
