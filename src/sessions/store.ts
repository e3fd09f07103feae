/**
 * A session file: one task's conversation as JSON Lines (format version 1).
 *
 * The first record is the `session` header (id, agent, model, folder, the
 * envelope without its configuration and provider keys, the worktree when
 * isolated); then, in
 * the order they happened, `message` (the conversation the model sees),
 * `event` (the child's events, streamed text left out), `result` (what the
 * task returned) and `resume` (a follow-up assignment). Folders are 0700 and
 * files 0600: a transcript holds whatever the agent read.
 *
 * Reading checks everything a hand edit could break and names the line;
 * a last line cut off by an interrupted write (a full disk) is dropped with
 * a note and the records before it kept. A writer that reopens a file
 * (a resume) first ends such a tail, so the next record starts on a line
 * of its own.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import {
  closeSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { type LinePosition, MAX_RECORD_BYTES, scanLines } from "./reader.ts";
import type { TaskResult } from "../types.ts";
import type { TaskEnvelope } from "../protocol/envelope.ts";
import type { ChildEvent } from "../protocol/events.ts";
import { isRecord } from "../formats/values.ts";

export const SESSION_VERSION = 1;

/** The header: what a resume needs to continue the task. */
export interface SessionHeader {
  type: "session";
  version: 1;
  id: string;
  created: string;
  agent: string;
  model: string | null;
  cwd: string;
  /** The envelope as sent, without `config`, `history` and `keys`. */
  envelope: Omit<TaskEnvelope, "config" | "history" | "keys">;
  /** Set when the task runs in its own worktree. */
  worktree?: SessionWorktree;
  /** The background run this session belongs to, if any. */
  run?: string;
}

export type SessionRecord =
  | SessionHeader
  | { type: "message"; message: unknown }
  | { type: "event"; event: ChildEvent }
  | { type: "result"; at: string; result: TaskResult }
  | {
    type: "resume";
    at: string;
    assignment: string;
    /** Where the follow-up ran (a fresh worktree when the first one was gone). */
    cwd?: string;
    /** The model the follow-up ran on (`provider/model`): a `--model` switch moves the session. */
    model?: string;
    worktree?: SessionWorktree;
  };

/** A session's worktree. */
export type SessionWorktree = { path: string; branch: string; repo: string; base: string };

/** The file of session `id` in `dir`. */
export function sessionFile(dir: string, id: string): string {
  return join(dir, `${id}.jsonl`);
}

/** The lock file of session `id` in `dir`. */
export function sessionLockFile(dir: string, id: string): string {
  return join(dir, `${id}.lock`);
}

/**
 * Before more records go after it: a last line without its newline gets
 * one when it is a whole record, and is cut away when it is the torn end
 * of an interrupted write (readers drop it anyway), so that the next record
 * starts on a line of its own.
 */
function endCutTail(fd: number, file: string): void {
  const size = fstatSync(fd).size;
  if (size === 0) return;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  if (last[0] === 10) return;
  // Look back for the newline before the tail, at most one record's length.
  let start: number | undefined;
  const chunk = Buffer.alloc(64 * 1024);
  for (let end = size; start === undefined && size - end <= MAX_RECORD_BYTES;) {
    if (end === 0) start = 0;
    else {
      const from = Math.max(0, end - chunk.length);
      const n = readSync(fd, chunk, 0, end - from, from);
      const nl = chunk.subarray(0, n).lastIndexOf(10);
      if (nl >= 0) start = from + nl + 1;
      end = from;
    }
  }
  // A tail longer than any record is left as it is: readers name it.
  if (start === undefined) return;
  const length = size - start;
  if (length <= MAX_RECORD_BYTES) {
    const tail = Buffer.alloc(length);
    readSync(fd, tail, 0, length, start);
    if (!isCutTail(tail.toString("utf8"), start === 0 ? 0 : 1, "", file)) {
      writeSync(fd, "\n");
      return;
    }
  }
  ftruncateSync(fd, start);
}

/**
 * Appends records to one session file through one open descriptor; the
 * first failure (disk full, folder gone) is reported once through `onError`
 * and later records are dropped. `close()` ends it.
 */
export class SessionWriter {
  private broken = false;
  private fd: number | undefined;

  constructor(
    readonly file: string,
    private readonly onError: (err: Error) => void,
    fd?: number,
  ) {
    this.fd = fd;
  }

  /** Creates the folder and a new file holding `header`; throws when it cannot. */
  static create(dir: string, header: SessionHeader, onError: (err: Error) => void): SessionWriter {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = sessionFile(dir, header.id);
    const fd = openSync(file, "wx", 0o600);
    try {
      writeSync(fd, JSON.stringify(header) + "\n");
    } catch (err) {
      closeSync(fd);
      throw err;
    }
    return new SessionWriter(file, onError, fd);
  }

  append(record: SessionRecord): void {
    if (this.broken) return;
    try {
      if (this.fd === undefined) {
        this.fd = openSync(this.file, "a+", 0o600);
        endCutTail(this.fd, this.file);
      }
      writeSync(this.fd, JSON.stringify(record) + "\n");
    } catch (err) {
      this.broken = true;
      this.close();
      this.onError(err instanceof Error ? err : new Error(String(err)));
    }
  }

  close(): void {
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      // already closed
    }
    this.fd = undefined;
  }
}

export type SessionRead =
  | {
    ok: true;
    header: SessionHeader;
    records: SessionRecord[];
    /** Set when a cut last line was left out. */
    note?: string;
  }
  | { ok: false; message: string };

/** The most a resume reads of a session's conversation (its records but the events). */
export const MAX_KEPT_BYTES = 64 * 1024 * 1024;

function checkHeader(value: unknown, id: string, file: string): SessionHeader | string {
  if (!isRecord(value) || value.type !== "session") {
    return `session ${id} is corrupt: ${file} does not start with a session record`;
  }
  if (value.version !== SESSION_VERSION) {
    return `session ${id} was written by another version of xcsh (session format ${
      JSON.stringify(value.version)
    }; this xcsh reads format ${SESSION_VERSION})`;
  }
  const env = value.envelope;
  if (
    typeof value.agent !== "string" || typeof value.cwd !== "string" || !isRecord(env) ||
    !isRecord(env.agent) || typeof env.id !== "string"
  ) {
    return `session ${id} is corrupt: ${file} line 1 lacks agent, cwd or envelope`;
  }
  return value as unknown as SessionHeader;
}

const RECORD_TYPES = new Set(["message", "event", "result", "resume"]);

/** A message the child can continue from: a known role with string or list content. */
function isMessage(m: unknown): boolean {
  if (!isRecord(m)) return false;
  if (m.role === "user") return typeof m.content === "string";
  if (m.role === "assistant") return typeof m.content === "string" || Array.isArray(m.content);
  return m.role === "tool" && Array.isArray(m.content);
}

/** One line of a session file judged: its record, or why the file is corrupt. */
export type LineCheck = { ok: true; record: SessionRecord } | { ok: false; message: string };

/**
 * Judges line `index` (0-based) of session `id`'s file `file`: the header
 * first, then one of the record types. Pure.
 */
export function parseRecordLine(line: string, index: number, id: string, file: string): LineCheck {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    return {
      ok: false,
      message: `session ${id} is corrupt: ${file} line ${index + 1} is not JSON (${
        (err as Error).message
      })`,
    };
  }
  if (index === 0) {
    const header = checkHeader(value, id, file);
    return typeof header === "string"
      ? { ok: false, message: header }
      : { ok: true, record: header };
  }
  if (!isRecord(value) || typeof value.type !== "string" || !RECORD_TYPES.has(value.type)) {
    return {
      ok: false,
      message: `session ${id} is corrupt: ${file} line ${index + 1} is not a session record`,
    };
  }
  if (value.type === "message" && !isMessage(value.message)) {
    return {
      ok: false,
      message: `session ${id} is corrupt: ${file} line ${index + 1} is not a conversation message`,
    };
  }
  return { ok: true, record: value as unknown as SessionRecord };
}

/**
 * The note for a last line that was cut off (a write interrupted by a full
 * disk or a crash): it is left out and every record before it kept.
 */
export function cutTailNote(id: string, file: string, index: number): string {
  return `session ${id}: ${file} line ${index + 1} was cut off (an interrupted write); ` +
    "it is left out, the records before it are kept";
}

/**
 * A last line without its newline that is no record: the tail of an
 * interrupted write. One that is a record is whole (only its newline is
 * missing) and is kept.
 */
export function isCutTail(line: string, index: number, id: string, file: string): boolean {
  return !parseRecordLine(line, index, id, file).ok;
}

export type SessionScan =
  | {
    ok: true;
    /** True when `onRecord` asked to stop. */
    stopped: boolean;
    /** Set when a cut last line was left out. */
    note?: string;
  }
  | { ok: false; missing: boolean; message: string };

/**
 * Streams the records of session `id`'s `file` from `pos` on to
 * `onRecord(record, bytes)` (false stops), advancing `pos`. With `final`,
 * a last line without its newline is judged (a record: kept; else cut off:
 * a note); without, it is left for a later call (a file still being
 * written).
 */
export function scanSession(
  file: string,
  id: string,
  pos: LinePosition,
  opts: { final: boolean; onRecord: (record: SessionRecord, bytes: number) => boolean },
): SessionScan {
  let failure: string | undefined;
  const scanned = scanLines(file, pos, (text, index, bytes) => {
    const checked = parseRecordLine(text, index, id, file);
    if (!checked.ok) {
      failure = checked.message;
      return false;
    }
    return opts.onRecord(checked.record, bytes);
  });
  if (!scanned.ok) {
    return {
      ok: false,
      missing: scanned.missing,
      message: scanned.missing
        ? `no session '${id}' (${file} does not exist)`
        : `session ${id} is corrupt: ${scanned.message}`,
    };
  }
  if (failure !== undefined) return { ok: false, missing: false, message: failure };
  if (scanned.stopped || scanned.tail === undefined || !opts.final) {
    return { ok: true, stopped: scanned.stopped };
  }
  const checked = parseRecordLine(scanned.tail, pos.line, id, file);
  if (!checked.ok) return { ok: true, stopped: false, note: cutTailNote(id, file, pos.line) };
  // Whole: only its newline is missing.
  const bytes = Buffer.byteLength(scanned.tail);
  pos.offset += bytes;
  pos.line++;
  return { ok: true, stopped: !opts.onRecord(checked.record, bytes) };
}

/**
 * Reads session `id` from `dir` for a resume: the header and every record
 * but the events (which a resume does not use), streamed from the file (see
 * `reader.ts`) so that memory follows the conversation, not the file. A
 * missing or unreadable file, a corrupt line, a line over
 * {@link MAX_RECORD_BYTES} or a conversation over `maxKeptBytes` is a
 * message naming it; a cut last line is dropped with a `note`.
 */
export function readSession(
  dir: string,
  id: string,
  maxKeptBytes = MAX_KEPT_BYTES,
): SessionRead {
  const file = sessionFile(dir, id);
  const records: SessionRecord[] = [];
  let kept = 0;
  const scanned = scanSession(file, id, { offset: 0, line: 0 }, {
    final: true,
    onRecord: (record, bytes) => {
      if (record.type === "event") return true;
      kept += bytes;
      if (kept > maxKeptBytes) return false;
      records.push(record);
      return true;
    },
  });
  if (!scanned.ok) {
    return {
      ok: false,
      message: scanned.missing ? `no session '${id}' (looked in ${dir})` : scanned.message,
    };
  }
  if (scanned.stopped) {
    return {
      ok: false,
      message: `session ${id} is too large to continue: its conversation passes ${
        maxKeptBytes / 1024 / 1024
      } MiB (${file})`,
    };
  }
  if (records.length === 0) {
    return { ok: false, message: scanned.note ?? `session ${id} is empty (${file})` };
  }
  return {
    ok: true,
    header: records[0] as SessionHeader,
    records,
    ...(scanned.note ? { note: scanned.note } : {}),
  };
}

/** Where a session last worked: its folder and worktree, the latest resume's first. */
export function sessionPlace(
  header: SessionHeader,
  records: readonly SessionRecord[],
): { cwd: string; worktree?: SessionWorktree } {
  for (let i = records.length - 1; i > 0; i--) {
    const r = records[i];
    if (r.type === "resume" && typeof r.cwd === "string") {
      return { cwd: r.cwd, ...(r.worktree ? { worktree: r.worktree } : {}) };
    }
  }
  return { cwd: header.cwd, ...(header.worktree ? { worktree: header.worktree } : {}) };
}

/** The model a session last ran on: the latest follow-up's, else the header's. */
export function sessionModel(
  header: SessionHeader,
  records: readonly SessionRecord[],
): string | null {
  for (let i = records.length - 1; i > 0; i--) {
    const r = records[i];
    if (r.type === "resume" && typeof r.model === "string") return r.model;
  }
  return header.model;
}

/** The conversation of a session as recorded, in order (`replay.ts` makes it well-formed). */
export function sessionMessages(records: readonly SessionRecord[]): unknown[] {
  return records.filter((r) => r.type === "message").map((r) =>
    (r as { message: unknown }).message
  );
}
