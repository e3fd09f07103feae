/**
 * One prepared task from start to result, with what surrounds the child:
 * its worktree when isolated (created first, finished after: removed when
 * nothing changed, else named in the result) and its session (header,
 * messages, events, result; the lock released at the end), and its
 * acceptance checks when it has some: the start state and the check
 * scripts are taken before the child starts, the rounds run in
 * `acceptance/rounds.ts`. Every event and
 * the result are scrubbed of the run's secrets here, once, before anything
 * records, prints, streams or saves them: the child scrubs its own, but a
 * child behind a launcher may not know the parent's.
 *
 * @module
 */
import type { BudgetLink } from "../protocol/budget-link.ts";
import { spawnChild } from "./spawn/executor.ts";
import type { SpareChild } from "./spawn/spare-child.ts";
import type { SessionKeeper } from "./task-sessions/task-session.ts";
import { createWorktree, finishWorktree, type RepoBase, type Worktree } from "../git/worktree.ts";
import type { ReservedSession } from "./task-sessions/task-session.ts";
import type { TaskResult, XcshConfig } from "../types.ts";
import type { AcceptPlan } from "../plan/accept-plan.ts";
import type { TaskEnvelope } from "../protocol/envelope.ts";
import type { ChildEvent } from "../protocol/events.ts";
import type { LaunchPlan } from "../plan/launcher-choice.ts";
import { redactValue } from "../text/redact.ts";

/** How a prepared task is isolated. */
export type Isolate =
  | { kind: "new"; base: RepoBase }
  /** A resumed session's kept worktree. */
  | { kind: "existing"; worktree: Worktree };

export interface TaskStart {
  envelope: TaskEnvelope;
  env: Record<string, string>;
  timeoutMs: number;
  session?: ReservedSession;
  isolate?: Isolate;
  keeper: SessionKeeper;
  /** The values hidden from every event and the result (`TaskTool.secrets`). */
  secrets: readonly string[];
  /** The folder of worktrees. */
  worktrees: string;
  run?: string;
  signal?: AbortSignal;
  onEvent?: (event: ChildEvent) => void;
  /** Start the child through this launcher. */
  launch?: { plan: LaunchPlan; binary: readonly string[] };
  /** The run's budget the child draws from. */
  budget?: BudgetLink;
  /** A child started ahead, for the first round when it may serve (`spawn/spare-child.ts`). */
  spare?: SpareChild;
  /** Completes the result before it is recorded (its cost). */
  finalize?: (result: TaskResult) => Promise<TaskResult>;
  /** The task's acceptance checks, and what their commands run with. */
  accept?: {
    plan: AcceptPlan;
    config: XcshConfig;
    home: string;
    /** The parent's environment. */
    env: Readonly<Record<string, string | undefined>>;
  };
}

/** Runs the task; never throws (every failure is an error result). */
export async function runPreparedTask(t: TaskStart): Promise<TaskResult> {
  let envelope = t.envelope;
  let worktree: Worktree | undefined;
  const fail = (error: string): TaskResult => ({
    id: envelope.id,
    agent: envelope.agent.name,
    status: "error",
    error,
  });
  try {
    if (t.isolate?.kind === "new") {
      worktree = await createWorktree(t.isolate.base, t.worktrees, t.session?.id ?? newName());
    } else if (t.isolate?.kind === "existing") {
      worktree = t.isolate.worktree;
    }
    if (worktree) envelope = { ...envelope, cwd: worktree.cwd };
    const recorder = t.session
      ? t.keeper.open(t.session, envelope, {
        ...(worktree
          ? {
            worktree: {
              path: worktree.path,
              branch: worktree.branch,
              repo: worktree.repo,
              base: worktree.base,
            },
          }
          : {}),
        ...(t.run ? { run: t.run } : {}),
      })
      : undefined;
    // Only the first round may take the spare; a later one starts its own child.
    let spare = t.spare;
    const round = (e: typeof envelope, messages: unknown[]) => {
      const first = spare;
      spare = undefined;
      return spawnChild({
        envelope: e,
        env: t.env,
        timeoutMs: t.timeoutMs,
        signal: t.signal,
        ...(t.launch ? { launch: t.launch } : {}),
        ...(t.budget ? { budget: t.budget } : {}),
        ...(first ? { spare: first } : {}),
        onEvent: (event) => {
          if (event.type === "message") messages.push(event.message);
          // The start of a task in a worktree says where it works.
          const ev = redactValue(
            event.type === "start" && worktree
              ? { ...event, worktree: { path: worktree.path, branch: worktree.branch } }
              : event,
            t.secrets,
          );
          recorder?.event(ev);
          t.onEvent?.(ev);
        },
      });
    };
    const accept = t.accept;
    let result: TaskResult;
    if (accept) {
      // Loaded only for a task with checks: their commands' sandbox and
      // network proxy cost every other task's start.
      const [{ runRounds }, { startState }, { pinCheckScripts }] = await Promise.all([
        import("./acceptance/rounds.ts"),
        import("./acceptance/changes.ts"),
        import("./acceptance/check-scripts.ts"),
      ]);
      // The files a scope check judges are those changed after this point.
      const start = accept.plan.checks.some((c) => c.kind === "scope")
        ? await startState(envelope.cwd, accept.env)
        : undefined;
      // So are the scripts the check commands name (a child must not rewrite them to pass).
      const pins = pinCheckScripts(accept.plan.checks, {
        cwd: envelope.cwd,
        home: accept.home,
        config: accept.config,
      });
      result = await runRounds({
        plan: accept.plan,
        envelope,
        start,
        pins,
        secrets: t.secrets,
        place: { config: accept.config, home: accept.home, env: accept.env, signal: t.signal },
        runRound: round,
      });
    } else {
      result = await round(envelope, []);
    }
    if (worktree) {
      const kept = await finishWorktree(worktree, t.worktrees, t.session?.id ?? worktree.id).catch(
        (err) => ({
          path: worktree!.path,
          branch: worktree!.branch,
          changed: [`(not inspected: ${(err as Error).message})`],
        }),
      );
      if (kept) result = { ...result, worktree: kept };
    }
    if (t.session) result = { ...result, session: t.session.id };
    if (t.finalize) result = await t.finalize(result);
    result = redactValue(result, t.secrets);
    recorder?.result(result);
    return result;
  } catch (err) {
    return redactValue(fail(err instanceof Error ? err.message : String(err)), t.secrets);
  } finally {
    t.session?.release();
  }
}

function newName(): string {
  return `task-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}
