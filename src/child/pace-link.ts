/**
 * How a child paced by its parent asks before each model request: a
 * `pace_request` event on stdout with a fresh, unguessable `reqId`, a wait
 * for the parent's `pace_grant` with that id on stdin, and after the answer
 * a `pace_done` event with what it said of the provider's limits. The
 * parent (in the end, the run's top-level process) admits every request of
 * the tree by one view (`model/provider-gate.ts` `admitForChild`). The
 * parent's pipe ending lets every waiting and later request go: the child
 * is ending then anyway, and its own view still holds its calls.
 *
 * @example
 * ```ts
 * const link = createPaceLink({ id: "0-a", emit: () => {} });
 * const signal = new AbortController().signal;
 * const asked = link.upstream({ provider: "p", key: "" }, 10, signal);
 * link.parentGone();
 * (await asked)({ requestsRemaining: 3 });
 * ```
 *
 * @module
 */
import type { Emit } from "../protocol/events.ts";
import { type ControlMessage, newRequestId } from "../protocol/control.ts";
import type { PaceUpstream } from "../model/provider-gate.ts";
import type { RateLimitReading } from "../model/rate-limit-view.ts";

export interface PaceLink {
  /** Asks the parent before one request (for `setPaceUpstream`). */
  upstream: PaceUpstream;
  /** A control message from the parent. */
  onControl(message: ControlMessage): void;
  /** The parent's pipe ended. */
  parentGone(): void;
}

export function createPaceLink(o: { id: string; emit: Emit }): PaceLink {
  const waiting = new Map<string, () => void>();
  let gone = false;
  return {
    upstream(scope, tokens, signal) {
      const reqId = newRequestId();
      const done = (reading?: RateLimitReading) => {
        if (!gone) o.emit({ type: "pace_done", id: o.id, reqId, ...reading });
      };
      if (gone) return Promise.resolve(done);
      return new Promise((resolve, reject) => {
        const onAbort = () => {
          waiting.delete(reqId);
          reject(signal.reason);
        };
        if (signal.aborted) return onAbort();
        waiting.set(reqId, () => {
          signal.removeEventListener("abort", onAbort);
          resolve(done);
        });
        signal.addEventListener("abort", onAbort, { once: true });
        o.emit({
          type: "pace_request",
          id: o.id,
          reqId,
          provider: scope.provider,
          key: scope.key,
          ...(scope.model !== undefined ? { model: scope.model } : {}),
          tokens,
        });
      });
    },
    onControl(m) {
      if (m.type !== "pace_grant") return;
      const go = waiting.get(m.reqId);
      if (!go) return;
      waiting.delete(m.reqId);
      go();
    },
    parentGone() {
      gone = true;
      for (const go of [...waiting.values()]) go();
      waiting.clear();
    },
  };
}
