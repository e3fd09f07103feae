// Reserving sessions for new tasks: a private folder made once, a lock per
// session released when the task ends, and a folder removed while the
// process runs made again.

import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SessionKeeper } from "./task-session.ts";

const root = mkdtempSync(join(tmpdir(), "xcsh-keeper-"));
after(() => rmSync(root, { recursive: true, force: true }));

function keeper(name: string, warnings: string[] = []): SessionKeeper {
  return new SessionKeeper(join(root, name), 30, [], (m) => warnings.push(m));
}

describe("SessionKeeper.reserve", () => {
  test("each task gets its own session and lock, in a private folder", () => {
    const k = keeper("one");
    const a = k.reserve();
    const b = k.reserve();
    assert.ok(a && b);
    assert.notEqual(a.id, b.id);
    assert.equal(statSync(k.dir).mode & 0o777, 0o700);
    const locks = readdirSync(k.dir).filter((n) => n.endsWith(".lock")).sort();
    assert.deepEqual(locks, [`${a.id}.lock`, `${b.id}.lock`].sort());
    a.release();
    a.release(); // twice is once
    assert.ok(!existsSync(join(k.dir, `${a.id}.lock`)));
    assert.ok(existsSync(join(k.dir, `${b.id}.lock`)));
    b.release();
  });

  test("a lock removed by someone else is no error when the task ends", () => {
    const k = keeper("gone-lock");
    const a = k.reserve();
    assert.ok(a);
    rmSync(join(k.dir, `${a.id}.lock`));
    assert.doesNotThrow(() => a.release());
  });

  test("a sessions folder removed while the process runs is made again", () => {
    const warnings: string[] = [];
    const k = keeper("removed", warnings);
    k.reserve()?.release();
    rmSync(k.dir, { recursive: true });
    const again = k.reserve();
    assert.ok(again, "a session after the folder went away");
    assert.ok(existsSync(join(k.dir, `${again.id}.lock`)));
    assert.deepEqual(warnings, []);
    again.release();
  });

  test("a data folder that cannot be written: one warning, no session", () => {
    const warnings: string[] = [];
    writeFileSync(join(root, "a-file"), "");
    const k = keeper("a-file", warnings);
    assert.equal(k.reserve(), undefined);
    assert.equal(k.reserve(), undefined);
    assert.equal(warnings.length, 1, warnings.join("\n"));
    assert.match(warnings[0], /sessions are not kept: cannot write .*a-file/);
  });
});
