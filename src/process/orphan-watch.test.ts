// The orphan watch with a real process tree: a shell (the parent) starts a
// process that starts the watch and a marked `sleep` in its own group (like
// a command) and a double-forked marked `sleep`, then blocks its main thread for good. Killing the shell with
// SIGKILL must end all three: the main thread never gets to notice.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { runtimeName } from "../runtime.ts";
import { isRunning } from "./process-tree.ts";

const MARK = "XCSH_TEST_ORPHAN_MARK";

/** The process under watch: prints its pid and its command's, then never yields. */
function busyScript(prefix: string): string {
  const watch = new URL("./orphan-watch.ts", import.meta.url).href;
  return `import process from "node:process";
import { spawn, spawnSync } from "node:child_process";
import { startOrphanWatch } from ${JSON.stringify(watch)};
const started = startOrphanWatch({ graceMs: 200, mark: { name: ${JSON.stringify(MARK)}, prefix: ${
    JSON.stringify(prefix)
  } } });
const command = spawn("sleep", ["300"], {
  detached: true,
  stdio: "ignore",
  env: { ...process.env, ${JSON.stringify(MARK)}: ${JSON.stringify(prefix)} + "1" },
});
// A double fork: the sleep belongs to init at once, found only by its mark.
const escaped = Number(spawnSync("sh", ["-c", "(setsid sleep 300 >/dev/null 2>&1 & echo $!)"], {
  encoding: "utf8",
  env: { ...process.env, ${JSON.stringify(MARK)}: ${JSON.stringify(prefix)} + "2" },
}).stdout.trim());
process.stdout.write(
  JSON.stringify({ started, self: process.pid, command: command.pid, escaped }) + "\\n",
);
// Blocked for good: no timer, no pipe end, no signal handler runs again.
setTimeout(() => { for (;;) {} }, 50);
`;
}

async function gone(pid: number, maxMs: number): Promise<boolean> {
  const until = Date.now() + maxMs;
  while (isRunning(pid) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  return !isRunning(pid);
}

test("a process whose parent is killed ends with its command while its main thread is busy", {
  skip: process.platform !== "linux" ? "reads /proc" : false,
  timeout: 120_000,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), "xcsh-orphan-"));
  const pids: number[] = [];
  try {
    const file = join(dir, "busy.ts");
    const prefix = `t${process.pid}-${Date.now()}-`;
    writeFileSync(file, busyScript(prefix));
    const runtime = runtimeName() === "deno"
      ? `'${process.execPath}' run -A --no-check --no-config '${file}'`
      : `'${process.execPath}' '${file}'`;
    // The shell stays the parent: `wait` keeps it there.
    const parent = spawn("sh", ["-c", `${runtime} & wait`], {
      stdio: ["ignore", "pipe", "inherit"],
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir, DENO_DIR: join(dir, "deno") },
    });
    const report = await new Promise<
      { started: boolean; self: number; command: number; escaped: number }
    >(
      (resolve, reject) => {
        let out = "";
        parent.stdout.setEncoding("utf8").on("data", (d: string) => {
          out += d;
          if (out.includes("\n")) resolve(JSON.parse(out.slice(0, out.indexOf("\n"))));
        });
        parent.once("exit", () => reject(new Error(`the parent ended first: ${out}`)));
      },
    );
    pids.push(report.self, report.command, report.escaped);
    assert.equal(report.started, true, "the watch started");
    for (const p of pids) assert.ok(isRunning(p), `${p} runs`);
    // Let the main thread enter its endless loop, then kill the parent.
    await new Promise((r) => setTimeout(r, 300));
    process.kill(parent.pid!, "SIGKILL");
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
