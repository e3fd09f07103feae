import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Progress } from "./progress.ts";

function plain() {
  const lines: string[] = [];
  const p = new Progress({ isTTY: false, write: (t) => lines.push(t) });
  return { p, lines };
}

describe("Progress (plain lines)", () => {
  test("a model fallback is said on its own line, then the start", () => {
    const { p, lines } = plain();
    p.add("0-explore", "explore");
    p.event("0-explore", {
      type: "start",
      id: "0-explore",
      agent: "explore",
      model: "ollama/qwen3:8b",
      depth: 1,
      note: "sonnet unavailable (ANTHROPIC_API_KEY not set); using ollama/qwen3:8b",
    });
    assert.deepEqual(lines, [
      "xcsh: [0-explore] explore: sonnet unavailable (ANTHROPIC_API_KEY not set); using ollama/qwen3:8b\n",
      "xcsh: [0-explore] explore started on ollama/qwen3:8b\n",
    ]);
  });

  test("a note siblings share is said once per agent; another note or agent is said", () => {
    const { p, lines } = plain();
    const windowNote = "its context window is unknown; assuming 128000 tokens";
    const start = (id: string, agent: string, note?: string) => {
      p.add(id, agent);
      p.event(id, {
        type: "start",
        id,
        agent,
        model: "local/mock",
        depth: 1,
        windowNote,
        ...(note ? { note } : {}),
      });
    };
    start("t1", "quick_task");
    start("t2", "quick_task");
    start("t3", "explore");
    start("t4", "quick_task", "sonnet unavailable; using local/mock");
    assert.deepEqual(lines, [
      `xcsh: [t1] quick_task: ${windowNote}\n`,
      "xcsh: [t1] quick_task started on local/mock\n",
      "xcsh: [t2] quick_task started on local/mock\n",
      `xcsh: [t3] explore: ${windowNote}\n`,
      "xcsh: [t3] explore started on local/mock\n",
      "xcsh: [t4] quick_task: sonnet unavailable; using local/mock\n",
      "xcsh: [t4] quick_task started on local/mock\n",
    ]);
  });

  test("a retry shows its wait and cause", () => {
    const { p, lines } = plain();
    p.add("a", "task");
    p.event("a", {
      type: "retry",
      id: "a",
      attempt: 1,
      maxRetries: 3,
      delayMs: 900,
      reason: "Cannot connect to API: connect ECONNREFUSED 127.0.0.1:9",
    });
    assert.deepEqual(lines, [
      "xcsh: [a] retrying in 0.9 s: Cannot connect to API: connect ECONNREFUSED 127.0.0.1:9 (1/3)\n",
    ]);
  });

  test("an ending says the status only: the error is reported once, with the results", () => {
    const { p, lines } = plain();
    p.add("a", "task");
    p.finish({ id: "a", agent: "task", status: "cancelled", error: "cancelled" });
    p.add("b", "task");
    p.finish({ id: "b", agent: "task", status: "error", error: "model call failed: boom" });
    assert.equal(lines.length, 2);
    assert.match(lines[0], /^xcsh: \[a\] cancelled after \d+\.\ds\n$/);
    assert.match(lines[1], /^xcsh: \[b\] error after \d+\.\ds\n$/);
  });
});

describe("Progress (terminal)", () => {
  test("a fallback note stays above the live rows", () => {
    const out: string[] = [];
    const p = new Progress({ isTTY: true, write: (t) => out.push(t) });
    p.add("a", "explore");
    p.event("a", {
      type: "start",
      id: "a",
      agent: "explore",
      model: "ollama/q",
      depth: 1,
      note: "sonnet unavailable (ANTHROPIC_API_KEY not set); using ollama/q",
    });
    p.stop();
    const text = out.join("");
    assert.match(text, /xcsh: \[a\] explore: sonnet unavailable .*; using ollama\/q\n/);
    assert.match(text, /a .*running \(ollama\/q\)/);
  });

  test("each task shows its turns and tokens; one total line counts the run", () => {
    const out: string[] = [];
    const p = new Progress({ isTTY: true, write: (t) => out.push(t) });
    for (const id of ["a", "b", "c"]) p.add(id, "task");
    p.event("a", { type: "usage", id: "a", input: 1500, output: 500, cacheRead: 0, cacheWrite: 0 });
    p.event("a", { type: "tool_start", id: "a", callId: "1", tool: "grep", args: {} });
    p.event("b", { type: "waiting", id: "b", reason: "queued" });
    p.event("c", { type: "waiting", id: "c", reason: "rate_limit", provider: "openai", ms: 2000 });
    p.stop();
    const text = out.join("");
    assert.match(text, /a .*grep.*turn 1 · 2\.0k tokens/);
    assert.match(text, /b .*queued/);
    assert.match(text, /c .*waiting on openai's rate limit \(2\.0s\)/);
    assert.match(text, /0 done · 1 running · 1 queued · 1 waiting on a rate limit · 2\.0k tokens/);
  });
});

describe("Progress (plain lines) for waits", () => {
  test("a queued task and a rate-limit wait each say so", () => {
    const { p, lines } = plain();
    p.add("a", "task");
    p.event("a", { type: "waiting", id: "a", reason: "queued" });
    p.event("a", {
      type: "waiting",
      id: "a",
      reason: "rate_limit",
      provider: "anthropic",
      ms: 1500,
    });
    assert.deepEqual(lines, [
      "xcsh: [a] queued\n",
      "xcsh: [a] waiting on anthropic's rate limit (1.5s)\n",
    ]);
  });
});
