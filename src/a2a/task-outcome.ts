/**
 * What a settled remote task gives its xcsh task: `completed` (or a direct
 * message) is a result whose text is the message, else the artifacts in
 * order, else the last status text; with an output schema the structured
 * value is a data part, else the text read as JSON, and it must satisfy the
 * schema. Any other state is an error naming it and the far side's words.
 * Pure.
 *
 * @example
 * ```ts
 * import { taskTracker } from "./task-tracker.ts";
 * const t = taskTracker();
 * t.apply({ kind: "message", taskId: "", contextId: "c", content: { text: "hi" } });
 * taskOutcome(t, "peer"); // { status: "ok", text: "hi" }
 * ```
 *
 * @module
 */
import type { TaskTracker } from "./task-tracker.ts";
import type { PartsContent } from "./task-updates.ts";

export type RemoteOutcome =
  | { status: "ok"; text: string; data?: unknown }
  | { status: "error"; error: string };

/** The part of an output validator used here (`schema/output-schema.ts`). */
export interface ResultCheck {
  validate(data: unknown): { ok: true } | { ok: false; errors: string[] };
  normalize?: (data: unknown) => unknown;
}

/** The content the task answered with. */
export function resultContent(t: TaskTracker): PartsContent {
  if (t.message) return t.message;
  const parts = [...t.artifacts.values()];
  if (parts.length === 0) return { text: t.statusText };
  const data = parts.findLast((p) => "data" in p);
  return {
    text: parts.map((p) => p.text).filter((x) => x !== "").join("\n"),
    ...(data ? { data: data.data } : {}),
  };
}

/** The outcome of settled task `t` of remote agent `name`. */
export function taskOutcome(t: TaskTracker, name: string, check?: ResultCheck): RemoteOutcome {
  const said = t.statusText ? `: ${t.statusText}` : "";
  if (t.message === undefined && t.state !== "completed") {
    if (t.state === "input-required" || t.state === "auth-required") {
      return {
        status: "error",
        error: `remote agent '${name}' waits for ${
          t.state === "auth-required" ? "authentication" : "input"
        } (${t.state})${said}; answer it by resuming this task's session`,
      };
    }
    return { status: "error", error: `remote agent '${name}' ended the task as ${t.state}${said}` };
  }
  const content = resultContent(t);
  if (!check) return { status: "ok", text: content.text };
  let data: unknown = content.data;
  if (!("data" in content)) {
    try {
      data = JSON.parse(content.text.trim().replace(/^```(?:json)?\s*|\s*```$/g, ""));
    } catch {
      return {
        status: "error",
        error: `remote agent '${name}' answered text, not the JSON the output schema asks for: ` +
          clip(content.text),
      };
    }
  }
  const value = check.normalize ? check.normalize(data) : data;
  const verdict = check.validate(value);
  if (!verdict.ok) {
    return {
      status: "error",
      error: `remote agent '${name}''s result does not match the output schema: ${
        verdict.errors.slice(0, 3).join("; ")
      }`,
    };
  }
  return { status: "ok", text: content.text, data: value };
}

function clip(text: string): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > 120 ? `${one.slice(0, 120)}…` : one || "(empty)";
}
