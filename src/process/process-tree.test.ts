import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import process from "node:process";
import { isRunning, killMarked, killTree, listDescendants, listMarked } from "./process-tree.ts";

test("killTree ends a process, its detached grandchild and their groups", {
  skip: process.platform === "win32" ? "Unix process groups" : false,
}, async () => {
  // sh starts a grandchild in a new session (its own group), prints its pid, then waits.
  const sh = spawn("sh", ["-c", "setsid sleep 30 & echo $!; wait"], {
    detached: true,
    stdio: ["ignore", "pipe", "ignore"],
  });
  const grandchild = await new Promise<number>((resolve) =>
    sh.stdout.setEncoding("utf8").once("data", (d: string) => resolve(Number(d.trim())))
  );
  const closed = new Promise((resolve) => sh.on("close", resolve));
  assert.ok(listDescendants(sh.pid!).includes(grandchild), "the grandchild is found");
  killTree(sh.pid!, "SIGKILL");
  await closed;
  const until = Date.now() + 5000;
  while (isRunning(grandchild) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  assert.equal(isRunning(grandchild), false, "the grandchild is gone");
});

test("killMarked ends a double-forked orphan by the mark in its environment", {
  skip: process.platform !== "linux" ? "reads /proc" : false,
}, async () => {
  const mark = `t${process.pid}-${Date.now()}`;
  // The subshell exits at once, so the sleep belongs to init, outside any tree.
  const sh = spawn("sh", ["-c", "(setsid sleep 30 & echo $!)"], {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", XCSH_TEST_MARK: mark },
    stdio: ["ignore", "pipe", "ignore"],
  });
  const orphan = await new Promise<number>((resolve) =>
    sh.stdout.setEncoding("utf8").once("data", (d: string) => resolve(Number(d.trim())))
  );
  // The orphan holds the pipe open, so wait for the shell's exit, not the pipe's close.
  await new Promise((resolve) => sh.exitCode !== null ? resolve(0) : sh.on("exit", resolve));
  assert.ok(isRunning(orphan), "the orphan outlived its shell");
  // While the orphan is still in its exec, its environment may read empty for a moment.
  const found = Date.now() + 5000;
  while (!listMarked("XCSH_TEST_MARK", mark).includes(orphan) && Date.now() < found) {
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.deepEqual(listMarked("XCSH_TEST_MARK", mark), [orphan]);
  assert.deepEqual(listMarked("XCSH_TEST_MARK", mark + "x"), [], "the whole value must match");
  assert.deepEqual(listMarked("TEST_MARK", mark), [], "the whole name must match");
  killMarked("XCSH_TEST_MARK", mark, "SIGKILL");
  const until = Date.now() + 5000;
  while (isRunning(orphan) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  assert.equal(isRunning(orphan), false, "the orphan is gone");
});

test("isRunning: a zombie (ended, not yet reaped) counts as gone", {
  skip: process.platform !== "linux" ? "reads /proc" : false,
}, async () => {
  // `sleep 0` ends at once, but its parent has become `sleep 2`, which never
  // reaps it: it stays a zombie until that parent ends.
  const sh = spawn("sh", ["-c", "sleep 0 & echo $!; exec sleep 2"], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  const zombie = await new Promise<number>((resolve) =>
    sh.stdout.setEncoding("utf8").once("data", (d: string) => resolve(Number(d.trim())))
  );
  const until = Date.now() + 1500;
  while (isRunning(zombie) && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  let signalled = true;
  try {
    process.kill(zombie, 0);
  } catch {
    signalled = false;
  }
  assert.equal(signalled, true, "the zombie still answers kill(pid, 0)");
  assert.equal(isRunning(zombie), false);
  assert.equal(isRunning(process.pid), true);
  sh.kill("SIGKILL");
});
