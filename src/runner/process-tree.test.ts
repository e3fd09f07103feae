import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import process from "node:process";
import { killTree, listDescendants } from "./process-tree.ts";

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
