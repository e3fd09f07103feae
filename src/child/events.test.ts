import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createEmitter, redact, redactValue } from "./events.ts";
import { buildSystemPrompt, reminderMessage } from "./prompt.ts";

describe("events", () => {
  test("one JSON line per event, secrets redacted, one result only", () => {
    const lines: string[] = [];
    const emit = createEmitter((l) => lines.push(l));
    emit.setSecrets(["sk-abcdefgh123"]);
    emit({ type: "text", id: "1", delta: "key sk-abcdefgh123!" });
    emit({ type: "result", id: "1", status: "ok", data: { k: ["sk-abcdefgh123"] } });
    emit({ type: "result", id: "1", status: "error", error: "second" });
    assert.deepEqual(lines, [
      '{"type":"text","id":"1","delta":"key [redacted]!"}\n',
      '{"type":"result","id":"1","status":"ok","data":{"k":["[redacted]"]}}\n',
    ]);
    assert.ok(emit.resultSent());
  });

  test("short values are not treated as secrets", () => {
    assert.equal(redact("abc abc", ["abc"]), "abc abc");
    assert.deepEqual(redactValue({ a: 1, b: null }, ["12345678"]), { a: 1, b: null });
  });
});

describe("prompt", () => {
  test("with a schema: agent prompt, context, the schema and the submit contract", () => {
    const p = buildSystemPrompt({
      agentPrompt: "You scout.\n",
      context: "The repo is small.",
      schema: { kind: "json-schema", value: { type: "object" } },
      planMode: true,
      cwd: "/w",
    });
    assert.ok(p.startsWith("You scout.\n\n## Context from the caller\n\nThe repo is small."));
    assert.match(p, /Working directory: \/w/);
    assert.match(p, /Plan mode/);
    assert.match(p, /satisfy this JSON Schema/);
    assert.match(p, /"type": "object"/);
    assert.match(p, /submit_result/);
  });

  test("without a schema: a plain final answer is the result", () => {
    const p = buildSystemPrompt({ agentPrompt: "Hi", planMode: false });
    assert.match(p, /final answer as plain text/);
    assert.doesNotMatch(p, /Plan mode/);
  });

  test("the reminder counts down", () => {
    assert.match(reminderMessage(1), /1 reminder left/);
    assert.match(reminderMessage(2), /2 reminders left/);
  });
});
