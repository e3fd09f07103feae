// Calls running side by side, as progress shows them.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { runningLabel, RunningTools } from "./running-tools.ts";

describe("runningLabel", () => {
  test("none, one, several", () => {
    assert.equal(runningLabel([]), "");
    assert.equal(runningLabel(["read a.ts"]), "read a.ts");
    assert.equal(
      runningLabel(["read a.ts", "grep foo", "ls src"]),
      "3 tools: read a.ts, grep foo, ls src",
    );
  });
  test("a long list is cut with …, within the width", () => {
    const labels = Array.from({ length: 20 }, (_, i) => `read src/file-${i}.ts`);
    const line = runningLabel(labels, 60);
    assert.ok(line.length <= 63, line);
    assert.match(line, /^20 tools: read src\/file-0\.ts, .*, …$/);
  });
});

describe("RunningTools", () => {
  test("pairs starts and ends by callId, per task", () => {
    const r = new RunningTools();
    r.event("t", {
      type: "tool_start",
      id: "t",
      callId: "1",
      tool: "read",
      args: { path: "a.ts" },
    });
    r.event("t", {
      type: "tool_start",
      id: "t",
      callId: "2",
      tool: "grep",
      args: { pattern: "x" },
    });
    r.event("u", { type: "tool_start", id: "u", callId: "1", tool: "ls", args: {} });
    assert.equal(r.label("t"), "2 tools: read a.ts, grep x");
    assert.equal(r.label("u"), "ls");
    r.event("t", { type: "tool_end", id: "t", callId: "1", tool: "read", ok: true, summary: "" });
    assert.equal(r.label("t"), "grep x");
    assert.equal(r.count("t"), 1);
    r.event("t", { type: "result", id: "t", status: "ok" });
    assert.equal(r.label("t"), "");
    assert.equal(r.count("u"), 1);
  });
});
