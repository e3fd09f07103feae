/**
 * What a send (`SendMessage`, `message/send` and their streaming twins)
 * asks of the server, read from the request's `params` in either version's
 * shape: the assignment (the message's text parts, and its data parts as
 * JSON, in order), the context and task it names, and whether the client
 * waits for the end (1.0 `configuration.returnImmediately`, 0.3
 * `configuration.blocking: false`). File parts are refused: an assignment
 * is text. Each problem is one line naming the field. Pure.
 *
 * @example
 * ```ts
 * readSendParams({ message: { messageId: "m1", role: "ROLE_USER", parts: [{ text: "Review src/" }] } });
 * // { ok: true, value: { assignment: "Review src/", messageId: "m1", waits: true } }
 * ```
 *
 * @module
 */

export interface SendInput {
  assignment: string;
  messageId: string;
  contextId?: string;
  taskId?: string;
  /** False: answer with the task at once and run on. */
  waits: boolean;
  /** The history length asked for (0: none), when one is. */
  historyLength?: number;
}

export type Read<T> =
  | { ok: true; value: T }
  | { ok: false; message: string; contentType?: true };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function optionalString(
  o: Record<string, unknown>,
  key: string,
  where: string,
): Read<string | undefined> {
  const v = o[key];
  if (v === undefined || v === null || v === "") return { ok: true, value: undefined };
  if (typeof v !== "string") return { ok: false, message: `'${where}.${key}' must be a string` };
  return { ok: true, value: v };
}

function historyLength(config: Record<string, unknown>): Read<number | undefined> {
  const h = config.historyLength;
  if (h === undefined || h === null) return { ok: true, value: undefined };
  if (typeof h !== "number" || !Number.isInteger(h) || h < 0) {
    return {
      ok: false,
      message: "'params.configuration.historyLength' must be a whole number ≥ 0",
    };
  }
  return { ok: true, value: h };
}

/** The text of one part, or why it cannot be part of an assignment. */
function partText(part: unknown, i: number): Read<string> {
  const where = `params.message.parts[${i}]`;
  if (!isObject(part)) return { ok: false, message: `'${where}' must be an object` };
  if (typeof part.text === "string") return { ok: true, value: part.text };
  if ("data" in part && part.data !== undefined) {
    return { ok: true, value: JSON.stringify(part.data, null, 2) };
  }
  if ("file" in part || "raw" in part || "url" in part || part.kind === "file") {
    return {
      ok: false,
      message: `'${where}' is a file: send the assignment as text or data parts`,
      contentType: true,
    };
  }
  return { ok: false, message: `'${where}' has no text or data` };
}

/** Reads a send's `params`. */
export function readSendParams(params: unknown): Read<SendInput> {
  if (!isObject(params)) return { ok: false, message: "'params' must be an object" };
  const message = params.message;
  if (!isObject(message)) return { ok: false, message: "'params.message' is required (an object)" };
  if (typeof message.messageId !== "string" || message.messageId === "") {
    return { ok: false, message: "'params.message.messageId' is required (a string)" };
  }
  const role = message.role;
  if (role !== undefined && role !== "user" && role !== "ROLE_USER") {
    return {
      ok: false,
      message: `'params.message.role' must be the user's ("user" or "ROLE_USER"), not ${
        JSON.stringify(role)
      }`,
    };
  }
  if (!Array.isArray(message.parts) || message.parts.length === 0) {
    return { ok: false, message: "'params.message.parts' must be a non-empty array" };
  }
  const texts: string[] = [];
  for (const [i, part] of message.parts.entries()) {
    const t = partText(part, i);
    if (!t.ok) return t;
    texts.push(t.value);
  }
  const assignment = texts.join("\n\n");
  if (assignment.trim() === "") {
    return { ok: false, message: "'params.message.parts' hold no text: the assignment is empty" };
  }
  const contextId = optionalString(message, "contextId", "params.message");
  if (!contextId.ok) return contextId;
  const taskId = optionalString(message, "taskId", "params.message");
  if (!taskId.ok) return taskId;
  const config = params.configuration;
  if (config !== undefined && config !== null && !isObject(config)) {
    return { ok: false, message: "'params.configuration' must be an object" };
  }
  const c = isObject(config) ? config : {};
  const history = historyLength(c);
  if (!history.ok) return history;
  const waits = c.returnImmediately !== true && c.blocking !== false;
  return {
    ok: true,
    value: {
      assignment,
      messageId: message.messageId,
      waits,
      ...(contextId.value !== undefined ? { contextId: contextId.value } : {}),
      ...(taskId.value !== undefined ? { taskId: taskId.value } : {}),
      ...(history.value !== undefined ? { historyLength: history.value } : {}),
    },
  };
}

/** Reads the `params` of a get or cancel: the task's id and the history length asked for. */
export function readTaskParams(params: unknown): Read<{ id: string; historyLength?: number }> {
  if (!isObject(params)) return { ok: false, message: "'params' must be an object" };
  if (typeof params.id !== "string" || params.id === "") {
    return { ok: false, message: "'params.id' is required (the task's id)" };
  }
  const history = historyLength(params);
  if (!history.ok) return { ok: false, message: history.message.replace(".configuration", "") };
  return {
    ok: true,
    value: {
      id: params.id,
      ...(history.value !== undefined ? { historyLength: history.value } : {}),
    },
  };
}
