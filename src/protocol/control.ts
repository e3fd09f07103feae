/**
 * What a parent may say to a running child after the envelope: the control
 * messages of the parent–child channel (version {@link CONTROL_VERSION}), one
 * JSON object per line on the child's stdin after the envelope line, and how
 * a child reads them ({@link parseControlLine}, {@link lineSplitter}).
 *
 * - `grant {reqId}` / `deny {reqId, reason}`: the answer to the child's
 *   `budget_request` event with that `reqId`.
 * - `pace_grant {reqId}`: the child's `pace_request` with that id may go
 *   (the run's rate-limit view and concurrency count allow it now).
 * - `cancel {reason?}`: end the task as a cancellation would.
 * - `exhausted {reason}`: the run's budget is spent somewhere in the tree:
 *   the child starts no new sub-task (and tells its own children); its
 *   next model call is refused by its parent anyway.
 * - `rate_limit {version: 1, provider, key, model?, pauseUntil}`: a sibling
 *   found `provider` paused for the key whose fingerprint is `key` until
 *   `pauseUntil` (epoch ms); the child holds its calls there too. Another
 *   `version` of it is ignored.
 *
 * A line that is not a known message of this version is ignored, so a newer
 * parent may add messages an older child does not act on. Request ids are
 * made by the child ({@link newRequestId}): random, so nothing that cannot
 * read the child's stdout can name one.
 *
 * @example
 * ```ts
 * const feed = lineSplitter((line) => {
 *   const m = parseControlLine(line);
 *   if (m?.type === "grant") console.log("granted", m.reqId);
 * });
 * feed('{"type":"grant","reqId":"r1"}\n');
 * ```
 *
 * @module
 */

/** The version of the control channel this xcsh speaks (the `control` field of `start`). */
export const CONTROL_VERSION = 1;

/** One control message from parent to child. */
export type ControlMessage =
  | { type: "grant"; reqId: string }
  | { type: "deny"; reqId: string; reason: string }
  | { type: "pace_grant"; reqId: string }
  | { type: "cancel"; reason?: string }
  | { type: "exhausted"; reason: string }
  | {
    type: "rate_limit";
    version: typeof RATE_LIMIT_VERSION;
    provider: string;
    key: string;
    model?: string;
    pauseUntil: number;
  };

/** The version of the `rate_limit` control message this xcsh reads. */
export const RATE_LIMIT_VERSION = 1;

/** The longest provider, key fingerprint or model name accepted in `rate_limit`. */
const MAX_NAME = 256;

function nameOf(v: unknown): string | undefined {
  return typeof v === "string" && v.length > 0 && v.length <= MAX_NAME ? v : undefined;
}

/** The longest request id accepted; longer ones are not ours. */
const MAX_REQ_ID = 128;

function reqIdOf(v: unknown): string | undefined {
  return typeof v === "string" && v.length > 0 && v.length <= MAX_REQ_ID ? v : undefined;
}

/** Reads one control line; anything else (not JSON, unknown type, bad fields) is `undefined`. */
export function parseControlLine(line: string): ControlMessage | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith("{")) return undefined;
  let v: Record<string, unknown>;
  try {
    const parsed = JSON.parse(trimmed);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
    v = parsed;
  } catch {
    return undefined;
  }
  if (v.type === "grant") {
    const reqId = reqIdOf(v.reqId);
    return reqId ? { type: "grant", reqId } : undefined;
  }
  if (v.type === "pace_grant") {
    const reqId = reqIdOf(v.reqId);
    return reqId ? { type: "pace_grant", reqId } : undefined;
  }
  if (v.type === "deny") {
    const reqId = reqIdOf(v.reqId);
    if (!reqId) return undefined;
    const reason = typeof v.reason === "string" && v.reason.trim() !== ""
      ? v.reason.split("\n")[0].slice(0, 500)
      : "the run's budget is spent";
    return { type: "deny", reqId, reason };
  }
  if (v.type === "exhausted") {
    const reason = typeof v.reason === "string" && v.reason.trim() !== ""
      ? v.reason.split("\n")[0].slice(0, 500)
      : "the run's budget is spent";
    return { type: "exhausted", reason };
  }
  if (v.type === "cancel") {
    return typeof v.reason === "string" ? { type: "cancel", reason: v.reason } : { type: "cancel" };
  }
  if (v.type === "rate_limit" && v.version === RATE_LIMIT_VERSION) {
    const provider = nameOf(v.provider);
    // A provider without a key has the empty fingerprint.
    const key = v.key === "" ? "" : nameOf(v.key);
    const pauseUntil = v.pauseUntil;
    if (
      !provider || key === undefined || typeof pauseUntil !== "number" ||
      !Number.isFinite(pauseUntil)
    ) {
      return undefined;
    }
    const model = nameOf(v.model);
    return {
      type: "rate_limit",
      version: RATE_LIMIT_VERSION,
      provider,
      key,
      ...(model ? { model } : {}),
      pauseUntil,
    };
  }
  return undefined;
}

/** The line for one control message. */
export function controlLine(m: ControlMessage): string {
  return JSON.stringify(m) + "\n";
}

/**
 * A feed of text chunks that calls `onLine` with each complete line (without
 * its newline); an unfinished line waits for the next chunk.
 */
export function lineSplitter(onLine: (line: string) => void): (chunk: string) => void {
  let pending = "";
  return (chunk) => {
    pending += chunk;
    let nl: number;
    while ((nl = pending.indexOf("\n")) >= 0) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      onLine(line);
    }
  };
}

/** A fresh, unguessable request id. */
export function newRequestId(): string {
  return crypto.randomUUID();
}
