// The strict server's pairing rules, per wire format: a paired conversation
// passes; a call without its result, and a result without its call, are
// refused with the provider's status, error shape and text.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { pairingRefusal } from "./strict-pairing.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

describe("anthropic", () => {
  const call = {
    role: "assistant",
    content: [{ type: "tool_use", id: "t1", name: "read", input: {} }],
  };
  const result = {
    role: "user",
    content: [{ type: "tool_result", tool_use_id: "t1", content: "ok" }, {
      type: "text",
      text: "go",
    }],
  };
  test("a call answered in the next message passes", () => {
    assert.equal(
      pairingRefusal("anthropic", { messages: [{ role: "user", content: "hi" }, call, result] }),
      undefined,
    );
  });
  test("a call without its result is refused naming the message and id", () => {
    const r = pairingRefusal("anthropic", {
      messages: [{ role: "user", content: "hi" }, call, { role: "user", content: "next" }],
    }) as Any;
    assert.equal(r.status, 400);
    assert.equal(r.body.type, "error");
    assert.equal(r.body.error.type, "invalid_request_error");
    assert.match(
      r.body.error.message,
      /^messages\.1: `tool_use` ids were found without `tool_result` blocks immediately after: t1\./,
    );
  });
  test("a call that ends the conversation is refused too", () => {
    assert.ok(pairingRefusal("anthropic", { messages: [{ role: "user", content: "hi" }, call] }));
  });
  test("a result with no call before it is refused", () => {
    const r = pairingRefusal("anthropic", {
      messages: [{ role: "user", content: "hi" }, { role: "assistant", content: "x" }, result],
    }) as Any;
    assert.match(
      r.body.error.message,
      /^messages\.2\.content\.0: unexpected `tool_use_id` found in `tool_result` blocks: t1\./,
    );
  });
});

describe("responses", () => {
  const call = { type: "function_call", call_id: "c1", name: "read", arguments: "{}" };
  const output = { type: "function_call_output", call_id: "c1", output: "ok" };
  test("a call with its output passes", () => {
    assert.equal(
      pairingRefusal("responses", { input: [{ role: "user", content: "hi" }, call, output] }),
      undefined,
    );
  });
  test("a call without output is refused", () => {
    const r = pairingRefusal("responses", {
      input: [call, { role: "user", content: "next" }],
    }) as Any;
    assert.equal(r.status, 400);
    assert.deepEqual(r.body.error, {
      message: "No tool output found for function call c1.",
      type: "invalid_request_error",
      param: "input",
      code: null,
    });
  });
  test("an output before or without its call is refused", () => {
    const r = pairingRefusal("responses", { input: [output, call] }) as Any;
    assert.equal(
      r.body.error.message,
      "No tool call found for function call output with call_id c1.",
    );
  });
});

describe("openai chat", () => {
  const call = {
    role: "assistant",
    content: null,
    tool_calls: [
      { id: "a", type: "function", function: { name: "read", arguments: "{}" } },
      { id: "b", type: "function", function: { name: "ls", arguments: "{}" } },
    ],
  };
  const tool = (id: string) => ({ role: "tool", tool_call_id: id, content: "ok" });
  test("every call answered before the next message passes", () => {
    assert.equal(
      pairingRefusal("openai", {
        messages: [{ role: "user", content: "hi" }, call, tool("a"), tool("b"), {
          role: "user",
          content: "go",
        }],
      }),
      undefined,
    );
  });
  test("a call left unanswered is refused, naming its id", () => {
    const r = pairingRefusal("openai", {
      messages: [{ role: "user", content: "hi" }, call, tool("a"), { role: "user", content: "go" }],
    }) as Any;
    assert.equal(r.status, 400);
    assert.equal(r.body.error.param, "messages.[1].role");
    assert.match(
      r.body.error.message,
      /following tool_call_ids did not have response messages: b$/,
    );
  });
  test("a tool message after anything but the calls is refused", () => {
    const r = pairingRefusal("openai", {
      messages: [{ role: "user", content: "hi" }, tool("a")],
    }) as Any;
    assert.match(
      r.body.error.message,
      /messages with role 'tool' must be a response to a preceeding message with 'tool_calls'/,
    );
    assert.equal(r.body.error.param, "messages.[1].role");
  });
});

describe("google", () => {
  const call = {
    role: "model",
    parts: [{ functionCall: { name: "read", args: {} } }, {
      functionCall: { name: "ls", args: {} },
    }],
  };
  const responses = (n: number) => ({
    role: "user",
    parts: Array.from({ length: n }, () => ({ functionResponse: { name: "read", response: {} } })),
  });
  test("as many responses as calls passes", () => {
    assert.equal(
      pairingRefusal("google", {
        contents: [{ role: "user", parts: [{ text: "hi" }] }, call, responses(2)],
      }),
      undefined,
    );
  });
  test("fewer responses than calls is refused", () => {
    const r = pairingRefusal("google", {
      contents: [{ role: "user", parts: [{ text: "hi" }] }, call, responses(1)],
    }) as Any;
    assert.deepEqual(r.body, {
      error: {
        code: 400,
        message:
          "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.",
        status: "INVALID_ARGUMENT",
      },
    });
  });
  test("responses after no call are refused", () => {
    const r = pairingRefusal("google", {
      contents: [{ role: "user", parts: [{ text: "hi" }] }, responses(1)],
    }) as Any;
    assert.match(
      r.body.error.message,
      /function response turn comes immediately after a function call turn/,
    );
  });
});
