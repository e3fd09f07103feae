import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { transcriptLines } from "./transcript.ts";
import type { SessionHeader } from "./store.ts";

describe("transcriptLines", () => {
  test("the header names the session, agent, model, folder, worktree and assignment", () => {
    const h = {
      type: "session",
      version: 1,
      id: "S1",
      created: "T",
      agent: "writer",
      model: "local/m",
      cwd: "/w",
      worktree: { path: "/w", branch: "xcsh/S1", repo: "/r", base: "abc" },
      envelope: { assignment: "line one\nline two", context: "ctx" },
    } as unknown as SessionHeader;
    assert.deepEqual(transcriptLines(h), [
      "session S1 · agent writer · model local/m",
      "started T in /w",
      "worktree /w (branch xcsh/S1)",
      "",
      "## assignment",
      "  line one",
      "  line two",
      "",
      "## context",
      "  ctx",
    ]);
  });

  test("tool calls with arguments and summaries; messages and other events add nothing", () => {
    assert.deepEqual(
      transcriptLines({
        type: "event",
        event: { type: "tool_start", id: "a", callId: "c1", tool: "read", args: { path: "x" } },
      }),
      ['- read {"path":"x"}'],
    );
    assert.deepEqual(
      transcriptLines({
        type: "event",
        event: {
          type: "tool_end",
          id: "a",
          callId: "c1",
          tool: "read",
          ok: false,
          summary: "no such file",
        },
      }),
      ["  ✗ read: no such file"],
    );
    assert.deepEqual(
      transcriptLines({
        type: "event",
        event: { type: "usage", id: "a", input: 1, output: 2, cacheRead: 0, cacheWrite: 0 },
      }),
      [],
    );
    assert.deepEqual(
      transcriptLines({ type: "message", message: { role: "user", content: "x" } }),
      [],
    );
  });

  test("follow-ups and results (data, text, error, worktree)", () => {
    assert.deepEqual(transcriptLines({ type: "resume", at: "T2", assignment: "more" }), [
      "",
      "## follow-up (T2)",
      "  more",
    ]);
    assert.deepEqual(
      transcriptLines({
        type: "result",
        at: "T",
        result: {
          id: "a",
          agent: "w",
          status: "ok",
          text: "done",
          worktree: { path: "/w", branch: "xcsh/a", changed: ["a.txt", "b.txt"] },
        },
      }),
      ["", "## result: ok", "  done", "  changes kept in /w (branch xcsh/a): a.txt, b.txt"],
    );
    assert.deepEqual(
      transcriptLines({
        type: "result",
        at: "T",
        result: { id: "a", agent: "w", status: "error", error: "boom" },
      }),
      ["", "## result: error", "  error: boom"],
    );
    assert.deepEqual(
      transcriptLines({
        type: "result",
        at: "T",
        result: { id: "a", agent: "w", status: "ok", data: { n: 1 } },
      }),
      ["", "## result: ok", "  {", '    "n": 1', "  }"],
    );
  });
});
