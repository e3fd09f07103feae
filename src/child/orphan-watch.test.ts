// The orphan watch with a real process tree: a shell (the parent) starts a
// process that makes the watch, starts a marked `sleep` in its own group
// (like a command) and a double-forked marked `sleep`, starts the watch,
// then blocks its main thread for good. Killing the shell with SIGKILL must
// end all three: the main thread never gets to notice. The watch may also be
// started only after the parent died (it was made before).

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { runtimeName } from "../runtime.ts";
import { isRunning } from "../process/process-tree.ts";

const MARK = "XCSH_TEST_ORPHAN_MARK";

/**
 * The process under watch: reports its pid and its commands' pids, starts
 * the watch (at once, or once its parent is gone: `late`), reports that,
 * then never yields.
 */
function busyScript(prefix: string, late: boolean): string {
  const watch = new URL("./orphan-watch.ts", import.meta.url).href;
  const mark = (n: number) => `{ ...process.env, ${JSON.stringify(MARK)}: "${prefix}${n}" }`;
  return `import process from "node:process";
import { spawn, spawnSync } from "node:child_process";
import { orphanWatch } from ${JSON.stringify(watch)};
const report = (o) => process.stdout.write(JSON.stringify(o) + "\\n");
const watch = orphanWatch({ graceMs: 200, mark: { name: "${MARK}", prefix: "${prefix}" } });
const parent = process.ppid;
const command = spawn("sleep", ["300"], { detached: true, stdio: "ignore", env: ${mark(1)} });
// A double fork: the sleep belongs to init at once, found only by its mark.
const escaped = Number(spawnSync("sh", ["-c", "(setsid sleep 300 >/dev/null 2>&1 & echo $!)"], {
  encoding: "utf8",
  env: ${mark(2)},
}).stdout.trim());
report({ self: process.pid, command: command.pid, escaped });
const busy = () => {
  report({ started: watch.start() && watch.start() });
  // Blocked for good: no timer, no pipe end, no signal handler runs again.
  setTimeout(() => { for (;;) {} }, 50);
};
if (${late}) {
  const t = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(t);
      busy();
    }
  }, 20);
} else busy();
`;
}

async function gone(pid: number, maxMs: number): Promise<boolean> {
  const until = Date.now() + maxMs;
  while (isRunning(pid) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  return !isRunning(pid);
}

for (const late of [false, true]) {
  const when = late ? "started after the parent died" : "started at once";
  test(`a watch ${when} ends a busy orphan and its commands`, {
    skip: process.platform !== "linux" ? "reads /proc" : false,
    timeout: 120_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "xcsh-orphan-"));
    const pids: number[] = [];
    try {
      const file = join(dir, "busy.ts");
      writeFileSync(file, busyScript(`t${process.pid}-${Date.now()}-`, late));
      const runtime = runtimeName() === "deno"
        ? `'${process.execPath}' run -A --no-check --no-config '${file}'`
        : `'${process.execPath}' '${file}'`;
      // The shell stays the parent: `wait` keeps it there.
      const parent = spawn("sh", ["-c", `${runtime} & wait`], {
        stdio: ["ignore", "pipe", "inherit"],
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir, DENO_DIR: join(dir, "deno") },
      });
      const lines: Record<string, unknown>[] = [];
      let out = "";
      let wake = () => {};
      parent.stdout.setEncoding("utf8").on("data", (d: string) => {
        out += d;
        for (let nl = out.indexOf("\n"); nl !== -1; nl = out.indexOf("\n")) {
          lines.push(JSON.parse(out.slice(0, nl)));
          out = out.slice(nl + 1);
        }
        wake();
      });
      const line = async (n: number) => {
        const until = Date.now() + 60_000;
        while (lines.length <= n && Date.now() < until) {
          await new Promise<void>((r) => {
            wake = r;
            setTimeout(r, 200);
          });
        }
        assert.ok(lines.length > n, `report ${n} came (stdout so far: ${JSON.stringify(lines)})`);
        return lines[n];
      };
      const report = await line(0) as { self: number; command: number; escaped: number };
      pids.push(report.self, report.command, report.escaped);
      for (const p of pids) assert.ok(isRunning(p), `${p} runs`);
      if (!late) {
        assert.deepEqual(await line(1), { started: true }, "the watch started");
        // Let the main thread enter its endless loop.
        await new Promise((r) => setTimeout(r, 300));
      }
      process.kill(parent.pid!, "SIGKILL");
      if (late) assert.deepEqual(await line(1), { started: true }, "the watch started");
      assert.ok(await gone(report.self, 30_000), "the orphan ended");
      assert.ok(await gone(report.command, 10_000), "its command ended");
      assert.ok(await gone(report.escaped, 10_000), "the command's double-forked process ended");
    } finally {
      for (const p of pids) {
        try {
          process.kill(p, "SIGKILL");
        } catch {
          // gone
        }
      }
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
