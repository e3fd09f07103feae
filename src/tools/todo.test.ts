import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { callTool } from "./registry.ts";
import { renderTodos, summarizeTodos, todoTool } from "./todo.ts";
import { sandbox } from "../../tests/support/tool-context.ts";

describe("todo", () => {
  const box = sandbox();
  test("the whole list comes back, with a progress summary", async () => {
    const r = await callTool(todoTool, {
      todos: [
        { content: "Read the code", status: "done" },
        { content: "Write the tests", status: "in_progress" },
        { content: "Ship", status: "pending" },
      ],
    }, box.ctx);
    assert.equal(r.ok, true);
    assert.equal(r.summary, "1/3 done; now: Write the tests");
    assert.equal(
      r.output,
      "Checklist (1/3 done; now: Write the tests):\n[x] 1. Read the code\n[~] 2. Write the tests\n[ ] 3. Ship",
    );
  });
  test("a later call replaces the list; Claude's 'completed' reads as done", async () => {
    const r = await callTool(
      todoTool,
      { todos: [{ content: "Ship", status: "completed" }] },
      box.ctx,
    );
    assert.equal(r.summary, "1/1 done");
    assert.equal(r.output.split("\n").length, 2);
  });
  test("an empty list clears it", async () => {
    const r = await callTool(todoTool, { todos: [] }, box.ctx);
    assert.equal(r.summary, "checklist cleared");
  });
  for (
    const [name, args, message] of [
      ["no todos", {}, /must have required property 'todos'/],
      [
        "a bad status",
        { todos: [{ content: "x", status: "later" }] },
        /must be equal to one of the allowed values/,
      ],
      ["an empty item", { todos: [{ content: "", status: "pending" }] }, /fewer than 1 characters/],
      ["a string list", { todos: "a, b" }, /must be array/],
    ] as const
  ) {
    test(`${name} is a tool error`, async () => {
      const r = await callTool(todoTool, args, box.ctx);
      assert.equal(r.ok, false);
      assert.match(r.output, message);
    });
  }
  test("pure helpers", () => {
    assert.equal(renderTodos([{ content: " a ", status: "pending" }]), "[ ] 1. a");
    assert.equal(summarizeTodos([{ content: "a", status: "pending" }]), "0/1 done");
  });
});
