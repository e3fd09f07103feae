import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { methodName, sendParams, versionHeaders } from "./rpc-shapes.ts";

describe("rpc-shapes", () => {
  test("method names and headers by version", () => {
    assert.deepEqual(
      (["send", "stream", "get", "cancel"] as const).map((op) => methodName("1.0", op)),
      ["SendMessage", "SendStreamingMessage", "GetTask", "CancelTask"],
    );
    assert.deepEqual(
      (["send", "stream", "get", "cancel"] as const).map((op) => methodName("0.3", op)),
      ["message/send", "message/stream", "tasks/get", "tasks/cancel"],
    );
    assert.deepEqual(versionHeaders("1.0"), { "a2a-version": "1.0" });
    assert.deepEqual(versionHeaders("0.3"), {});
  });

  test("the message of each version, continuing a context and a waiting task", () => {
    assert.deepEqual(sendParams("1.0", "hi", "m1", { contextId: "c" }), {
      message: {
        messageId: "m1",
        role: "ROLE_USER",
        parts: [{ text: "hi", mediaType: "text/plain" }],
        contextId: "c",
      },
    });
    assert.deepEqual(sendParams("0.3", "hi", "m1", { contextId: "c", taskId: "t" }), {
      message: {
        kind: "message",
        messageId: "m1",
        role: "user",
        parts: [{ kind: "text", text: "hi" }],
        contextId: "c",
        taskId: "t",
      },
    });
  });
});
