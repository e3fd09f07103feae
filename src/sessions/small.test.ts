// Unit tests of the small session modules: ids, the data folder,
// liveness, the lock file and pruning.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { isValidId, newId } from "./ids.ts";
import { dataDirectory } from "./paths.ts";
import { isProcessAlive, processStartMark } from "./liveness.ts";
import { acquireLock, lockHolder } from "./lock.ts";
import { isExpired, pruneSessions } from "./prune.ts";

/** A pid that no process has (above the kernel's usual pid_max). */
const DEAD_PID = 4_194_000;

describe("ids", () => {
  test("time-sorted, unique, valid", () => {
    const a = newId(new Date("2026-01-02T03:04:05Z"));
    assert.match(a, /^20260102-030405-[0-9a-f]{6}$/);
    assert.notEqual(newId(), newId());
    assert.ok(isValidId(a));
  });
  for (const bad of ["", "../x", "a/b", "a..b", "-x", "x".repeat(81), "a b"]) {
    test(`'${bad.slice(0, 12)}' is not an id`, () => assert.equal(isValidId(bad), false));
  }
});

describe("dataDirectory", () => {
  test("XCSH_DATA_DIR, then XDG_DATA_HOME/xcsh, then ~/.local/share/xcsh, else none", () => {
    assert.equal(dataDirectory({ XCSH_DATA_DIR: "/d", XDG_DATA_HOME: "/x" }, "/h"), "/d");
    assert.equal(dataDirectory({ XDG_DATA_HOME: "/x" }, "/h"), "/x/xcsh");
    assert.equal(dataDirectory({ XDG_DATA_HOME: "relative" }, "/h"), "/h/.local/share/xcsh");
    assert.equal(dataDirectory({}, "/h"), "/h/.local/share/xcsh");
    assert.equal(dataDirectory({}, ""), "");
  });
});

describe("liveness", () => {
  test("this process is alive with its own mark, not with another", () => {
    const mark = processStartMark(process.pid);
    assert.ok(isProcessAlive(process.pid, mark));
    if (mark !== "") assert.equal(isProcessAlive(process.pid, mark + "1"), false);
    assert.equal(isProcessAlive(DEAD_PID), false);
    assert.equal(isProcessAlive(0), false);
  });
});

describe("lock", () => {
  test("held once; a second take is refused naming the pid; release frees it", () => {
    const dir = mkdtempSync(join(tmpdir(), "xcsh-lock-"));
    try {
      const file = join(dir, "S.lock");
      const first = acquireLock(file, "session S");
      assert.ok(first.ok);
      const second = acquireLock(file, "session S");
      assert.equal(second.ok, false);
      if (!second.ok) assert.equal(second.message, `session S is in use by process ${process.pid}`);
      assert.equal(lockHolder(file), process.pid);
      if (first.ok) first.release();
      assert.equal(existsSync(file), false);
      assert.ok(acquireLock(file).ok);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a stale lock (its process gone) or a garbled one is taken over", () => {
    const dir = mkdtempSync(join(tmpdir(), "xcsh-lock-"));
    try {
      const file = join(dir, "S.lock");
      writeFileSync(file, JSON.stringify({ pid: DEAD_PID, mark: "1" }));
      assert.equal(lockHolder(file), undefined);
      assert.ok(acquireLock(file).ok);
      writeFileSync(file, "garbage");
      assert.ok(acquireLock(file).ok);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("prune", () => {
  test("isExpired counts whole days", () => {
    const day = 86_400_000;
    assert.equal(isExpired(0, 30 * day, 30), false);
    assert.equal(isExpired(0, 30 * day + 1, 30), true);
  });

  test("removes old sessions, keeps recent and locked ones", () => {
    const dir = mkdtempSync(join(tmpdir(), "xcsh-prune-"));
    try {
      const old = new Date(Date.now() - 40 * 86_400_000);
      for (const id of ["old", "locked", "new"]) writeFileSync(join(dir, `${id}.jsonl`), "{}\n");
      utimesSync(join(dir, "old.jsonl"), old, old);
      utimesSync(join(dir, "locked.jsonl"), old, old);
      const held = acquireLock(join(dir, "locked.lock"));
      assert.equal(pruneSessions(dir, 30), 1);
      assert.equal(existsSync(join(dir, "old.jsonl")), false);
      assert.ok(existsSync(join(dir, "locked.jsonl")));
      assert.ok(existsSync(join(dir, "new.jsonl")));
      if (held.ok) held.release();
      assert.equal(pruneSessions(join(dir, "missing"), 30), 0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
