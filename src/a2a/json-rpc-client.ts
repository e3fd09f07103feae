/**
 * One JSON-RPC exchange with an A2A server: a call answered by one JSON
 * body ({@link rpcCall}), or a streaming call answered by Server-Sent
 * Events, each one JSON-RPC response ({@link rpcStream}). Every way it can
 * go wrong (an HTTP error, a body that is not JSON, a JSON-RPC error, an
 * answer of no known shape, a body over {@link MAX_ANSWER_BYTES}) is an
 * {@link A2ACallError} with one line naming the endpoint and the method.
 *
 * @module
 */
import type { AgentCardTarget } from "./agent-card.ts";
import { a2aRequest, readBody } from "./a2a-request.ts";
import { methodName, type RpcOperation, versionHeaders } from "./rpc-shapes.ts";
import { sseEvents } from "../formats/server-sent-events.ts";
import { readUpdate, type Update } from "./task-updates.ts";
import { isRecord } from "../formats/values.ts";
import { failureReason, mediaType } from "../tools/web/fetch-rules.ts";

/** The largest non-streamed answer read. */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/** A failed call, said in one line. */
export class A2ACallError extends Error {}

/** Who is called, with what, under which address rules. */
export interface RpcTarget {
  card: AgentCardTarget;
  /** Auth headers (the user's credentials). */
  headers: Record<string, string>;
  /** `task.webFetchAllow` of the user's config. */
  allow: readonly string[];
  signal: AbortSignal;
}

let nextId = 1;

/** The `result` of one JSON-RPC response, or the error it holds as an {@link A2ACallError}. */
function resultOf(value: unknown, where: string): unknown {
  if (!isRecord(value)) throw new A2ACallError(`${where}: the answer is not a JSON-RPC response`);
  if (isRecord(value.error)) {
    const code = value.error.code;
    const message = typeof value.error.message === "string" ? value.error.message : "no message";
    throw new A2ACallError(`${where}: the remote agent answered error ${String(code)}: ${message}`);
  }
  if (!("result" in value)) {
    throw new A2ACallError(`${where}: the answer has neither 'result' nor 'error'`);
  }
  return value.result;
}

async function post(
  t: RpcTarget,
  op: RpcOperation,
  params: Record<string, unknown>,
  accept: string,
) {
  const method = methodName(t.card.version, op);
  const where = `${t.card.url} (${method})`;
  const answer = await a2aRequest(
    t.card.url,
    {
      method: "POST",
      headers: {
        ...t.headers,
        ...versionHeaders(t.card.version),
        "content-type": "application/json",
        accept,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }),
    },
    t.allow,
    t.signal,
  );
  if (!answer.ok) throw new A2ACallError(answer.error);
  const { res } = answer;
  if (res.status < 200 || res.status >= 300) {
    const body = await readBody(res.body, 4096).catch(() => undefined);
    // A JSON-RPC error sent with an HTTP error status still says what went wrong.
    if (body?.ok) {
      try {
        resultOf(JSON.parse(body.text), where);
      } catch (err) {
        if (err instanceof A2ACallError) throw err;
      }
    }
    throw new A2ACallError(`${where}: HTTP ${res.status} ${res.statusText}`.trim());
  }
  return { res, where };
}

async function jsonAnswer(res: Awaited<ReturnType<typeof post>>["res"], where: string) {
  const body = await readBody(res.body, MAX_ANSWER_BYTES);
  if (!body.ok) throw new A2ACallError(`${where}: the answer is over ${MAX_ANSWER_BYTES} bytes`);
  let value: unknown;
  try {
    value = JSON.parse(body.text);
  } catch (err) {
    throw new A2ACallError(`${where}: the answer is not JSON (${failureReason(err)})`);
  }
  return resultOf(value, where);
}

/** One call of `op`; its result read as an {@link Update} (undefined for a cancel's bare answer). */
export async function rpcCall(
  t: RpcTarget,
  op: "send" | "get" | "cancel",
  params: Record<string, unknown>,
): Promise<Update | undefined> {
  const { res, where } = await post(t, op, params, "application/json");
  const result = await jsonAnswer(res, where);
  const update = readUpdate(result);
  if (!update && op !== "cancel") {
    throw new A2ACallError(`${where}: the answer is neither a task nor a message`);
  }
  return update;
}

/** A streaming send: each event as an {@link Update}, in order, until the server ends the stream. */
export async function* rpcStream(
  t: RpcTarget,
  params: Record<string, unknown>,
): AsyncGenerator<Update> {
  const { res, where } = await post(t, "stream", params, "text/event-stream");
  if (mediaType(res.header("content-type")) !== "text/event-stream") {
    // Some servers answer a refused stream with one JSON body.
    const result = await jsonAnswer(res, where);
    const update = readUpdate(result);
    if (!update) throw new A2ACallError(`${where}: the answer is not an event stream`);
    yield update;
    return;
  }
  try {
    for await (const data of sseEvents(res.body as AsyncIterable<Uint8Array>)) {
      let value: unknown;
      try {
        value = JSON.parse(data);
      } catch (err) {
        throw new A2ACallError(`${where}: a streamed event is not JSON (${failureReason(err)})`);
      }
      const update = readUpdate(resultOf(value, where));
      if (!update) throw new A2ACallError(`${where}: a streamed event has no known shape`);
      yield update;
    }
  } catch (err) {
    if (err instanceof A2ACallError || t.signal.aborted) throw err;
    throw new A2ACallError(`${where}: the stream broke: ${failureReason(err)}`);
  } finally {
    res.body.destroy();
  }
}
