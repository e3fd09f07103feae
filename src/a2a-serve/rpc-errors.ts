/**
 * The JSON-RPC errors `xcsh a2a` answers: the codes (JSON-RPC 2.0's, and
 * A2A's own from -32001) and the error object, whose message is always one
 * line of bounded length a user can act on. Pure.
 *
 * @example
 * ```ts
 * rpcError(7, RPC.taskNotFound, "no task \"x\"");
 * // { jsonrpc: "2.0", id: 7, error: { code: -32001, message: "no task \"x\"" } }
 * ```
 *
 * @module
 */

export const RPC = {
  parse: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  taskNotFound: -32001,
  taskNotCancelable: -32002,
  unsupported: -32004,
  contentType: -32005,
} as const;

export type RpcId = string | number | null;

export interface RpcErrorBody {
  jsonrpc: "2.0";
  id: RpcId;
  error: { code: number; message: string };
}

/** The longest message an error carries. */
const MAX_MESSAGE = 1_000;

/** One line of at most {@link MAX_MESSAGE} characters. */
export function oneLine(message: string): string {
  const line = message.replace(/\s+/g, " ").trim();
  return line.length > MAX_MESSAGE ? line.slice(0, MAX_MESSAGE - 1) + "…" : line;
}

/** The error answer for request `id`. */
export function rpcError(id: RpcId, code: number, message: string): RpcErrorBody {
  return { jsonrpc: "2.0", id, error: { code, message: oneLine(message) } };
}

/** The id of a request, when it has a usable one (else null). */
export function requestId(v: unknown): RpcId {
  const id = typeof v === "object" && v !== null && !Array.isArray(v)
    ? (v as Record<string, unknown>).id
    : undefined;
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : null;
}
