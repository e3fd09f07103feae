// Unit tests for the records `xcsh -p` prints in Claude Code's shapes.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  claudeUsage,
  initRecord,
  messageRecord,
  partialRecord,
  resultRecord,
  resultSubtype,
} from "./claude-shapes.ts";
import type { TaskResult } from "../types.ts";

const tally = { turns: 3, durationMs: 40, budgetStopped: false };
const ok: TaskResult = {
  id: "0-task",
  agent: "task",
  status: "ok",
  text: "all good",
  session: "s-123",
  model: "anth/claude-sonnet-4-5",
  usage: { input: 1000, output: 50, cacheRead: 300, cacheWrite: 100 },
  costUSD: 0.0123,
  durationMs: 35,
};

describe("resultRecord", () => {
  test("a success: the paths Claude's docs read, with Claude's key names", () => {
    const r = resultRecord(ok, tally);
    assert.equal(r.type, "result");
    assert.equal(r.subtype, "success");
    assert.equal(r.is_error, false);
    assert.equal(r.result, "all good");
    assert.equal(r.session_id, "s-123");
    assert.equal(r.total_cost_usd, 0.0123);
    assert.equal(r.num_turns, 3);
    assert.equal(r.duration_ms, 35);
    // xcsh counts cached input in `input`; Claude's input_tokens leaves it out.
    assert.deepEqual(r.usage, {
      input_tokens: 600,
      output_tokens: 50,
      cache_read_input_tokens: 300,
      cache_creation_input_tokens: 100,
    });
    assert.deepEqual(Object.keys(r.modelUsage as object), ["anth/claude-sonnet-4-5"]);
    assert.equal(r.structured_output, undefined);
  });

  test("data: structured_output, and result holds it as JSON when there is no text", () => {
    const r = resultRecord({ ...ok, text: undefined, data: { a: 1 } }, tally);
    assert.deepEqual(r.structured_output, { a: 1 });
    assert.equal(r.result, '{"a":1}');
  });

  test("errors: the subtype says which, is_error, result holds the error", () => {
    const failed = resultRecord({ ...ok, status: "error", error: "boom" }, tally);
    assert.equal(failed.subtype, "error_during_execution");
    assert.equal(failed.is_error, true);
    assert.equal(failed.result, "boom");
    assert.equal(resultSubtype({ ...ok, status: "max_turns" }, tally), "error_max_turns");
    assert.equal(
      resultSubtype({ ...ok, status: "cancelled" }, { budgetStopped: true }),
      "error_max_budget_usd",
    );
    assert.equal(
      resultSubtype({ ...ok, status: "cancelled" }, { budgetStopped: false }),
      "error_during_execution",
    );
  });

  test("an unknown price is 0 with the reason; no session is null", () => {
    const r = resultRecord(
      { ...ok, costUSD: null, costNote: "no price", session: undefined },
      tally,
    );
    assert.equal(r.total_cost_usd, 0);
    assert.equal(r.cost_note, "no price");
    assert.equal(r.session_id, null);
  });

  test("no usage: every count is 0", () => {
    assert.deepEqual(claudeUsage(undefined), {
      input_tokens: 0,
      output_tokens: 0,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
    });
  });
});

describe("stream records", () => {
  test("system/init carries the session, folder, tools (Claude Code's names) and model", () => {
    assert.deepEqual(
      initRecord({ session: "s", cwd: "/p", tools: ["read"], model: "m/x", agent: "task" }),
      {
        type: "system",
        subtype: "init",
        session_id: "s",
        cwd: "/p",
        tools: ["Read"],
        mcp_servers: [],
        model: "m/x",
        permissionMode: "default",
        agents: ["task"],
      },
    );
  });

  test("an assistant message: text and tool_use blocks", () => {
    const r = messageRecord({
      role: "assistant",
      content: [
        { type: "text", text: "Looking." },
        { type: "tool-call", toolCallId: "c1", toolName: "ls", input: { path: "." } },
      ],
    }, "s");
    assert.deepEqual(r, {
      type: "assistant",
      message: {
        type: "message",
        role: "assistant",
        content: [
          { type: "text", text: "Looking." },
          { type: "tool_use", id: "c1", name: "LS", input: { path: "." } },
        ],
      },
      parent_tool_use_id: null,
      session_id: "s",
    });
  });

  test("a tool message is the user's turn: tool_result blocks, errors marked", () => {
    const r = messageRecord({
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "c1",
          toolName: "ls",
          output: { type: "text", value: "a\nb" },
        },
        {
          type: "tool-result",
          toolCallId: "c2",
          toolName: "read",
          output: { type: "error-text", value: "no such file" },
        },
      ],
    }, "s") as { type: string; message: { content: unknown[] } };
    assert.equal(r.type, "user");
    assert.deepEqual(r.message.content, [
      { type: "tool_result", tool_use_id: "c1", content: "a\nb" },
      { type: "tool_result", tool_use_id: "c2", content: "no such file", is_error: true },
    ]);
  });

  test("the first prompt, empty content and anything else give no record", () => {
    assert.equal(messageRecord({ role: "user", content: "do it" }, "s"), undefined);
    assert.equal(messageRecord({ role: "assistant", content: [] }, "s"), undefined);
    assert.equal(messageRecord("nonsense", "s"), undefined);
    assert.equal(
      messageRecord({ role: "assistant", content: [{ type: "mystery" }] }, "s"),
      undefined,
    );
  });

  test("partial text is a stream_event with a text_delta", () => {
    assert.deepEqual(partialRecord("He", "s"), {
      type: "stream_event",
      event: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "He" } },
      parent_tool_use_id: null,
      session_id: "s",
    });
  });
});
