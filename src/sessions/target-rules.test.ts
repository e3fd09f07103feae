import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  EMPTY_RESULT,
  fittedId,
  forTarget,
  idFits,
  openLoopWithoutThinking,
} from "./target-rules.ts";

const call = (id: string) => ({ type: "tool-call", toolCallId: id, toolName: "read", input: {} });
const result = (id: string, value = "ok", type = "text") => ({
  type: "tool-result",
  toolCallId: id,
  toolName: "read",
  output: { type, value },
});
const loop = (id: string, before: unknown[] = []) => [
  { role: "user", content: "go" },
  { role: "assistant", content: [...before, call(id)] },
  { role: "tool", content: [result(id)] },
];

describe("tool-call ids", () => {
  test("each target's rule", () => {
    assert.equal(idFits("anthropic", "toolu_01-A"), true);
    assert.equal(idFits("anthropic", "functions.read:20"), false);
    assert.equal(idFits("openai", "functions.read:20"), true);
    assert.equal(idFits("openai", "x".repeat(64)), true);
    assert.equal(idFits("openai-compatible", "x".repeat(65)), false);
    assert.equal(idFits("google", "anything at all"), true);
    assert.equal(idFits("anthropic", ""), false);
  });

  test("an id that fits is kept; one that does not becomes a short stable hash id", () => {
    assert.equal(fittedId("anthropic", "call_1"), "call_1");
    const mapped = fittedId("anthropic", "functions.read:20");
    assert.match(mapped, /^call_[0-9a-f]{24}$/);
    assert.equal(fittedId("anthropic", "functions.read:20"), mapped, "deterministic");
    assert.notEqual(fittedId("anthropic", "functions.read:21"), mapped);
    const long = `mcp__server__${"y".repeat(68)}`;
    assert.equal(long.length, 81);
    assert.ok(fittedId("openai", long).length <= 64);
  });

  test("a call and its result are mapped alike, so they stay paired", () => {
    const { messages, changed } = forTarget(loop("functions.read:20"), "anthropic");
    const [, assistant, tool] = messages as { content: { toolCallId: string }[] }[];
    assert.equal(assistant.content[0].toolCallId, tool.content[0].toolCallId);
    assert.match(assistant.content[0].toolCallId, /^call_[0-9a-f]{24}$/);
    assert.equal(changed, 2);
    const same = forTarget(loop("functions.read:20"), "openai-compatible");
    assert.equal(same.changed, 0, "chat servers take the model's own ids");
  });
});

describe("text", () => {
  test("whitespace-only and empty text is dropped for Anthropic", () => {
    const text = (t: string, extra = {}) => ({ type: "text", text: t, ...extra });
    const { messages, changed } = forTarget(
      loop("c1", [text("\n\n"), text(""), text("", { providerOptions: { x: {} } })]),
      "anthropic",
    );
    assert.deepEqual((messages[1] as { content: unknown[] }).content, [call("c1")]);
    assert.equal(changed, 3);
  });

  test("other targets keep blank text only when it carries provider metadata", () => {
    const signed = {
      type: "text",
      text: "",
      providerOptions: { google: { thoughtSignature: "S" } },
    };
    const { messages } = forTarget(loop("c1", [{ type: "text", text: " " }, signed]), "google");
    assert.deepEqual((messages[1] as { content: unknown[] }).content, [signed, call("c1")]);
  });

  test("an assistant message of blank text only is dropped; real text is kept", () => {
    const msgs = [
      { role: "user", content: "go" },
      { role: "assistant", content: [{ type: "text", text: "  " }] },
      { role: "assistant", content: [{ type: "text", text: "done" }] },
    ];
    const { messages } = forTarget(msgs, "anthropic");
    assert.deepEqual(messages, [msgs[0], msgs[2]]);
  });

  test("an empty tool result says so in words", () => {
    const msgs = [
      { role: "assistant", content: [call("c1")] },
      { role: "tool", content: [result("c1", "", "error-text")] },
    ];
    const { messages } = forTarget(msgs, "anthropic");
    const out = (messages[1] as { content: { output: { type: string; value: string } }[] })
      .content[0].output;
    assert.deepEqual(out, { type: "error-text", value: EMPTY_RESULT });
  });
});

describe("an open tool loop without leading thinking", () => {
  test("is found when the last assistant call has no reasoning first", () => {
    assert.equal(openLoopWithoutThinking(loop("c1")), true);
    assert.equal(
      openLoopWithoutThinking([...loop("c1"), { role: "user", content: "next" }]),
      true,
      "a prompt merged after the results stays in the loop",
    );
    assert.equal(openLoopWithoutThinking(loop("c1", [{ type: "reasoning", text: "t" }])), false);
  });

  test("is not found once the loop is closed by an answer", () => {
    const closed = [
      ...loop("c1"),
      { role: "assistant", content: [{ type: "text", text: "done" }] },
      { role: "user", content: "next" },
    ];
    assert.equal(openLoopWithoutThinking(closed), false);
    assert.equal(openLoopWithoutThinking([{ role: "user", content: "go" }]), false);
  });
});
