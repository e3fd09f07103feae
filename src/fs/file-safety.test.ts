import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { closeSync, ftruncateSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ownershipProblem, parseJsonFile, readCapped, readCappedSync } from "./file-safety.ts";

const dir = mkdtempSync(join(tmpdir(), "xcsh-safety-"));
after(() => rmSync(dir, { recursive: true, force: true }));

test("ownership: another user's file, or one others may write, is a problem", () => {
  assert.equal(ownershipProblem({ uid: 7, mode: 0o100644 }, 7), undefined);
  assert.equal(ownershipProblem({ uid: 8, mode: 0o100644 }, 7), "owned by another user (uid 8)");
  assert.equal(ownershipProblem({ uid: 0, mode: 0o100644 }, 7), undefined, "root's own");
  assert.equal(ownershipProblem({ uid: 0, mode: 0o100666 }, 7), "writable by every user");
  assert.equal(ownershipProblem({ uid: 7, mode: 0o100646 }, 7), "writable by every user");
  assert.equal(ownershipProblem({ uid: 7, mode: 0o100664 }, 7), "writable by its group");
  assert.equal(ownershipProblem({ uid: 7, mode: 0o41777 }, 7), undefined, "sticky like /tmp");
});

test("ownership: group write in the user's private group (umask 002) is the user's own", () => {
  const g = (gid: number) => ({ uid: 1000, gid, mode: 0o40775 });
  assert.equal(ownershipProblem(g(1000), 1000, 1000), undefined, "1000:1000, primary group");
  assert.equal(ownershipProblem(g(100), 1000, 100), "writable by its group", "shared 'users'");
  assert.equal(ownershipProblem(g(1001), 1000, 1000), "writable by its group", "another group");
  assert.equal(
    ownershipProblem({ uid: 1000, gid: 1000, mode: 0o40777 }, 1000, 1000),
    "writable by every user",
  );
});

test("a huge sparse file is refused from its size, without reading it", () => {
  const path = join(dir, "sparse");
  const fd = openSync(path, "w");
  ftruncateSync(fd, 2 * 1024 * 1024 * 1024);
  closeSync(fd);
  const r = readCappedSync(path, 1024 * 1024);
  assert.ok(!r.ok);
  assert.equal(r.reason, "file is 2048.0 MiB, over the 1.0 MiB limit");
});

test("a small file is read whole; a FIFO is refused without waiting", () => {
  const path = join(dir, "small");
  writeFileSync(path, "task: {}\n");
  const r = readCappedSync(path, 100);
  assert.ok(r.ok);
  assert.equal(r.bytes.toString(), "task: {}\n");
  const fifo = join(dir, "fifo");
  assert.equal(spawnSync("mkfifo", [fifo]).status, 0);
  const f = readCappedSync(fifo, 100);
  assert.ok(!f.ok);
  assert.equal(f.reason, "cannot be read: not a regular file");
});

test("the asynchronous read follows the same rules", async () => {
  const path = join(dir, "async-small");
  writeFileSync(path, "{}");
  const ok = await readCapped(path, 10);
  assert.ok(ok.ok);
  assert.equal(ok.bytes.toString(), "{}");
  const big = await readCapped(path, 1);
  assert.ok(!big.ok);
  assert.equal(big.code, "EFBIG");
  const fifo = join(dir, "async-fifo");
  assert.equal(spawnSync("mkfifo", [fifo]).status, 0);
  const f = await readCapped(fifo, 100);
  assert.ok(!f.ok);
  assert.equal(f.code, "ENOTREG");
  const none = await readCapped(join(dir, "none"), 100);
  assert.ok(!none.ok);
  assert.equal(none.code, "ENOENT");
});

test("a JSON syntax error never quotes the text (it may be a token linked there)", () => {
  assert.deepEqual(parseJsonFile('{"a": [1]}'), { ok: true, value: { a: [1] } });
  for (
    const text of ["ghp_SECRETtoken0123456789", "OPENAI_API_KEY=sk-SECRET", '{"a": sk-SECRET}']
  ) {
    const r = parseJsonFile(text);
    assert.deepEqual(r, { ok: false, reason: "not valid JSON" });
  }
});
