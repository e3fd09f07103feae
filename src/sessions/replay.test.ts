// What a resumed conversation holds: unanswered calls answered as
// interrupted, stray results dropped, provider data dropped on a model switch.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { continuation, INTERRUPTED_RESULT, wellFormed, withoutProviderData } from "./replay.ts";

const user = { role: "user", content: "go" };
const call = (id: string, name = "bash") => ({
  type: "tool-call",
  toolCallId: id,
  toolName: name,
  input: {},
});
const result = (id: string, value = "ok") => ({
  type: "tool-result",
  toolCallId: id,
  toolName: "bash",
  output: { type: "text", value },
});

describe("wellFormed", () => {
  test("a paired conversation is unchanged", () => {
    const messages = [
      user,
      { role: "assistant", content: [call("a")] },
      { role: "tool", content: [result("a")] },
      { role: "assistant", content: "done" },
    ];
    assert.deepEqual(wellFormed(messages), { messages, repaired: 0 });
  });

  test("a call the run never answered (killed mid-call) gets an interrupted result", () => {
    const { messages, repaired } = wellFormed([
      user,
      {
        role: "assistant",
        content: [{ type: "text", text: "Running." }, call("a"), call("b", "read")],
      },
    ]);
    assert.equal(repaired, 2);
    assert.deepEqual(messages.at(-1), {
      role: "tool",
      content: ["a", "b"].map((id, i) => ({
        type: "tool-result",
        toolCallId: id,
        toolName: i === 0 ? "bash" : "read",
        output: { type: "error-text", value: INTERRUPTED_RESULT },
      })),
    });
  });

  test("answered calls keep their results; the others are completed in call order", () => {
    const { messages } = wellFormed([
      user,
      { role: "assistant", content: [call("a"), call("b")] },
      { role: "tool", content: [result("b", "B")] },
      { role: "user", content: "next" },
    ]);
    // deno-lint-ignore no-explicit-any
    const tool = messages[2] as any;
    assert.deepEqual(tool.content.map((p: { toolCallId: string }) => p.toolCallId), ["a", "b"]);
    assert.equal(tool.content[0].output.value, INTERRUPTED_RESULT);
    assert.equal(tool.content[1].output.value, "B");
    assert.deepEqual(messages[3], { role: "user", content: "next" });
  });

  test("results that answer no call are dropped, and so are their empty messages", () => {
    const { messages, repaired } = wellFormed([
      user,
      { role: "tool", content: [result("x")] },
      { role: "assistant", content: [call("a")] },
      { role: "tool", content: [result("a"), result("zz")] },
      { role: "tool", content: [result("a", "again")] },
    ]);
    assert.equal(repaired, 3);
    assert.deepEqual(messages, [
      user,
      { role: "assistant", content: [call("a")] },
      { role: "tool", content: [result("a")] },
    ]);
  });
});

describe("withoutProviderData", () => {
  test("drops reasoning, metadata and metadata-only text; keeps the rest", () => {
    const sig = { anthropic: { signature: "opaque" } };
    const { messages, dropped } = withoutProviderData([
      user,
      { role: "assistant", content: [{ type: "reasoning", text: "hmm", providerOptions: sig }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "", providerOptions: { openai: { itemId: "msg_1" } } },
          { type: "text", text: "Here.", providerOptions: { openai: { itemId: "msg_2" } } },
          { ...call("a"), providerOptions: { google: { thoughtSignature: "sig" } } },
        ],
      },
      { role: "tool", content: [result("a")] },
    ]);
    assert.equal(dropped, 4);
    assert.deepEqual(messages, [
      user,
      { role: "assistant", content: [{ type: "text", text: "Here." }, call("a")] },
      { role: "tool", content: [result("a")] },
    ]);
  });
});

describe("continuation", () => {
  const history = [
    user,
    {
      role: "assistant",
      content: [{
        type: "reasoning",
        text: "t",
        providerOptions: { anthropic: { signature: "s" } },
      }, {
        type: "text",
        text: "Hi.",
      }],
    },
  ];
  test("a resume keeps the session's model and its conversation as it is", () => {
    assert.deepEqual(continuation(history, "anthropic/claude-a", undefined), {
      model: "anthropic/claude-a",
      messages: history,
    });
    assert.deepEqual(continuation(history, "anthropic/claude-a", "anthropic/claude-a"), {
      model: "anthropic/claude-a",
      messages: history,
    });
  });

  test("another model drops the provider data, with a note", () => {
    const c = continuation(history, "anthropic/claude-a", "openai/gpt-b");
    assert.equal(c?.model, "openai/gpt-b");
    assert.deepEqual(c?.messages, [user, {
      role: "assistant",
      content: [{ type: "text", text: "Hi." }],
    }]);
    assert.match(
      c?.note ?? "",
      /^session switched from anthropic\/claude-a to openai\/gpt-b; 1 item of reasoning and provider metadata .* dropped/,
    );
  });

  test("no model anywhere: undefined; a session without one takes the requested", () => {
    assert.equal(continuation(history, null, undefined), undefined);
    assert.equal(continuation(history, null, "ollama/x")?.note, undefined);
  });
});
