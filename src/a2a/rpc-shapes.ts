/**
 * What xcsh sends over A2A's JSON-RPC binding, by protocol version: the
 * method names (1.0 `SendMessage`, `SendStreamingMessage`, `GetTask`,
 * `CancelTask`; 0.3 `message/send`, `message/stream`, `tasks/get`,
 * `tasks/cancel`), the `A2A-Version` header (1.0 only: a server reads a
 * request without it as 0.3), and the message a task's assignment becomes
 * (1.0: `role: ROLE_USER`, parts `{text}`; 0.3: `kind: message`,
 * `role: user`, parts `{kind: text, text}`). A follow-up names the context
 * (and the task, when it waits for input) it continues. Pure.
 *
 * @example
 * ```ts
 * methodName("1.0", "send"); // "SendMessage"
 * methodName("0.3", "cancel"); // "tasks/cancel"
 * ```
 *
 * @module
 */
import type { A2AVersion } from "./agent-card.ts";

export type RpcOperation = "send" | "stream" | "get" | "cancel";

const METHODS: Record<A2AVersion, Record<RpcOperation, string>> = {
  "1.0": {
    send: "SendMessage",
    stream: "SendStreamingMessage",
    get: "GetTask",
    cancel: "CancelTask",
  },
  "0.3": {
    send: "message/send",
    stream: "message/stream",
    get: "tasks/get",
    cancel: "tasks/cancel",
  },
};

/** The JSON-RPC method of `op` in `version`. */
export function methodName(version: A2AVersion, op: RpcOperation): string {
  return METHODS[version][op];
}

/** The headers every JSON-RPC call of `version` carries (besides auth). */
export function versionHeaders(version: A2AVersion): Record<string, string> {
  return version === "1.0" ? { "a2a-version": "1.0" } : {};
}

/** Where a follow-up message belongs. */
export interface Continuing {
  contextId?: string;
  /** The task that waits for input (`input-required`), if any. */
  taskId?: string;
}

/** The `params` of a send or stream call carrying `text`. */
export function sendParams(
  version: A2AVersion,
  text: string,
  messageId: string,
  continuing: Continuing = {},
): Record<string, unknown> {
  const where = {
    ...(continuing.contextId ? { contextId: continuing.contextId } : {}),
    ...(continuing.taskId ? { taskId: continuing.taskId } : {}),
  };
  const message = version === "1.0"
    ? { messageId, role: "ROLE_USER", parts: [{ text, mediaType: "text/plain" }], ...where }
    : { kind: "message", messageId, role: "user", parts: [{ kind: "text", text }], ...where };
  return { message };
}

/** The `params` of a get or cancel call for task `id`. */
export function taskParams(id: string): Record<string, unknown> {
  return { id };
}
