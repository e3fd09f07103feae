/**
 * The sessions of one task call, seen from the parent: which session each
 * task records into, and what goes in it.
 *
 * Decides: a new task gets a fresh session id and its lock before any child
 * starts; a resumed task reads its session (missing, other version, corrupt:
 * a message naming it; a cut last line: left out with a note), with its
 * conversation made well-formed and the model it last ran on, and takes its
 * lock (held elsewhere: refused); the
 * header is written when the task starts (its worktree known by then);
 * messages and events are appended as the child reports them (streamed text
 * left out: the messages hold it), then the result, and the lock is
 * released. A data folder that cannot be written costs one warning per call,
 * never the task. Old sessions and runs are pruned at most once an hour.
 *
 * @module
 */
import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isValidId, newId } from "../../sessions/ids.ts";
import { acquireLock } from "../../sessions/lock.ts";
import { pruneRuns, pruneSessions } from "../../sessions/prune.ts";
import { redactValue } from "../../text/redact.ts";
import {
  readSession,
  type SessionHeader,
  sessionLockFile,
  sessionMessages,
  sessionModel,
  sessionPlace,
  type SessionWorktree,
  SessionWriter,
} from "../../sessions/store.ts";
import { runsDirectory, sessionsDirectory } from "../../sessions/paths.ts";
import { wellFormed } from "../../sessions/replay.ts";
import type { TaskResult } from "../../types.ts";
import type { TaskEnvelope } from "../../protocol/envelope.ts";
import type { ChildEvent } from "../../protocol/events.ts";

/** A session reserved for one task (its lock is held). */
export interface ReservedSession {
  id: string;
  release: () => void;
  /** The stored header when the task resumes this session. */
  resumed?: SessionHeader;
}

export type ResumeLoad =
  | {
    ok: true;
    session: ReservedSession;
    header: SessionHeader;
    /** The conversation so far, well-formed (`replay.ts`). */
    messages: unknown[];
    /** The model the session last ran on. */
    model: string | null;
    /** Where the session last worked. */
    place: { cwd: string; worktree?: SessionWorktree };
  }
  | { ok: false; message: string };

/** Writes the records of one running task. */
export interface SessionRecorder {
  event(e: ChildEvent): void;
  result(r: TaskResult): void;
}

/** How often old sessions are looked for. */
const PRUNE_EVERY_MS = 3_600_000;

export class SessionKeeper {
  private warned = false;
  private pruned = false;
  /** Whether the sessions folder was made by this keeper (once, not per task). */
  private made = false;
  readonly dir: string;

  constructor(
    private readonly data: string,
    private readonly retentionDays: number,
    private readonly secrets: readonly string[],
    private readonly warn: (message: string) => void,
  ) {
    this.dir = data ? sessionsDirectory(data) : "";
  }

  private notKept(why: string): void {
    if (this.warned) return;
    this.warned = true;
    this.warn(`xcsh: warning: sessions are not kept: ${why}`);
  }

  /** Prunes old sessions and runs, at most once an hour (a stamp file says when). */
  private prune(): void {
    if (this.pruned) return;
    this.pruned = true;
    const stamp = join(this.dir, ".pruned");
    const last = statSync(stamp, { throwIfNoEntry: false })?.mtimeMs ?? 0;
    if (Date.now() - last < PRUNE_EVERY_MS) return;
    writeFileSync(stamp, String(Date.now()), { mode: 0o600 });
    pruneSessions(this.dir, this.retentionDays);
    pruneRuns(runsDirectory(this.data), this.retentionDays);
  }

  /** Makes the sessions folder: once, or `again` when it went away. */
  private makeFolder(again = false): void {
    if (this.made && !again) return;
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    this.made = true;
  }

  /** A fresh session for a new task, or undefined (warned) when none can be kept. */
  reserve(): ReservedSession | undefined {
    if (!this.dir) {
      this.notKept("there is no home folder and no XCSH_DATA_DIR");
      return undefined;
    }
    try {
      this.makeFolder();
      this.prune();
      for (let i = 0; i < 5; i++) {
        const id = newId();
        let lock;
        try {
          lock = acquireLock(sessionLockFile(this.dir, id));
        } catch (err) {
          // The folder went away while this process ran: made again, once.
          if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
          this.makeFolder(true);
          lock = acquireLock(sessionLockFile(this.dir, id));
        }
        if (lock.ok) return { id, release: lock.release };
      }
      this.notKept(`no free session id in ${this.dir}`);
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      this.notKept(`cannot write ${this.dir} (${e.code ?? e.message})`);
    }
    return undefined;
  }

  /** Loads session `id` to resume it; `lock` false only reads it (dry runs). */
  resume(id: string, lock = true): ResumeLoad {
    if (!isValidId(id)) return { ok: false, message: `resume: '${id}' is not a session id` };
    if (!this.dir) return { ok: false, message: `no session '${id}': there is no data folder` };
    const read = readSession(this.dir, id);
    if (!read.ok) return { ok: false, message: `cannot resume: ${read.message}` };
    if (read.note) this.warn(`xcsh: note: ${read.note}`);
    let release = () => {};
    if (lock) {
      let held;
      try {
        held = acquireLock(sessionLockFile(this.dir, id), `session ${id}`);
      } catch (err) {
        return { ok: false, message: `cannot resume session ${id}: ${(err as Error).message}` };
      }
      if (!held.ok) return { ok: false, message: `cannot resume: ${held.message}` };
      release = held.release;
    }
    return {
      ok: true,
      session: { id, release, resumed: read.header },
      header: read.header,
      messages: wellFormed(sessionMessages(read.records)).messages,
      model: sessionModel(read.header, read.records),
      place: sessionPlace(read.header, read.records),
    };
  }

  /** Starts recording: writes the header (new) or the follow-up (resumed). */
  open(
    session: ReservedSession,
    envelope: TaskEnvelope,
    extra: Pick<SessionHeader, "worktree" | "run">,
  ): SessionRecorder {
    let writer: SessionWriter | undefined;
    const onError = (err: Error) =>
      this.notKept(
        `writing session ${session.id} failed (${
          (err as NodeJS.ErrnoException).code ?? err.message
        })`,
      );
    // Key values never go to disk; a resume gets fresh ones.
    // Nor do a remote agent's credential headers.
    const { config: _c, history: _h, keys: _k, remote, ...rest } = envelope;
    const kept = remote ? { ...rest, remote: { ...remote, headers: {} } } : rest;
    try {
      if (session.resumed) {
        writer = new SessionWriter(`${this.dir}/${session.id}.jsonl`, onError);
        writer.append(
          redactValue(
            {
              type: "resume",
              at: new Date().toISOString(),
              assignment: envelope.assignment,
              cwd: envelope.cwd,
              ...(envelope.model ? { model: envelope.model } : {}),
              ...(extra.worktree ? { worktree: extra.worktree } : {}),
            },
            this.secrets,
          ),
        );
      } else {
        const header: SessionHeader = {
          type: "session",
          version: 1,
          id: session.id,
          created: new Date().toISOString(),
          agent: envelope.agent.name,
          model: envelope.model,
          cwd: envelope.cwd,
          envelope: kept,
          ...(extra.worktree ? { worktree: extra.worktree } : {}),
          ...(extra.run ? { run: extra.run } : {}),
        };
        writer = SessionWriter.create(this.dir, redactValue(header, this.secrets), onError);
      }
    } catch (err) {
      onError(err as Error);
    }
    return {
      event: (e) => {
        if (!writer || e.type === "text") return;
        // Events and the result come scrubbed (run-task.ts); the header is
        // scrubbed above.
        if (e.type === "message") writer.append({ type: "message", message: e.message });
        else writer.append({ type: "event", event: e });
      },
      result: (r) => {
        writer?.append({ type: "result", at: new Date().toISOString(), result: r });
        writer?.close();
      },
    };
  }
}

export { newId };
