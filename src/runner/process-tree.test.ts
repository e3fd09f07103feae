import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import process from "node:process";
import { killMarked, killTree, listDescendants, listMarked } from "./process-tree.ts";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

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
  while (alive(grandchild) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  assert.equal(alive(grandchild), false, "the grandchild is gone");
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
  assert.ok(alive(orphan), "the orphan outlived its shell");
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
  while (alive(orphan) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  assert.equal(alive(orphan), false, "the orphan is gone");
});
