import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  readSession,
  scanSession,
  sessionFile,
  type SessionHeader,
  sessionMessages,
  type SessionRead,
  type SessionRecord,
  SessionWriter,
} from "./store.ts";
import { CHUNK_BYTES, MAX_RECORD_BYTES, scanLines } from "./reader.ts";
import { plan } from "../../tests/support/plan.ts";

/** A plan as a session keeps it: without its config, keys and history. */
function storedPlan(): SessionHeader["envelope"] {
  const { config: _c, keys: _k, history: _h, ...kept } = plan({
    id: "0-explore",
    agent: { name: "explore", description: "d", systemPrompt: "", family: "bundled" },
    assignment: "find it",
    model: "local/m",
    cwd: "/p",
    limits: { maxTurns: 5, timeoutMs: 1000, submitRetries: 1 },
  });
  return kept;
}

const header: SessionHeader = {
  type: "session",
  version: 1,
  id: "S",
  created: "2026-01-01T00:00:00.000Z",
  agent: "explore",
  model: "local/m",
  cwd: "/p",
  envelope: storedPlan(),
};
const lines = (...records: unknown[]) => records.map((r) => JSON.stringify(r)).join("\n") + "\n";

/** Every record of a file holding `text`, as `logs` reads it (`partialTail`: still being written). */
function parseSession(text: string, id: string, file: string, partialTail = false): SessionRead {
  const dir = mkdtempSync(join(tmpdir(), "xcsh-parse-"));
  try {
    const path = join(dir, "f");
    writeFileSync(path, text);
    const records: SessionRecord[] = [];
    const r = scanSession(path, id, { offset: 0, line: 0 }, {
      final: !partialTail,
      onRecord: (rec) => (records.push(rec), true),
    });
    const named = (m: string) => m.replaceAll(path, file);
    if (!r.ok) return { ok: false, message: named(r.message) };
    if (records.length === 0) return { ok: false, message: named(r.note ?? "no records") };
    return {
      ok: true,
      header: records[0] as SessionHeader,
      records,
      ...(r.note ? { note: named(r.note) } : {}),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("records of a session file", () => {
  test("a well-formed session: header, records, messages in order", () => {
    const text = lines(
      header,
      { type: "message", message: { role: "user", content: "find it" } },
      { type: "event", event: { type: "tool_start", id: "0", tool: "read", args: {} } },
      { type: "message", message: { role: "assistant", content: "here" } },
      { type: "result", at: "t", result: { id: "0", agent: "explore", status: "ok" } },
    );
    const r = parseSession(text, "S", "/f");
    assert.ok(r.ok);
    assert.equal(r.header.agent, "explore");
    assert.equal(r.records.length, 5);
    assert.deepEqual(sessionMessages(r.records), [
      { role: "user", content: "find it" },
      { role: "assistant", content: "here" },
    ]);
  });

  const bad: [string, string, RegExp][] = [
    ["a line that is not JSON", lines(header) + "{oops\n", /corrupt: \/f line 2 is not JSON/],
    ["no header", lines({ type: "message", message: {} }), /does not start with a session record/],
    [
      "another version",
      lines({ ...header, version: 2 }),
      /another version of xcsh \(session format 2; this xcsh reads format 1\)/,
    ],
    [
      "a header without envelope",
      lines({ ...header, envelope: 5 }),
      /line 1 lacks agent, cwd or envelope/,
    ],
    ["an unknown record", lines(header, { type: "gossip" }), /line 2 is not a session record/],
    [
      "a message without a role",
      lines(header, { type: "message", message: { content: "hi" } }),
      /line 2 is not a conversation message/,
    ],
  ];
  for (const [name, text, message] of bad) {
    test(`${name} is an error naming it`, () => {
      const r = parseSession(text, "S", "/f");
      assert.equal(r.ok, false);
      if (!r.ok) assert.match(r.message, message);
    });
  }

  test("a cut last line is dropped with a note; a whole one without its newline is kept", () => {
    const message = { type: "message", message: { role: "user", content: "x" } };
    const text = lines(header, message) + '{"type":"mess';
    const r = parseSession(text, "S", "/f");
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(r.records.length, 2);
    assert.equal(
      r.note,
      "session S: /f line 3 was cut off (an interrupted write); it is left out, " +
        "the records before it are kept",
    );
    const still = parseSession(text, "S", "/f", true);
    assert.ok(still.ok && still.records.length === 2 && still.note === undefined);
    const whole = parseSession(lines(header) + JSON.stringify(message), "S", "/f");
    assert.ok(whole.ok && whole.records.length === 2 && whole.note === undefined);
  });

  test("a corrupt line in the middle is still an error naming it", () => {
    const text = lines(header) + '{"type":"mess\n' +
      lines({ type: "resume", at: "t", assignment: "a" });
    const r = parseSession(text, "S", "/f");
    assert.ok(!r.ok && /corrupt: \/f line 2 is not JSON/.test(r.message));
  });
});

describe("readSession on damaged and large files", () => {
  const message = { type: "message", message: { role: "user", content: "x" } };
  const event = { type: "event", event: { type: "usage", id: "0", input: 1, output: 1 } };
  function withFile(text: string | Uint8Array, check: (dir: string, file: string) => void) {
    const dir = mkdtempSync(join(tmpdir(), "xcsh-store-"));
    try {
      const file = sessionFile(dir, "S");
      writeFileSync(file, text);
      check(dir, file);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  test("keeps what a resume needs, drops events, notes a cut tail", () => {
    withFile(lines(header, event, message, event) + '{"type":"ev', (dir, file) => {
      const r = readSession(dir, "S");
      assert.ok(r.ok, JSON.stringify(r));
      assert.deepEqual(r.records.map((x) => x.type), ["session", "message"]);
      assert.equal(
        r.note,
        `session S: ${file} line 5 was cut off (an interrupted write); ` +
          "it is left out, the records before it are kept",
      );
    });
  });

  test("an empty file is an error naming it", () => {
    withFile("", (dir, file) => {
      const r = readSession(dir, "S");
      assert.ok(!r.ok && r.message === `session S is empty (${file})`);
    });
  });

  test("a conversation over the cap, a line over the cap, a lone cut header", () => {
    withFile(lines(header, message, message, message), (dir, file) => {
      const r = readSession(dir, "S", 2 * JSON.stringify(message).length);
      assert.ok(
        !r.ok && r.message.includes(`session S is too large to continue`),
        r.ok ? "" : r.message,
      );
      assert.ok(!r.ok && r.message.includes(file));
    });
    withFile(lines(header) + "x".repeat(MAX_RECORD_BYTES + 10) + "\n", (dir, file) => {
      const r = readSession(dir, "S");
      assert.ok(!r.ok);
      assert.equal(
        r.message,
        `session S is corrupt: ${file} line 2 is longer than 64 MiB, the most one record may be`,
      );
    });
    withFile(JSON.stringify(header).slice(0, 20), (dir) => {
      const r = readSession(dir, "S");
      assert.ok(!r.ok && /line 1 was cut off/.test(r.message));
    });
  });

  test("scanSession goes on from where it stopped; an unfinished tail waits unless final", () => {
    withFile(lines(header, message) + '{"type":"res', (_dir, file) => {
      const pos = { offset: 0, line: 0 };
      const seen: string[] = [];
      const onRecord = (r: { type: string }) => (seen.push(r.type), true);
      const first = scanSession(file, "S", pos, { final: false, onRecord });
      assert.ok(first.ok && first.note === undefined);
      assert.deepEqual(seen, ["session", "message"]);
      appendFileSync(file, 'ume","at":"t","assignment":"more"}\n');
      const second = scanSession(file, "S", pos, { final: true, onRecord });
      assert.ok(second.ok && second.note === undefined);
      assert.deepEqual(seen, ["session", "message", "resume"]);
    });
  });
});

describe("scanLines", () => {
  test("lines across chunk boundaries, the byte count of each, and the tail", () => {
    const dir = mkdtempSync(join(tmpdir(), "xcsh-lines-"));
    try {
      const file = join(dir, "f");
      const long = "é".repeat(CHUNK_BYTES); // two bytes each: spans chunks
      writeFileSync(file, `a\n${long}\n\nend`);
      const got: [string, number, number][] = [];
      const pos = { offset: 0, line: 0 };
      const r = scanLines(file, pos, (t, i, b) => (got.push([t.slice(0, 3), i, b]), true));
      assert.deepEqual(got, [["a", 0, 2], ["ééé", 1, 2 * CHUNK_BYTES + 1], ["", 2, 1]]);
      assert.ok(r.ok && r.tail === "end" && !r.stopped);
      assert.deepEqual(pos, { offset: 2 * CHUNK_BYTES + 4, line: 3 });
      const capped = scanLines(file, { offset: 0, line: 0 }, () => true, 1000);
      assert.ok(!capped.ok && /f line 2 is longer than/.test(capped.message));
      const gone = scanLines(join(dir, "nope"), { offset: 0, line: 0 }, () => true);
      assert.ok(!gone.ok && gone.missing);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("SessionWriter", () => {
  test("creates a 0700 folder and a 0600 file; refuses to overwrite; reads back", () => {
    const root = mkdtempSync(join(tmpdir(), "xcsh-store-"));
    try {
      const dir = join(root, "sessions");
      const errors: Error[] = [];
      const w = SessionWriter.create(dir, header, (e) => errors.push(e));
      w.append({ type: "message", message: { role: "user", content: "x" } });
      assert.equal(statSync(dir).mode & 0o777, 0o700);
      assert.equal(statSync(sessionFile(dir, "S")).mode & 0o777, 0o600);
      assert.throws(() => SessionWriter.create(dir, header, () => {}), /EEXIST/);
      const read = readSession(dir, "S");
      assert.ok(read.ok && read.records.length === 2);
      assert.deepEqual(errors, []);
      const missing = readSession(dir, "nope");
      assert.ok(!missing.ok && /no session 'nope'/.test(missing.message));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test("reopening a file ends a cut tail first, or gives a whole last record its newline", () => {
    const root = mkdtempSync(join(tmpdir(), "xcsh-store-"));
    try {
      const dir = join(root, "sessions");
      const file = sessionFile(dir, "S");
      const resume = { type: "resume" as const, at: "t", assignment: "again" };
      SessionWriter.create(dir, header, () => {}).close();
      appendFileSync(file, '{"type":"message","mess');
      const w = new SessionWriter(file, () => {});
      w.append(resume);
      w.close();
      const r = readSession(dir, "S");
      assert.ok(r.ok, JSON.stringify(r));
      assert.deepEqual(r.records.map((x) => x.type), ["session", "resume"]);
      assert.equal(r.note, undefined);
      const whole = JSON.stringify({ type: "message", message: { role: "user", content: "x" } });
      appendFileSync(file, whole);
      const w2 = new SessionWriter(file, () => {});
      w2.append(resume);
      w2.close();
      const r2 = readSession(dir, "S");
      assert.ok(r2.ok);
      assert.deepEqual(r2.records.map((x) => x.type), ["session", "resume", "message", "resume"]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test("a write failure is reported once and later records are dropped", () => {
    const root = mkdtempSync(join(tmpdir(), "xcsh-store-"));
    try {
      const errors: Error[] = [];
      const w = new SessionWriter(join(root, "missing", "S.jsonl"), (e) => errors.push(e));
      w.append({ type: "message", message: {} });
      w.append({ type: "message", message: {} });
      assert.equal(errors.length, 1);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
