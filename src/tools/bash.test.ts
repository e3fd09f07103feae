import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import process from "node:process";
import { sandbox } from "../../tests/support/tool-context.ts";
import { BASH_HEAD_BYTES, BASH_TAIL_BYTES, bashTool, capOutput, OutputCollector } from "./bash.ts";
import { isRunning } from "../process/process-tree.ts";

/** Pids whose command line contains `marker` (Linux /proc; empty elsewhere). */
/**
 * Processes still running with `marker` on their command line, after waiting
 * (bounded) for signalled ones to finish dying: the kill is sent when the
 * tool returns, the exit follows a moment later.
 */
async function survivorsOf(marker: string): Promise<string[]> {
  const until = Date.now() + 5000;
  while (processesWith(marker).length > 0 && Date.now() < until) {
    await new Promise((res) => setTimeout(res, 20));
  }
  return processesWith(marker);
}

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

const hasSetsid = ["/usr/bin/setsid", "/bin/setsid", "/usr/local/bin/setsid"].some(existsSync);

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
    assert.deepEqual(await survivorsOf("41.75"), []);
  });

  test("a timeout also kills a process started under setsid", {
    skip: hasSetsid ? false : "no setsid",
    timeout: 20_000,
  }, async () => {
    const r = await bashTool.run(
      { command: "setsid sleep 300 >/dev/null 2>&1 & echo $!; sleep 100", timeout: 1 },
      sb.ctx,
    );
    assert.equal(r.ok, false);
    assert.equal(r.summary, "timed out after 1 s");
    const pid = Number(r.output.split("\n")[0]);
    assert.ok(Number.isInteger(pid) && pid > 0, `a pid was printed: ${r.output}`);
    const until = Date.now() + 5000;
    while (isRunning(pid) && Date.now() < until) await new Promise((res) => setTimeout(res, 20));
    const survived = isRunning(pid);
    if (survived) process.kill(pid, "SIGKILL"); // leave nothing behind when failing
    assert.equal(survived, false, `the setsid'd process ${pid} is gone`);
  });

  test("background processes left behind are ended with the command", async () => {
    const r = await bashTool.run({ command: "(sleep 42.25 &) ; echo done" }, sb.ctx);
    assert.ok(r.ok);
    assert.deepEqual(await survivorsOf("42.25"), []);
  });

  test("a double fork under setsid ends with the command", {
    skip: hasSetsid ? false : "no setsid",
    timeout: 20_000,
  }, async () => {
    // The subshell exits at once: the sleep belongs to init, outside any tree or group.
    const r = await bashTool.run(
      { command: "(setsid sleep 44.125 >/dev/null 2>&1 &); echo done" },
      sb.ctx,
    );
    assert.ok(r.ok);
    const left = await survivorsOf("44.125");
    for (const p of left) process.kill(Number(p), "SIGKILL");
    assert.deepEqual(left, []);
  });

  test("a double fork under setsid ends when the command is aborted", {
    skip: hasSetsid ? false : "no setsid",
    timeout: 20_000,
  }, async () => {
    const ac = new AbortController();
    const p = bashTool.run(
      { command: "(setsid sleep 44.375 >/dev/null 2>&1 &); sleep 100" },
      { ...sb.ctx, signal: ac.signal },
    );
    const until = Date.now() + 5000;
    while (processesWith("44.375").length === 0 && Date.now() < until) {
      await new Promise((res) => setTimeout(res, 20));
    }
    ac.abort();
    const r = await p;
    const left = await survivorsOf("44.375");
    for (const q of left) process.kill(Number(q), "SIGKILL");
    assert.equal(r.output, "Error: cancelled");
    assert.deepEqual(left, []);
  });

  test("an abort kills the command", async () => {
    const ac = new AbortController();
    const ctx = { ...sb.ctx, signal: ac.signal };
    const p = bashTool.run({ command: "sleep 43.5" }, ctx);
    setTimeout(() => ac.abort(), 100);
    const r = await p;
    assert.equal(r.ok, false);
    assert.match(r.output, /cancelled/);
    assert.deepEqual(await survivorsOf("43.5"), []);
  });

  test("the environment is the one given (no provider keys)", async () => {
    const r = await bashTool.run({ command: 'echo "[$ANTHROPIC_API_KEY]"' }, sb.ctx);
    assert.match(r.output, /^\[\]\n/);
  });

  test("multi-byte characters split across output chunks stay whole", async () => {
    // 2-byte then 3-byte characters, written in three parts with pauses in
    // between so that each part arrives as its own chunk: byte 3001 is in the
    // middle of an "é", byte 7001 in the middle of a "€".
    const text = "é".repeat(3000) + "€".repeat(3000);
    sb.put({ "utf8.txt": text });
    const command = "head -c 3001 utf8.txt; sleep 0.2; head -c 7001 utf8.txt | tail -c +3002; " +
      "sleep 0.2; tail -c +7002 utf8.txt";
    const r = await bashTool.run({ command }, sb.ctx);
    assert.ok(r.ok);
    assert.ok(!r.output.includes("\uFFFD"), "no replacement character");
    assert.equal(r.output, `${text}\n[exit code 0]`);
  });

  test("the cut notice counts every character removed, over repeated caps", async () => {
    // 1 000 000 characters: the collector trims several times while it runs.
    const total = 1_000_000;
    const r = await bashTool.run({ command: `yes abcdefghi | head -c ${total}` }, sb.ctx);
    assert.ok(r.ok);
    const cut = total - BASH_HEAD_BYTES - BASH_TAIL_BYTES;
    const m = r.output.match(/\n\[… (\d+) characters cut …\]\n/);
    assert.ok(m, "a cut notice");
    assert.equal(Number(m[1]), cut);
    assert.equal(r.output.indexOf(m[0]), BASH_HEAD_BYTES);
    // The tail's last newline is trimmed before the exit code line.
    assert.equal(
      r.output.length,
      BASH_HEAD_BYTES + m[0].length + BASH_TAIL_BYTES - 1 +
        "\n[exit code 0]".length,
    );
  });

  test("the collector keeps a running total of what it cut", () => {
    const c = new OutputCollector(4, 6);
    let all = "";
    for (let i = 0; i < 1000; i++) {
      const chunk = String(i % 10).repeat(7);
      c.push(chunk);
      all += chunk;
    }
    assert.equal(c.text(), capOutput(all, 4, 6));
    assert.equal(c.text(), `0000\n[… ${7000 - 10} characters cut …]\n999999`);
  });

  test("with keepAll, the whole output is kept while it fits, and only when something was cut", () => {
    const c = new OutputCollector(4, 6, 100);
    c.push("short");
    assert.equal(c.whole(), undefined, "nothing cut: nothing kept besides the text");
    c.push("x".repeat(50));
    assert.equal(c.whole(), "short" + "x".repeat(50));
    c.push("y".repeat(50));
    assert.equal(c.whole(), undefined, "over keepAll: head and tail only");
    assert.equal(new OutputCollector(4, 6).whole(), undefined);
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
