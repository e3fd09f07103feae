/**
 * What becomes of one line a client writes to `xcsh mcp`: a JSON-RPC message
 * for the server, or the error answered in its place (JSON-RPC 2.0, as MCP
 * requires). Not JSON: `-32700` (parse error) with `id: null`. JSON but no
 * JSON-RPC message (a batch, a missing `jsonrpc` or `method`): `-32600`
 * (invalid request), with the request's id when it has a usable one, else
 * `null`. A request the server handles whose `params` do not fit the
 * method (`arguments` that are no object, say): `-32602` (invalid params)
 * with one line naming the field. Blank lines are skipped. Every message
 * is one line, never a schema library's dump. Pure.
 *
 * @example
 * ```ts
 * screenLine("not json"); // { reply: { jsonrpc: "2.0", id: null, error: { code: -32700, … } } }
 * ```
 *
 * @module
 */
// The SDK's wildcard export maps types to `*.js.d.ts`, which do not exist: point Deno at them.
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/types.d.ts"
import {
  CallToolRequestSchema,
  CancelTaskRequestSchema,
  ErrorCode,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  InitializeRequestSchema,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  ListTasksRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

/** An error answered in place of a message (`id: null` when the request's id is unknown). */
export interface ErrorReply {
  jsonrpc: "2.0";
  id: string | number | null;
  error: { code: number; message: string };
}

export type Screened = { message: JSONRPCMessage } | { reply: ErrorReply } | { skip: true };

interface Issue {
  code?: string;
  path?: PropertyKey[];
  expected?: string;
  message?: string;
}
interface Checker {
  safeParse(v: unknown): { success: boolean; error?: { issues: Issue[] } };
}

/** The requests the server handles, by method: their params are checked here. */
const REQUESTS: Record<string, Checker> = {
  "initialize": InitializeRequestSchema,
  "ping": PingRequestSchema,
  "tools/list": ListToolsRequestSchema,
  "tools/call": CallToolRequestSchema,
  "tasks/get": GetTaskRequestSchema,
  "tasks/result": GetTaskPayloadRequestSchema,
  "tasks/list": ListTasksRequestSchema,
  "tasks/cancel": CancelTaskRequestSchema,
};

/** The longest message text of a reply. */
const MAX_MESSAGE = 300;

function reply(id: ErrorReply["id"], code: number, message: string): { reply: ErrorReply } {
  const line = message.replace(/\s+/g, " ").trim();
  return {
    reply: {
      jsonrpc: "2.0",
      id,
      error: {
        code,
        message: line.length > MAX_MESSAGE ? line.slice(0, MAX_MESSAGE - 1) + "…" : line,
      },
    },
  };
}

/** What kind of JSON value `v` is, as a reader says it. */
function kindOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") return "an object";
  if (typeof v === "string") return "a string";
  if (typeof v === "number") return "a number";
  if (typeof v === "boolean") return "a boolean";
  return "nothing";
}

const EXPECTED: Record<string, string> = {
  record: "an object",
  object: "an object",
  array: "an array",
  string: "a string",
  number: "a number",
  int: "a whole number",
  boolean: "a boolean",
};

/** `params.arguments` → `'arguments'`; `params.tasks.0` → `'tasks[0]'`. */
function fieldName(path: readonly PropertyKey[]): string {
  const inner = path[0] === "params" ? path.slice(1) : path;
  if (inner.length === 0) return path.length ? "'params'" : "the message";
  return "'" +
    inner.map((k, i) => typeof k === "number" ? `[${k}]` : i === 0 ? String(k) : `.${String(k)}`)
      .join("") +
    "'";
}

function valueAt(v: unknown, path: readonly PropertyKey[]): unknown {
  let cur = v;
  for (const k of path) {
    if (typeof cur !== "object" || cur === null) return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[k];
  }
  return cur;
}

/** One line for the first thing wrong with `v` by a schema's issue. */
export function issueLine(v: unknown, issue: Issue): string {
  const path = issue.path ?? [];
  const field = fieldName(path);
  if (issue.code === "invalid_type" && issue.expected && EXPECTED[issue.expected]) {
    const actual = valueAt(v, path);
    return actual === undefined
      ? `${field} is required (${EXPECTED[issue.expected]})`
      : `${field} must be ${EXPECTED[issue.expected]}, not ${kindOf(actual)}`;
  }
  return `${field}: ${issue.message ?? "invalid"}`;
}

function usableId(v: unknown): string | number | null {
  const id = typeof v === "object" && v !== null && !Array.isArray(v)
    ? (v as Record<string, unknown>).id
    : undefined;
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : null;
}

/** Decides what one line from the client becomes. */
export function screenLine(line: string): Screened {
  if (line.trim() === "") return { skip: true };
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return reply(null, ErrorCode.ParseError, `Parse error: the line is not JSON (${why})`);
  }
  if (Array.isArray(v)) {
    return reply(null, ErrorCode.InvalidRequest, "Invalid Request: batches are not supported");
  }
  const parsed = JSONRPCMessageSchema.safeParse(v);
  if (!parsed.success) {
    const o = typeof v === "object" && v !== null ? v as Record<string, unknown> : undefined;
    const why = !o
      ? `a message must be a JSON object, not ${kindOf(v)}`
      : o.jsonrpc !== "2.0"
      ? `'jsonrpc' must be "2.0"`
      : typeof o.method !== "string" && !("result" in o) && !("error" in o)
      ? "'method' must be a string"
      : "not a JSON-RPC request, notification or response";
    return reply(usableId(v), ErrorCode.InvalidRequest, `Invalid Request: ${why}`);
  }
  const message = parsed.data as JSONRPCMessage;
  const o = v as Record<string, unknown>;
  const checker = typeof o.method === "string" && "id" in o ? REQUESTS[o.method] : undefined;
  if (checker) {
    const checked = checker.safeParse(v);
    const issue = checked.error?.issues[0];
    if (!checked.success && issue) {
      return reply(usableId(v), ErrorCode.InvalidParams, `Invalid params: ${issueLine(v, issue)}`);
    }
  }
  return { message };
}
