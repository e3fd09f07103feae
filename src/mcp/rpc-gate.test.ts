import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { screenLine } from "./rpc-gate.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

const call = (params: unknown, id: unknown = 7) =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params });

describe("screenLine", () => {
  test("a well-formed request passes as the message", () => {
    const r: Any = screenLine(call({ name: "task", arguments: { agent: "a" } }));
    assert.equal(r.message.method, "tools/call");
    assert.deepEqual(r.message.params.arguments, { agent: "a" });
  });

  test("a notification and a response pass", () => {
    assert.ok("message" in screenLine('{"jsonrpc":"2.0","method":"notifications/initialized"}'));
    assert.ok("message" in screenLine('{"jsonrpc":"2.0","id":1,"result":{}}'));
  });

  test("blank lines are skipped", () => {
    assert.deepEqual(screenLine(""), { skip: true });
    assert.deepEqual(screenLine("  \t"), { skip: true });
  });

  const errors: [string, string, number, unknown, RegExp][] = [
    ["not JSON", "not json", -32700, null, /^Parse error: the line is not JSON/],
    ["cut JSON", '{"jsonrpc":"2.0","id":3,', -32700, null, /^Parse error/],
    ["a batch", "[1,2]", -32600, null, /^Invalid Request: batches are not supported$/],
    ["a number", "42", -32600, null, /^Invalid Request: a message must be a JSON object/],
    [
      "no jsonrpc",
      '{"id":4,"method":"ping"}',
      -32600,
      4,
      /^Invalid Request: 'jsonrpc' must be "2.0"$/,
    ],
    [
      "no method",
      '{"jsonrpc":"2.0","id":"x"}',
      -32600,
      "x",
      /^Invalid Request: 'method' must be a string$/,
    ],
    ["an object id", '{"jsonrpc":"2.0","id":{},"method":"ping"}', -32600, null, /^Invalid Request/],
    [
      "arguments that are an array",
      call({ name: "task", arguments: [1] }),
      -32602,
      7,
      /^Invalid params: 'arguments' must be an object, not an array$/,
    ],
    [
      "arguments that are a string",
      call({ name: "task", arguments: "agent=explore" }, "s"),
      -32602,
      "s",
      /^Invalid params: 'arguments' must be an object, not a string$/,
    ],
    ["no tool name", call({}), -32602, 7, /^Invalid params: 'name' is required \(a string\)$/],
    [
      "a bad task id",
      '{"jsonrpc":"2.0","id":9,"method":"tasks/get","params":{"taskId":5}}',
      -32602,
      9,
      /^Invalid params: 'taskId' must be a string, not a number$/,
    ],
  ];
  for (const [what, line, code, id, message] of errors) {
    test(`${what}: ${code}, one line`, () => {
      const r: Any = screenLine(line);
      assert.ok("reply" in r, JSON.stringify(r));
      assert.equal(r.reply.jsonrpc, "2.0");
      assert.equal(r.reply.id, id);
      assert.equal(r.reply.error.code, code);
      assert.match(r.reply.error.message, message);
      assert.doesNotMatch(r.reply.error.message, /\n/);
      assert.ok(r.reply.error.message.length <= 300);
    });
  }
});
