/**
 * Answers one JSON-RPC request to an agent's endpoint: checks the envelope,
 * picks the operation and wire version by the method's name, and sends,
 * streams (Server-Sent Events: the task, then each status and artifact
 * update, ending with the terminal status), gets or cancels a task of that
 * agent. A send that names a task continues nothing: tasks end when their
 * run ends, so it is told to send without one; a send in a known context
 * continues that context's session. Cancelling ends the task's run (and its
 * children's process trees) before it answers.
 *
 * @module
 */
import type { ServerResponse } from "node:http";
import { requestId, RPC, rpcError, type RpcId } from "./rpc-errors.ts";
import { methodOf, SERVED_METHODS, type Wire } from "./rpc-method.ts";
import { readSendParams, readTaskParams, type SendInput } from "./send-params.ts";
import type { ServedTask, TaskBook } from "./task-book.ts";
import { type RunDeps, runServedTask } from "./task-run.ts";
import {
  artifactEventJson,
  isTerminal,
  sendResultJson,
  statusEventJson,
  taskEventJson,
  taskJson,
} from "./wire-shapes.ts";

/** How long a cancel waits for the task's children to end before it answers. */
export const CANCEL_WAIT_MS = 15_000;

/** What every request of the server shares. */
export interface RpcContext {
  book: TaskBook;
  deps: RunDeps;
  shutdown: AbortSignal;
  /** Runs still going: the server waits for them when it stops. */
  running: Set<Promise<unknown>>;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}

function answer(res: ServerResponse, id: RpcId, result: unknown): void {
  sendJson(res, 200, { jsonrpc: "2.0", id, result });
}

function fail(res: ServerResponse, id: RpcId, code: number, message: string): void {
  sendJson(res, 200, rpcError(id, code, message));
}

/** Starts `task`'s run, kept in `ctx.running` until it ends. */
function start(ctx: RpcContext, task: ServedTask, assignment: string, resume?: string): void {
  const { book } = ctx;
  const onSession = (session: string) => book.keepSession(task.agent, task.contextId, session);
  const run = runServedTask(
    task,
    { assignment, ...(resume ? { resume } : {}), onSession },
    ctx.deps,
    ctx.shutdown,
  );
  ctx.running.add(run);
  run.finally(() => ctx.running.delete(run));
}

function streamTask(res: ServerResponse, id: RpcId, task: ServedTask, wire: Wire): () => void {
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  const write = (result: unknown) => {
    if (!res.writableEnded) {
      res.write(`data: ${JSON.stringify({ jsonrpc: "2.0", id, result })}\n\n`);
    }
  };
  write(taskEventJson(task, wire));
  const stop = task.subscribe((c) => {
    if (c.kind === "artifact") write(artifactEventJson(task, c.artifact, wire));
    else {
      write(statusEventJson(task, wire));
      if (isTerminal(task.status.state)) {
        stop();
        res.end();
      }
    }
  });
  res.on("close", stop);
  return stop;
}

async function send(
  ctx: RpcContext,
  res: ServerResponse,
  id: RpcId,
  agent: string,
  input: SendInput,
  op: "send" | "stream",
  wire: Wire,
): Promise<void> {
  if (input.taskId !== undefined) {
    const known = ctx.book.find(agent, input.taskId);
    if (!known) {
      return fail(res, id, RPC.taskNotFound, `no task "${input.taskId}" of agent "${agent}"`);
    }
    return fail(
      res,
      id,
      RPC.invalidParams,
      `task "${input.taskId}" is ${known.status.state}: it takes no further messages; send a new message without 'taskId' (the same 'contextId' keeps them together)`,
    );
  }
  const resume = input.contextId !== undefined
    ? ctx.book.sessionOf(agent, input.contextId)
    : undefined;
  const task = ctx.book.create(agent, {
    messageId: input.messageId,
    text: input.assignment,
    ...(input.contextId !== undefined ? { contextId: input.contextId } : {}),
  });
  if (op === "stream") {
    streamTask(res, id, task, wire);
    start(ctx, task, input.assignment, resume);
    return;
  }
  start(ctx, task, input.assignment, resume);
  if (input.waits) await task.settled;
  answer(res, id, sendResultJson(task, wire, input.historyLength));
}

async function cancel(res: ServerResponse, id: RpcId, task: ServedTask, wire: Wire) {
  if (isTerminal(task.status.state)) {
    return fail(
      res,
      id,
      RPC.taskNotCancelable,
      `task "${task.id}" is already ${task.status.state}`,
    );
  }
  task.setStatus("canceled", "cancelled by the client");
  task.controller.abort();
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    task.settled,
    new Promise((r) => timer = setTimeout(r, CANCEL_WAIT_MS)),
  ]);
  clearTimeout(timer);
  answer(res, id, taskJson(task, wire));
}

/** Answers the JSON-RPC request `body` sent to agent `agent`'s endpoint. */
export async function handleRpc(
  ctx: RpcContext,
  agent: string,
  body: string,
  res: ServerResponse,
): Promise<void> {
  let v: unknown;
  try {
    v = JSON.parse(body);
  } catch (e) {
    return fail(
      res,
      null,
      RPC.parse,
      `Parse error: the body is not JSON (${(e as Error).message})`,
    );
  }
  const id = requestId(v);
  if (Array.isArray(v)) return fail(res, null, RPC.invalidRequest, "batches are not supported");
  const o = typeof v === "object" && v !== null ? v as Record<string, unknown> : undefined;
  if (!o || o.jsonrpc !== "2.0") {
    return fail(res, id, RPC.invalidRequest, `a request must be an object with 'jsonrpc': "2.0"`);
  }
  if (typeof o.method !== "string") {
    return fail(res, id, RPC.invalidRequest, "'method' must be a string");
  }
  if (id === null) {
    return fail(res, null, RPC.invalidRequest, "'id' is required (a string or a number)");
  }
  const method = methodOf(o.method);
  if (!method) {
    return fail(
      res,
      id,
      RPC.methodNotFound,
      `unknown method "${o.method}"; this server answers ${SERVED_METHODS.join(", ")}`,
    );
  }
  if ("unsupported" in method) {
    return fail(res, id, RPC.unsupported, `"${o.method}" is not supported by xcsh a2a`);
  }
  const { op, wire } = method;
  if (op === "send" || op === "stream") {
    const input = readSendParams(o.params);
    if (!input.ok) {
      return fail(res, id, input.contentType ? RPC.contentType : RPC.invalidParams, input.message);
    }
    return await send(ctx, res, id, agent, input.value, op, wire);
  }
  const params = readTaskParams(o.params);
  if (!params.ok) return fail(res, id, RPC.invalidParams, params.message);
  const task = ctx.book.find(agent, params.value.id);
  if (!task) {
    return fail(
      res,
      id,
      RPC.taskNotFound,
      `no task "${params.value.id}" of agent "${agent}" (ended tasks are kept for an hour)`,
    );
  }
  if (op === "get") return answer(res, id, taskJson(task, wire, params.value.historyLength));
  return await cancel(res, id, task, wire);
}
