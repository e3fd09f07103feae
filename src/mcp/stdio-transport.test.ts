import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { LineTransport, MAX_LINE_BYTES } from "./stdio-transport.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

function harness() {
  const input = new PassThrough();
  const output = new PassThrough();
  let written = "";
  output.setEncoding("utf8").on("data", (d: string) => (written += d));
  const t = new LineTransport(input, output);
  const messages: Any[] = [];
  t.onmessage = (m) => messages.push(m);
  const settle = () => new Promise((r) => setTimeout(r, 20));
  const replies = () => written.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
  return { t, input, messages, settle, replies };
}

describe("LineTransport", () => {
  test("lines split across chunks reach the server; bad lines are answered in order", async () => {
    const h = harness();
    await h.t.start();
    h.input.write('{"jsonrpc":"2.0","id":1,"met');
    h.input.write('hod":"ping"}\r\nnot json\n\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    await h.settle();
    assert.deepEqual(h.messages.map((m) => m.id), [1, 2]);
    assert.deepEqual(h.replies().map((r) => [r.id, r.error.code]), [[null, -32700]]);
    await h.t.send({ jsonrpc: "2.0", id: 1, result: {} });
    await h.settle();
    assert.deepEqual(h.replies()[1], { jsonrpc: "2.0", id: 1, result: {} });
    await h.t.close();
  });

  test("a line over the limit is dropped and answered, and the stream goes on", async () => {
    const h = harness();
    await h.t.start();
    const chunk = "x".repeat(1024 * 1024);
    for (let i = 0; i * chunk.length <= MAX_LINE_BYTES; i++) h.input.write(chunk);
    h.input.write('tail\n{"jsonrpc":"2.0","id":3,"method":"ping"}\n');
    await h.settle();
    assert.deepEqual(h.replies().map((r) => [r.id, r.error.code]), [[null, -32600]]);
    assert.match(h.replies()[0].error.message, /dropped/);
    assert.deepEqual(h.messages.map((m) => m.id), [3]);
    await h.t.close();
  });

  test("close stops reading and says so", async () => {
    const h = harness();
    let closed = false;
    h.t.onclose = () => (closed = true);
    await h.t.start();
    await h.t.close();
    h.input.write('{"jsonrpc":"2.0","id":4,"method":"ping"}\n');
    await h.settle();
    assert.equal(closed, true);
    assert.deepEqual(h.messages, []);
  });
});
