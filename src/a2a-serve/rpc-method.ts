/**
 * Which operation a JSON-RPC method name asks for, and in which protocol
 * version the answer is written: A2A 1.0 names its methods in PascalCase
 * (`SendMessage`, `SendStreamingMessage`, `GetTask`, `CancelTask`), 0.3 with
 * slashes (`message/send`, `message/stream`, `tasks/get`, `tasks/cancel`);
 * the name decides the wire shape of the whole exchange. Methods of either
 * version this server does not offer (push notifications, task lists,
 * resubscription, the extended card) are known as such, so they are told
 * "unsupported" rather than "not found". Pure.
 *
 * @example
 * ```ts
 * methodOf("SendMessage"); // { op: "send", wire: "1.0" }
 * methodOf("tasks/cancel"); // { op: "cancel", wire: "0.3" }
 * methodOf("ListTasks"); // { unsupported: true }
 * ```
 *
 * @module
 */

export type Wire = "1.0" | "0.3";
export type Operation = "send" | "stream" | "get" | "cancel";

const METHODS: Record<string, { op: Operation; wire: Wire }> = {
  "SendMessage": { op: "send", wire: "1.0" },
  "SendStreamingMessage": { op: "stream", wire: "1.0" },
  "GetTask": { op: "get", wire: "1.0" },
  "CancelTask": { op: "cancel", wire: "1.0" },
  "message/send": { op: "send", wire: "0.3" },
  "message/stream": { op: "stream", wire: "0.3" },
  "tasks/get": { op: "get", wire: "0.3" },
  "tasks/cancel": { op: "cancel", wire: "0.3" },
};

const UNSUPPORTED = new Set([
  "ListTasks",
  "SubscribeToTask",
  "GetExtendedAgentCard",
  "CreateTaskPushNotificationConfig",
  "GetTaskPushNotificationConfig",
  "ListTaskPushNotificationConfigs",
  "DeleteTaskPushNotificationConfig",
  "tasks/resubscribe",
  "agent/getAuthenticatedExtendedCard",
  "tasks/pushNotificationConfig/set",
  "tasks/pushNotificationConfig/get",
  "tasks/pushNotificationConfig/list",
  "tasks/pushNotificationConfig/delete",
]);

/** The methods served, for messages. */
export const SERVED_METHODS = Object.keys(METHODS);

/** What `method` asks for; undefined when it is no A2A method at all. */
export function methodOf(
  method: string,
): { op: Operation; wire: Wire } | { unsupported: true } | undefined {
  if (Object.hasOwn(METHODS, method)) return METHODS[method];
  if (UNSUPPORTED.has(method)) return { unsupported: true };
  return undefined;
}
