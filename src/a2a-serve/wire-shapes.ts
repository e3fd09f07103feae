/**
 * How a served task, its status and its artifacts are written on the wire,
 * in A2A 1.0's JSON (ProtoJSON: `TASK_STATE_COMPLETED`, `ROLE_AGENT`, parts
 * by their field, stream events wrapped as `{ statusUpdate }`) or 0.3's
 * (`kind` discriminators, lower-case states, a `final` flag on the last
 * status update). Everything a client sees of a task goes through here.
 * Pure.
 *
 * @example
 * ```ts
 * declare const view: TaskView;
 * taskJson(view, "0.3"); // { kind: "task", id, contextId, status: { state: "completed", … }, … }
 * ```
 *
 * @module
 */
import type { Wire } from "./rpc-method.ts";

export type TaskState =
  | "submitted"
  | "working"
  | "completed"
  | "failed"
  | "canceled"
  | "rejected";

/** True for the states a task never leaves. */
export function isTerminal(state: TaskState): boolean {
  return state === "completed" || state === "failed" || state === "canceled" ||
    state === "rejected";
}

export interface ServedMessage {
  messageId: string;
  role: "user" | "agent";
  text: string;
}

export interface ServedArtifact {
  artifactId: string;
  name: string;
  text: string;
  /** Structured output (the agent's output schema), sent as a data part too. */
  data?: unknown;
  metadata?: Record<string, unknown>;
}

export interface TaskStatusView {
  state: TaskState;
  message?: ServedMessage;
  timestamp: string;
}

/** What a client may see of one task. */
export interface TaskView {
  id: string;
  contextId: string;
  status: TaskStatusView;
  artifacts: readonly ServedArtifact[];
  history: readonly ServedMessage[];
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function textPart(text: string, wire: Wire): Record<string, unknown> {
  return wire === "1.0" ? { text } : { kind: "text", text };
}

function messageJson(m: ServedMessage, ids: { taskId: string; contextId: string }, wire: Wire) {
  const parts = [textPart(m.text, wire)];
  return wire === "1.0"
    ? {
      messageId: m.messageId,
      contextId: ids.contextId,
      taskId: ids.taskId,
      role: m.role === "user" ? "ROLE_USER" : "ROLE_AGENT",
      parts,
    }
    : {
      kind: "message",
      messageId: m.messageId,
      contextId: ids.contextId,
      taskId: ids.taskId,
      role: m.role,
      parts,
    };
}

function statusJson(t: TaskView, wire: Wire): Record<string, unknown> {
  const s = t.status;
  return {
    state: wire === "1.0" ? `TASK_STATE_${s.state.toUpperCase()}` : s.state,
    ...(s.message
      ? { message: messageJson(s.message, { taskId: t.id, contextId: t.contextId }, wire) }
      : {}),
    timestamp: s.timestamp,
  };
}

/** An artifact: its text, and its structured output as a data part when it has one. */
export function artifactJson(a: ServedArtifact, wire: Wire): Record<string, unknown> {
  const parts: Record<string, unknown>[] = [textPart(a.text, wire)];
  if (a.data !== undefined) {
    if (wire === "1.0") parts.push({ data: a.data, mediaType: "application/json" });
    // A 0.3 data part holds an object: anything else is wrapped in one.
    else parts.push({ kind: "data", data: isPlainObject(a.data) ? a.data : { value: a.data } });
  }
  return {
    artifactId: a.artifactId,
    name: a.name,
    parts,
    ...(a.metadata ? { metadata: a.metadata } : {}),
  };
}

/** The task, with at most `historyLength` messages of its history (all when undefined). */
export function taskJson(t: TaskView, wire: Wire, historyLength?: number): Record<string, unknown> {
  const history = historyLength === undefined
    ? t.history
    : historyLength === 0
    ? []
    : t.history.slice(-historyLength);
  const ids = { taskId: t.id, contextId: t.contextId };
  return {
    ...(wire === "0.3" ? { kind: "task" } : {}),
    id: t.id,
    contextId: t.contextId,
    status: statusJson(t, wire),
    ...(t.artifacts.length > 0 ? { artifacts: t.artifacts.map((a) => artifactJson(a, wire)) } : {}),
    ...(history.length > 0 ? { history: history.map((m) => messageJson(m, ids, wire)) } : {}),
  };
}

/** The answer to a send: 1.0 wraps the task as `{ task }`, 0.3 sends it bare. */
export function sendResultJson(t: TaskView, wire: Wire, historyLength?: number) {
  const task = taskJson(t, wire, historyLength);
  return wire === "1.0" ? { task } : task;
}

/** A stream event for the task itself (the first event of a stream). */
export function taskEventJson(t: TaskView, wire: Wire): Record<string, unknown> {
  return sendResultJson(t, wire);
}

/** A stream event saying the task's status now. */
export function statusEventJson(t: TaskView, wire: Wire): Record<string, unknown> {
  const event = { taskId: t.id, contextId: t.contextId, status: statusJson(t, wire) };
  return wire === "1.0"
    ? { statusUpdate: event }
    : { kind: "status-update", ...event, final: isTerminal(t.status.state) };
}

/** A stream event carrying one whole artifact. */
export function artifactEventJson(
  t: TaskView,
  a: ServedArtifact,
  wire: Wire,
): Record<string, unknown> {
  const event = {
    taskId: t.id,
    contextId: t.contextId,
    artifact: artifactJson(a, wire),
    lastChunk: true,
  };
  return wire === "1.0" ? { artifactUpdate: event } : { kind: "artifact-update", ...event };
}
