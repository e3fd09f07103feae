// End to end: a child that model output could keep busy for good. A
// `Bash(…)` rule reads a command holding a carriage return, a vertical tab,
// a form feed or a Unicode space (the rule's reader once looped forever on
// them, eating memory, in a child that outlived its parent); and a child
// whose main thread is stuck in a long search (a pattern that backtracks on
// every line of a file) ends anyway when its parent is killed. Through the built binary
// against the scripted model server (OpenAI wire format).
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { runXcsh, XCSH } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import {
  agentMd,
  childPids,
  isAfterTool,
  processesIn,
  toolResults,
  waitForNoProcessesIn,
  type World,
} from "../support/world.ts";

const harness = modelHarness({ respond: () => ({ text: "unexpected" }) });
const { server, respond } = harness;

/** Ends whatever a failed test left running in `w` (a looping child eats memory). */
function killLeftovers(w: World): void {
  for (const pid of processesIn(w.root)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone
    }
  }
}

const LINUX = process.platform === "linux" ? false : "reads /proc";

describe("Bash(…) rules and unusual whitespace", () => {
  test("commands with \\r, \\v, \\f and Unicode spaces are read, refused, and the task ends", {
    skip: LINUX,
  }, async () => {
    const w = harness.world({ agents: { lsonly: agentMd("lsonly", "tools: Read, Bash(ls:*)\n") } });
    const commands = [
      "ls\r",
      "ls\u2028-la",
      "ls\u000b",
      "ls\f",
      "ls\u00a0-la",
      "ls\r\ntouch pwned1",
      "ls\u2029; touch pwned2",
      "ls -d .",
    ];
    server.script([]);
    server.requests.length = 0;
    respond((req) =>
      isAfterTool(req)
        ? { text: `saw: ${toolResults(req)}` }
        : { toolCalls: commands.map((command) => ({ name: "bash", args: { command } })) }
    );
    try {
      const r = await runXcsh(["run", "lsonly", "list"], {
        cwd: w.cwd,
        home: w.home,
        killAfterMs: 60_000,
      });
      assert.equal(r.signal, null, "the run ended on its own");
      assert.equal(r.code, 0, r.stderr);
      const seen = toolResults(server.requests.at(-1)!);
      // A carriage return or a Unicode space is part of the word, as in the
      // shell: `ls\r` is another command, which the rule does not allow.
      for (const c of commands.slice(0, 5)) {
        assert.ok(seen.includes(`'${c}' is not allowed`), `${JSON.stringify(c)}: ${seen}`);
      }
      // The first command of a line that is not allowed is the one named.
      assert.equal(seen.split("'ls\r' is not allowed").length, 3, seen);
      assert.ok(seen.includes("'ls\u2029' is not allowed"), seen);
      assert.match(seen, /\n\.\n\[exit code 0\]$/, "the allowed command ran");
      for (const f of ["pwned1", "pwned2"]) assert.ok(!existsSync(join(w.cwd, f)), f);
      assert.deepEqual(await waitForNoProcessesIn(w.root), []);
    } finally {
      killLeftovers(w);
    }
  });
  test("under a deny rule such a command is read and runs as the shell reads it", {
    skip: LINUX,
  }, async () => {
    const w = harness.world({
      agents: { careful: agentMd("careful", "tools: Read, Bash\ndisallowedTools: Bash(rm:*)\n") },
    });
    writeFileSync(join(w.cwd, "keep.txt"), "keep\n");
    server.script([]);
    server.requests.length = 0;
    respond((req) =>
      isAfterTool(req) ? { text: `saw: ${toolResults(req)}` } : {
        toolCalls: [
          { name: "bash", args: { command: "echo\u00a0one\r" } },
          { name: "bash", args: { command: "echo two\u2028; rm keep.txt" } },
        ],
      }
    );
    try {
      const r = await runXcsh(["run", "careful", "try"], {
        cwd: w.cwd,
        home: w.home,
        killAfterMs: 60_000,
      });
      assert.equal(r.signal, null, "the run ended on its own");
      assert.equal(r.code, 0, r.stderr);
      const seen = toolResults(server.requests.at(-1)!);
      // `echo<NBSP>one<CR>` is one word: a command the shell does not find.
      assert.match(seen, /not found/);
      assert.match(seen, /'rm keep.txt' is refused by Bash\(rm:\*\)/);
      assert.equal(readFileSync(join(w.cwd, "keep.txt"), "utf8"), "keep\n");
    } finally {
      killLeftovers(w);
    }
  });
});

/** Clock ticks of CPU `pid` has used (utime + stime), or undefined once it is gone. */
function cpuTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(f[11]) + Number(f[12]);
  } catch {
    return undefined;
  }
}

describe("a child busy for good", () => {
  test("SIGKILL to xcsh run while its child is stuck in a search: the child ends", {
    skip: LINUX,
    timeout: 120_000,
  }, async () => {
    const w = harness.world({ agents: { finder: agentMd("finder", "tools: Read, Grep\n") } });
    // A file the model searches with a pattern that backtracks on every line
    // until the engine gives up on it (JavaScriptCore stops after about a
    // second): minutes of one synchronous search.
    writeFileSync(join(w.cwd, "trap.txt"), ("a".repeat(32) + "!\n").repeat(400));
    server.script([]);
    server.requests.length = 0;
    respond((req) =>
      isAfterTool(req)
        ? { text: "done" }
        : { toolCalls: [{ name: "grep", args: { pattern: "^(a+)+$", path: "trap.txt" } }] }
    );
    const run = spawn(XCSH, ["run", "finder", "search"], {
      cwd: w.cwd,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: w.home },
      stdio: ["ignore", "ignore", "ignore"],
    });
    const closed = new Promise((resolve) => run.on("close", resolve));
    try {
      let until = Date.now() + 30_000;
      while (server.requests.length < 1 && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 25));
      }
      assert.equal(server.requests.length, 1, "the child asked the model");
      const [child] = childPids(w.root);
      assert.ok(child, "the child runs");
      // Wait until the child has computed for half a second: it is in the search.
      const start = cpuTicks(child) ?? 0;
      until = Date.now() + 30_000;
      while ((cpuTicks(child) ?? 0) - start < 50 && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.ok((cpuTicks(child) ?? 0) - start >= 50, "the child is busy");
      process.kill(run.pid!, "SIGKILL");
      await closed;
      assert.deepEqual(await waitForNoProcessesIn(w.root, 30_000), [], "the child ended");
    } finally {
      killLeftovers(w);
    }
  });
});
