/**
 * Whether the run's budget covers one more model call: the arithmetic of the
 * run governor, pure. Each call reserves the most it may cost (its input
 * estimate plus the output it asks for, priced) before it is made, and is
 * settled with what it cost. A call is granted only when everything spent,
 * everything reserved by calls still in flight, and this call's reservation
 * fit under every limit (dollars, tokens, requests) and the deadline has not
 * passed. The first refusal exhausts the budget: every later request is
 * refused too, so no new call and no new task starts.
 *
 * The bound: a settled call counts what it cost; a granted call counts its
 * reservation until then. Spend exceeds a limit only by what in-flight calls
 * cost beyond their reservation (an input estimate that was low), never by
 * a call made after the limit was reached.
 *
 * @example
 * ```ts
 * const g = createGovernor({ usd: 1 }, 0);
 * g.reserve("a", { usd: 0.6, tokens: 100 }, 0); // { ok: true }
 * g.reserve("b", { usd: 0.6, tokens: 100 }, 0); // { ok: false, limit: "usd", … }
 * ```
 *
 * @module
 */

/** The limits of one run; each optional. `deadlineAt` is a time in ms (the clock passed in). */
export interface BudgetLimits {
  usd?: number;
  tokens?: number;
  requests?: number;
  deadlineAt?: number;
}

/** What one call costs or may cost. */
export interface CallCost {
  usd: number;
  tokens: number;
}

/** The name of a limit, as the result and messages say it. */
export type LimitName = "usd" | "tokens" | "requests" | "deadline";

/** What the run spent against its limits (the run result's `budget`). */
export interface BudgetReport {
  limits: { usd?: number; tokens?: number; requests?: number; deadlineMs?: number };
  spent: { usd: number; tokens: number; requests: number; elapsedMs: number };
  /** Calls granted and not yet settled. */
  inFlight: number;
  /** The limit that refused a call, once one has. */
  exhausted?: LimitName;
}

export type Grant = { ok: true } | { ok: false; limit: LimitName; reason: string };

export interface Governor {
  /** Reserves `cost` for the call `reqId`, or says which limit refuses it. */
  reserve(reqId: string, cost: CallCost, now: number): Grant;
  /** The call `reqId` cost `actual`; an unknown id counts as a call made without a reservation. */
  settle(reqId: string, actual: CallCost): void;
  /** A granted call that was not made (or failed before usage): its reservation goes back. */
  release(reqId: string): void;
  /** The limit that ended the budget, if one has. */
  exhausted(): LimitName | undefined;
  report(now: number): BudgetReport;
}

function money(n: number): string {
  return `$${n.toFixed(n < 1 ? 4 : 2)}`;
}

/** A governor for `limits`, its clock starting at `startedAt`. */
export function createGovernor(limits: BudgetLimits, startedAt: number): Governor {
  const spent = { usd: 0, tokens: 0, requests: 0 };
  const reserved = new Map<string, CallCost>();
  let ended: LimitName | undefined;
  const held = () => {
    let usd = 0, tokens = 0;
    for (const c of reserved.values()) {
      usd += c.usd;
      tokens += c.tokens;
    }
    return { usd, tokens, requests: reserved.size };
  };
  const refuse = (limit: LimitName, reason: string): Grant => {
    ended ??= limit;
    return { ok: false, limit, reason };
  };
  return {
    reserve(reqId, cost, now) {
      if (ended) return { ok: false, limit: ended, reason: `the run's ${ended} budget is spent` };
      if (limits.deadlineAt !== undefined && now >= limits.deadlineAt) {
        return refuse("deadline", "the run's deadline has passed");
      }
      const h = held();
      if (limits.requests !== undefined && spent.requests + h.requests + 1 > limits.requests) {
        return refuse("requests", `the run's budget of ${limits.requests} model requests is spent`);
      }
      if (limits.tokens !== undefined && spent.tokens + h.tokens + cost.tokens > limits.tokens) {
        return refuse(
          "tokens",
          `the next call may use ${cost.tokens} tokens; ${
            Math.max(0, limits.tokens - spent.tokens - h.tokens)
          } of the run's ${limits.tokens} are left`,
        );
      }
      if (limits.usd !== undefined && spent.usd + h.usd + cost.usd > limits.usd) {
        return refuse(
          "usd",
          `the next call may cost ${money(cost.usd)}; ${
            money(Math.max(0, limits.usd - spent.usd - h.usd))
          } of the run's ${money(limits.usd)} are left`,
        );
      }
      reserved.set(reqId, { ...cost });
      return { ok: true };
    },
    settle(reqId, actual) {
      reserved.delete(reqId);
      spent.usd += actual.usd;
      spent.tokens += actual.tokens;
      spent.requests++;
    },
    release(reqId) {
      reserved.delete(reqId);
    },
    exhausted: () => ended,
    report(now) {
      return {
        limits: {
          ...(limits.usd !== undefined ? { usd: limits.usd } : {}),
          ...(limits.tokens !== undefined ? { tokens: limits.tokens } : {}),
          ...(limits.requests !== undefined ? { requests: limits.requests } : {}),
          ...(limits.deadlineAt !== undefined ? { deadlineMs: limits.deadlineAt - startedAt } : {}),
        },
        spent: { ...spent, elapsedMs: now - startedAt },
        inFlight: reserved.size,
        ...(ended ? { exhausted: ended } : {}),
      };
    },
  };
}

/** One line: what the run spent against each limit it had. */
export function budgetLine(r: BudgetReport): string {
  const parts: string[] = [];
  const usd = (n: number) => `$${n.toFixed(4)}`;
  if (r.limits.usd !== undefined) parts.push(`${usd(r.spent.usd)} of ${usd(r.limits.usd)}`);
  if (r.limits.tokens !== undefined) parts.push(`${r.spent.tokens} of ${r.limits.tokens} tokens`);
  if (r.limits.requests !== undefined) {
    parts.push(`${r.spent.requests} of ${r.limits.requests} requests`);
  }
  if (r.limits.deadlineMs !== undefined) {
    parts.push(
      `${(r.spent.elapsedMs / 1000).toFixed(1)} s of ${(r.limits.deadlineMs / 1000).toFixed(0)} s`,
    );
  }
  const end = r.exhausted ? `; the ${r.exhausted} limit stopped the run` : "";
  return `budget: spent ${parts.join(", ")}${end}`;
}
