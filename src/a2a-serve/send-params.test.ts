import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readSendParams, readTaskParams } from "./send-params.ts";
import { methodOf } from "./rpc-method.ts";

const msg = (m: Record<string, unknown>) => ({ message: { messageId: "m1", ...m } });

describe("readSendParams", () => {
  test("1.0 and 0.3 text parts make the assignment; data parts join as JSON", () => {
    assert.deepEqual(readSendParams(msg({ role: "ROLE_USER", parts: [{ text: "Do it" }] })), {
      ok: true,
      value: { assignment: "Do it", messageId: "m1", waits: true },
    });
    const r = readSendParams({
      ...msg({
        kind: "message",
        role: "user",
        contextId: "c1",
        parts: [{ kind: "text", text: "Check" }, { kind: "data", data: { a: 1 } }],
      }),
      configuration: { blocking: false, historyLength: 0 },
    });
    assert.deepEqual(r, {
      ok: true,
      value: {
        assignment: 'Check\n\n{\n  "a": 1\n}',
        messageId: "m1",
        waits: false,
        contextId: "c1",
        historyLength: 0,
      },
    });
    const now = readSendParams({
      ...msg({ parts: [{ text: "x" }] }),
      configuration: { returnImmediately: true },
    });
    assert.equal(now.ok && now.value.waits, false);
  });

  test("each bad field is named in one line", () => {
    const cases: [unknown, RegExp][] = [
      [null, /^'params' must be an object$/],
      [{}, /^'params.message' is required/],
      [{ message: { parts: [{ text: "x" }] } }, /^'params.message.messageId' is required/],
      [msg({ parts: [] }), /^'params.message.parts' must be a non-empty array$/],
      [msg({ parts: "x" }), /^'params.message.parts' must be a non-empty array$/],
      [msg({ parts: [{ text: "  " }] }), /hold no text: the assignment is empty$/],
      [msg({ parts: [7] }), /^'params.message.parts\[0\]' must be an object$/],
      [msg({ parts: [{}] }), /^'params.message.parts\[0\]' has no text or data$/],
      [msg({ role: "ROLE_AGENT", parts: [{ text: "x" }] }), /must be the user's/],
      [msg({ taskId: 5, parts: [{ text: "x" }] }), /^'params.message.taskId' must be a string$/],
      [{ ...msg({ parts: [{ text: "x" }] }), configuration: 3 }, /'params.configuration' must/],
      [
        { ...msg({ parts: [{ text: "x" }] }), configuration: { historyLength: -1 } },
        /historyLength' must be a whole number/,
      ],
    ];
    for (const [params, want] of cases) {
      const r = readSendParams(params);
      assert.equal(r.ok, false, JSON.stringify(params));
      assert.match((r as { message: string }).message, want);
    }
  });

  test("a file part is refused as content, not as a malformed request", () => {
    for (
      const part of [
        { kind: "file", file: { uri: "file:///etc/passwd" } },
        { url: "https://x/y.png" },
        { raw: "AAAA" },
      ]
    ) {
      const r = readSendParams(msg({ parts: [part] }));
      assert.deepEqual(r, {
        ok: false,
        message: "'params.message.parts[0]' is a file: send the assignment as text or data parts",
        contentType: true,
      });
    }
  });
});

describe("readTaskParams and methodOf", () => {
  test("a get or cancel names its task", () => {
    assert.deepEqual(readTaskParams({ id: "t", historyLength: 2 }), {
      ok: true,
      value: { id: "t", historyLength: 2 },
    });
    assert.deepEqual(readTaskParams({}), {
      ok: false,
      message: "'params.id' is required (the task's id)",
    });
    assert.match(
      (readTaskParams({ id: "t", historyLength: 1.5 }) as { message: string }).message,
      /^'params.historyLength' must be a whole number/,
    );
  });

  test("method names decide the version", () => {
    assert.deepEqual(methodOf("SendStreamingMessage"), { op: "stream", wire: "1.0" });
    assert.deepEqual(methodOf("message/stream"), { op: "stream", wire: "0.3" });
    assert.deepEqual(methodOf("GetTask"), { op: "get", wire: "1.0" });
    assert.deepEqual(methodOf("tasks/resubscribe"), { unsupported: true });
    assert.equal(methodOf("toString"), undefined);
    assert.equal(methodOf("sendmessage"), undefined);
  });
});
