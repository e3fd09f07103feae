/**
 * What an A2A server's answer says, in one shape for both versions: a
 * `task` (its state, status message and artifacts), a `status` update, an
 * `artifact` update, or a direct `message`. 1.0 wraps each in a field named
 * for it (`{task}`, `{message}`, `{statusUpdate}`, `{artifactUpdate}`) with
 * states like `TASK_STATE_COMPLETED` and parts `{text}` / `{data}`; 0.3
 * tags each with `kind` (`task`, `message`, `status-update`,
 * `artifact-update`) with states like `completed` and parts `{kind: text}`.
 * A state is read as lower-case words (`input-required`). Pure.
 *
 * @example
 * ```ts
 * readUpdate({ statusUpdate: { taskId: "t", contextId: "c", status: { state: "TASK_STATE_WORKING" } } });
 * // { kind: "status", taskId: "t", contextId: "c", state: "working", text: "" }
 * ```
 *
 * @module
 */
import { isRecord } from "../formats/values.ts";

/** The content of some parts: their text, and their structured data if any. */
export interface PartsContent {
  text: string;
  data?: unknown;
}

export type Update =
  | {
    kind: "task";
    taskId: string;
    contextId: string;
    state: string;
    text: string;
    artifacts: { id: string; content: PartsContent }[];
  }
  | { kind: "status"; taskId: string; contextId: string; state: string; text: string }
  | {
    kind: "artifact";
    taskId: string;
    contextId: string;
    id: string;
    append: boolean;
    content: PartsContent;
  }
  | { kind: "message"; taskId: string; contextId: string; content: PartsContent };

/** The states after which a task does nothing more. */
export const TERMINAL_STATES: readonly string[] = ["completed", "failed", "canceled", "rejected"];
/** The states in which a task waits for its client. */
export const INTERRUPTED_STATES: readonly string[] = ["input-required", "auth-required"];

/** A state in lower-case words: `TASK_STATE_INPUT_REQUIRED` → `input-required`. */
export function stateName(raw: unknown): string {
  if (typeof raw !== "string" || raw === "") return "unknown";
  const s = raw.toLowerCase().replace(/^task_state_/, "").replace(/_/g, "-");
  return s === "cancelled" ? "canceled" : s;
}

/** What a list of parts holds (text parts joined; the last data part). */
export function partsContent(parts: unknown): PartsContent {
  const out: PartsContent = { text: "" };
  if (!Array.isArray(parts)) return out;
  const texts: string[] = [];
  for (const p of parts) {
    if (!isRecord(p)) continue;
    if (typeof p.text === "string") texts.push(p.text);
    else if ("data" in p && (p.kind === undefined || p.kind === "data")) out.data = p.data;
    else {
      const file = isRecord(p.file) ? p.file : p;
      const name = file.name ?? file.filename ?? file.uri ?? file.url ?? "unnamed";
      texts.push(`[file: ${String(name)}]`);
    }
  }
  out.text = texts.join("\n");
  if (out.text === "" && "data" in out) out.text = JSON.stringify(out.data);
  return out;
}

function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

function statusOf(status: unknown): { state: string; text: string } {
  if (!isRecord(status)) return { state: "unknown", text: "" };
  const message = isRecord(status.message) ? partsContent(status.message.parts).text : "";
  return { state: stateName(status.state), text: message };
}

function task(t: Record<string, unknown>): Update {
  const s = statusOf(t.status);
  const artifacts = (Array.isArray(t.artifacts) ? t.artifacts : []).filter(isRecord).map((a) => ({
    id: str(a.artifactId),
    content: partsContent(a.parts),
  }));
  return {
    kind: "task",
    taskId: str(t.id),
    contextId: str(t.contextId),
    ...s,
    artifacts,
  };
}

/** One answer (a call's `result`, or one stream event's), or undefined when it is none of these. */
export function readUpdate(result: unknown): Update | undefined {
  if (!isRecord(result)) return undefined;
  const kind = result.kind;
  const t = isRecord(result.task) ? result.task : kind === "task" ? result : undefined;
  if (t) return task(t);
  const m = isRecord(result.message) && kind === undefined
    ? result.message
    : kind === "message"
    ? result
    : undefined;
  if (m) {
    return {
      kind: "message",
      taskId: str(m.taskId),
      contextId: str(m.contextId),
      content: partsContent(m.parts),
    };
  }
  const su = isRecord(result.statusUpdate)
    ? result.statusUpdate
    : kind === "status-update"
    ? result
    : undefined;
  if (su) {
    return {
      kind: "status",
      taskId: str(su.taskId),
      contextId: str(su.contextId),
      ...statusOf(su.status),
    };
  }
  const au = isRecord(result.artifactUpdate)
    ? result.artifactUpdate
    : kind === "artifact-update"
    ? result
    : undefined;
  if (au && isRecord(au.artifact)) {
    return {
      kind: "artifact",
      taskId: str(au.taskId),
      contextId: str(au.contextId),
      id: str(au.artifact.artifactId),
      append: au.append === true,
      content: partsContent(au.artifact.parts),
    };
  }
  return undefined;
}
