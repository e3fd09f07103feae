/**
 * Where `xcsh a2a` keeps its tasks while they run and for a while after:
 * each task's view (status, artifacts, history), the controller that
 * cancels its run, and the listeners a stream holds. A task belongs to the
 * agent whose endpoint made it: it is found only there. Ended tasks are
 * kept {@link KEEP_ENDED_MS} and at most {@link MAX_KEPT} of them, the
 * oldest dropped first; running ones are never dropped. Also which xcsh
 * session each context (an agent's `contextId`) last left, so a later
 * message in that context continues the conversation; at most
 * {@link MAX_CONTEXTS} contexts are remembered, the oldest forgotten first.
 *
 * @module
 */
import { randomUUID } from "node:crypto";
import {
  isTerminal,
  type ServedArtifact,
  type ServedMessage,
  type TaskState,
  type TaskStatusView,
  type TaskView,
} from "./wire-shapes.ts";

/** How long an ended task stays readable. */
export const KEEP_ENDED_MS = 60 * 60 * 1000;
/** The most ended tasks kept. */
export const MAX_KEPT = 1000;
/** The most contexts whose session is remembered. */
export const MAX_CONTEXTS = 10_000;

export type TaskChange =
  | { kind: "status" }
  | { kind: "artifact"; artifact: ServedArtifact };

export class ServedTask implements TaskView {
  status: TaskStatusView;
  readonly artifacts: ServedArtifact[] = [];
  readonly history: ServedMessage[];
  /** Aborted to cancel the task's run (and end its children). */
  readonly controller = new AbortController();
  /** When the task reached a terminal state (ms since the epoch). */
  endedAt?: number;
  private readonly listeners = new Set<(c: TaskChange) => void>();
  private settle!: () => void;
  /** Settles once the task's run has returned (its children ended). */
  readonly settled: Promise<void> = new Promise((r) => this.settle = r);

  constructor(
    readonly id: string,
    readonly contextId: string,
    readonly agent: string,
    request: ServedMessage,
    private readonly now: () => number,
  ) {
    this.history = [request];
    this.status = { state: "submitted", timestamp: new Date(now()).toISOString() };
  }

  /** Moves to `state` (a terminal state is never left), telling the listeners. */
  setStatus(state: TaskState, text?: string): void {
    if (isTerminal(this.status.state)) return;
    const message: ServedMessage | undefined = text !== undefined
      ? { messageId: randomUUID(), role: "agent", text }
      : undefined;
    this.status = {
      state,
      ...(message ? { message } : {}),
      timestamp: new Date(this.now()).toISOString(),
    };
    if (isTerminal(state)) {
      this.endedAt = this.now();
      if (message) this.history.push(message);
    }
    this.emit({ kind: "status" });
  }

  /** Adds a whole artifact (not after the task ended). */
  addArtifact(artifact: ServedArtifact): void {
    if (isTerminal(this.status.state)) return;
    this.artifacts.push(artifact);
    this.emit({ kind: "artifact", artifact });
  }

  /** Called with every change from now on; returns the unsubscribe. */
  subscribe(fn: (c: TaskChange) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Marks the run as returned. */
  runEnded(): void {
    this.settle();
  }

  private emit(c: TaskChange): void {
    for (const fn of [...this.listeners]) fn(c);
  }
}

export class TaskBook {
  private readonly tasks = new Map<string, ServedTask>();
  private readonly sessions = new Map<string, string>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A new task of `agent` for the user's message `text`. */
  create(agent: string, request: { messageId: string; text: string; contextId?: string }) {
    this.sweep();
    const task = new ServedTask(
      randomUUID(),
      request.contextId ?? randomUUID(),
      agent,
      { messageId: request.messageId, role: "user", text: request.text },
      this.now,
    );
    this.tasks.set(task.id, task);
    return task;
  }

  /** Task `id` of `agent`, when it is kept. */
  find(agent: string, id: string): ServedTask | undefined {
    this.sweep();
    const t = this.tasks.get(id);
    return t && t.agent === agent ? t : undefined;
  }

  /** The session context `contextId` of `agent` last left, if any. */
  sessionOf(agent: string, contextId: string): string | undefined {
    return this.sessions.get(`${agent}\n${contextId}`);
  }

  /** Remembers that context `contextId` of `agent` is now in session `session`. */
  keepSession(agent: string, contextId: string, session: string): void {
    const key = `${agent}\n${contextId}`;
    this.sessions.delete(key);
    this.sessions.set(key, session);
    if (this.sessions.size > MAX_CONTEXTS) {
      this.sessions.delete(this.sessions.keys().next().value!);
    }
  }

  /** The tasks still running. */
  running(): ServedTask[] {
    return [...this.tasks.values()].filter((t) => !isTerminal(t.status.state));
  }

  /** Drops ended tasks past their time, then the oldest past the cap. */
  private sweep(): void {
    const now = this.now();
    const ended: ServedTask[] = [];
    for (const t of this.tasks.values()) {
      if (t.endedAt === undefined) continue;
      if (now - t.endedAt > KEEP_ENDED_MS) this.tasks.delete(t.id);
      else ended.push(t);
    }
    ended.sort((a, b) => a.endedAt! - b.endedAt!);
    for (const t of ended.slice(0, Math.max(0, ended.length - MAX_KEPT))) this.tasks.delete(t.id);
  }
}
