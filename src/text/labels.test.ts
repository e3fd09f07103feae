import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { formatDiagnostic, oneLine, toolLabel } from "./labels.ts";

describe("formatDiagnostic", () => {
  test("level, file, field and message on one line", () => {
    assert.equal(
      formatDiagnostic({ level: "warning", file: "a.md", field: "tools", message: "unknown" }),
      "xcsh: warning: a.md: tools: unknown",
    );
  });
  test("a field the message already quotes is not said twice", () => {
    assert.equal(
      formatDiagnostic({ level: "error", field: "model", message: "'model' must be a string" }),
      "xcsh: error: 'model' must be a string",
    );
  });
});

describe("oneLine", () => {
  test("whitespace runs become one space; a long value is cut with …", () => {
    assert.equal(oneLine("a\n\n  b"), "a b");
    assert.equal(oneLine("x".repeat(100), 10), "xxxxxxxxx…");
    assert.equal(oneLine({ k: 1 }), '{"k":1}');
  });
});

describe("toolLabel", () => {
  test("the tool with its most telling argument, or its name alone", () => {
    assert.equal(toolLabel("read", { path: "src/a.ts" }), "read src/a.ts");
    assert.equal(toolLabel("bash", { command: "ls\n-la" }), "bash ls -la");
    assert.equal(toolLabel("todo", { items: [] }), "todo");
    assert.equal(toolLabel("todo", undefined), "todo");
  });
});
