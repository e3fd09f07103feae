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
 * Reading checks everything a hand edit could break and names the line.
 *
 * @module
 */
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { ChildEvent, TaskEnvelope, TaskResult } from "../types.ts";
import { isRecord } from "../values.ts";

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
      this.fd ??= openSync(this.file, "a", 0o600);
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
  | { ok: true; header: SessionHeader; records: SessionRecord[] }
  | { ok: false; message: string };

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

/**
 * Parses the text of a session file. `partialTail` allows an unfinished last
 * line (a file still being written). Pure.
 */
export function parseSession(
  text: string,
  id: string,
  file: string,
  partialTail = false,
): SessionRead {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  else if (partialTail) lines.pop();
  if (lines.length === 0) return { ok: false, message: `session ${id} is empty (${file})` };
  const records: SessionRecord[] = [];
  for (const [i, line] of lines.entries()) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      return {
        ok: false,
        message: `session ${id} is corrupt: ${file} line ${i + 1} is not JSON (${
          (err as Error).message
        })`,
      };
    }
    if (i === 0) {
      const header = checkHeader(value, id, file);
      if (typeof header === "string") return { ok: false, message: header };
      records.push(header);
      continue;
    }
    if (!isRecord(value) || typeof value.type !== "string" || !RECORD_TYPES.has(value.type)) {
      return {
        ok: false,
        message: `session ${id} is corrupt: ${file} line ${i + 1} is not a session record`,
      };
    }
    if (value.type === "message" && !isMessage(value.message)) {
      return {
        ok: false,
        message: `session ${id} is corrupt: ${file} line ${i + 1} is not a conversation message`,
      };
    }
    records.push(value as unknown as SessionRecord);
  }
  return { ok: true, header: records[0] as SessionHeader, records };
}

/** Reads session `id` from `dir`; a missing or unreadable file is a message naming it. */
export function readSession(dir: string, id: string): SessionRead {
  const file = sessionFile(dir, id);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return {
      ok: false,
      message: code === "ENOENT"
        ? `no session '${id}' (looked in ${dir})`
        : `cannot read session ${id} (${code ?? (err as Error).message})`,
    };
  }
  return parseSession(text, id, file);
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
