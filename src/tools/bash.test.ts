import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { sandbox } from "../../tests/support/tool-context.ts";
import { bashTool, capOutput } from "./bash.ts";

/** Pids whose command line contains `marker` (Linux /proc; empty elsewhere). */
function processesWith(marker: string): string[] {
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((p) => /^\d+$/.test(p));
  } catch {
    return [];
  }
  return pids.filter((p) => {
    try {
      return readFileSync(`/proc/${p}/cmdline`, "utf8").includes(marker);
    } catch {
      return false;
    }
  });
}

describe("bash", () => {
  const sb = sandbox({ "f.txt": "content\n" });
  after(() => sb.remove());

  test("runs in the working directory and reports the exit code", async () => {
    const r = await bashTool.run({ command: "cat f.txt; echo err >&2; pwd" }, sb.ctx);
    assert.ok(r.ok);
    assert.match(r.output, /^content\nerr\n.*\n\[exit code 0\]$/);
    const fail = await bashTool.run({ command: "exit 3" }, sb.ctx);
    assert.deepEqual(fail, {
      ok: false,
      output: "(no output)\n[exit code 3]",
      summary: "exit code 3",
    });
  });

  test("a timeout kills the whole process group", async () => {
    const r = await bashTool.run(
      { command: "sleep 41.75 & sleep 41.75; echo never", timeout: 0.3 },
      sb.ctx,
    );
    assert.equal(r.ok, false);
    assert.match(r.output, /timed out after 0.3 s/);
    assert.deepEqual(processesWith("41.75"), []);
  });

  test("background processes left behind are ended with the command", async () => {
    const r = await bashTool.run({ command: "(sleep 42.25 &) ; echo done" }, sb.ctx);
    assert.ok(r.ok);
    assert.deepEqual(processesWith("42.25"), []);
  });

  test("an abort kills the command", async () => {
    const ac = new AbortController();
    const ctx = { ...sb.ctx, signal: ac.signal };
    const p = bashTool.run({ command: "sleep 43.5" }, ctx);
    setTimeout(() => ac.abort(), 100);
    const r = await p;
    assert.equal(r.ok, false);
    assert.match(r.output, /cancelled/);
    assert.deepEqual(processesWith("43.5"), []);
  });

  test("the environment is the one given (no provider keys)", async () => {
    const r = await bashTool.run({ command: 'echo "[$ANTHROPIC_API_KEY]"' }, sb.ctx);
    assert.match(r.output, /^\[\]\n/);
  });

  test("long output keeps head and tail", () => {
    const text = "a".repeat(10) + "b".repeat(100) + "c".repeat(10);
    assert.equal(
      capOutput(text, 10, 10),
      "a".repeat(10) + "\n[… 100 characters cut …]\n" + "c".repeat(10),
    );
    assert.equal(capOutput("short", 10, 10), "short");
  });
});
