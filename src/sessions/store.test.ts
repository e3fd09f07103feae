import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  parseSession,
  readSession,
  sessionFile,
  type SessionHeader,
  sessionMessages,
  SessionWriter,
} from "./store.ts";

const header: SessionHeader = {
  type: "session",
  version: 1,
  id: "S",
  created: "2026-01-01T00:00:00.000Z",
  agent: "explore",
  model: "local/m",
  cwd: "/p",
  envelope: {
    version: 1,
    id: "0-explore",
    agent: {
      name: "explore",
      description: "d",
      systemPrompt: "",
      source: "bundled",
      family: "bundled",
    },
    assignment: "find it",
    outputSchema: null,
    model: "local/m",
    cwd: "/p",
    planMode: false,
    limits: { maxTurns: 5, timeoutMs: 1000, submitRetries: 1 },
  },
};
const lines = (...records: unknown[]) => records.map((r) => JSON.stringify(r)).join("\n") + "\n";

describe("parseSession", () => {
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
    ["empty", "", /session S is empty \(\/f\)/],
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

  test("an unfinished last line is skipped only when allowed", () => {
    const text = lines(header) + '{"type":"mess';
    assert.equal(parseSession(text, "S", "/f").ok, false);
    const r = parseSession(text, "S", "/f", true);
    assert.ok(r.ok && r.records.length === 1);
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
