// The file in which successful bubblewrap probes are remembered between runs.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { MAX_REMEMBERED, parseRemembered, probeMemory } from "./probe-memory.ts";

const base = mkdtempSync(join(tmpdir(), "xcsh-probe-memory-"));
after(() => rmSync(base, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(base, `cache-${++n}`);
const unix = process.platform !== "win32";

describe("probeMemory", () => {
  test("remembered in one process, known in the next; the file is private", () => {
    const dir = fresh();
    assert.equal(probeMemory(dir).knows("a"), false);
    probeMemory(dir).remember("a");
    const later = probeMemory(dir);
    assert.equal(later.knows("a"), true);
    assert.equal(later.knows("b"), false);
    if (unix) {
      assert.equal(statSync(join(dir, "sandbox-probe.json")).mode & 0o777, 0o600);
      assert.equal(statSync(dir).mode & 0o777, 0o700);
    }
  });

  test("keeps the latest MAX_REMEMBERED fingerprints", () => {
    const dir = fresh();
    const m = probeMemory(dir);
    for (let i = 0; i <= MAX_REMEMBERED; i++) m.remember(`f${i}`);
    const later = probeMemory(dir);
    assert.equal(later.knows(`f${MAX_REMEMBERED}`), true);
    assert.equal(later.knows("f0"), false, "the oldest is dropped");
  });

  test("no folder: nothing is remembered or written", () => {
    const m = probeMemory(undefined);
    m.remember("a");
    assert.equal(m.knows("a"), false);
  });

  test("a file others could have written is not believed", {
    skip: unix ? false : "file modes are POSIX",
  }, () => {
    const open = fresh();
    probeMemory(open).remember("a");
    chmodSync(join(open, "sandbox-probe.json"), 0o666);
    assert.equal(probeMemory(open).knows("a"), false, "the file is writable by everyone");
    const shared = fresh();
    probeMemory(shared).remember("a");
    chmodSync(shared, 0o777);
    assert.equal(probeMemory(shared).knows("a"), false, "the folder is writable by everyone");
  });

  test("a broken or foreign file counts as nothing remembered, and is replaced", () => {
    const dir = fresh();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, "sandbox-probe.json");
    for (const text of ["{", "null", '{"version":2,"ok":["a"]}', '{"version":1,"ok":"a"}']) {
      writeFileSync(file, text, { mode: 0o600 });
      assert.equal(probeMemory(dir).knows("a"), false, text);
    }
    probeMemory(dir).remember("b");
    assert.deepEqual(JSON.parse(readFileSync(file, "utf8")), { version: 1, ok: ["b"] });
  });

  test("a folder that cannot be written: no error, nothing remembered", () => {
    const dir = join(fresh(), "file-in-the-way");
    writeFileSync(join(base, `cache-${n}`), "not a folder");
    probeMemory(dir).remember("a");
    assert.equal(probeMemory(dir).knows("a"), false);
  });
});

test("parseRemembered keeps only strings of a version-1 file", () => {
  assert.deepEqual(parseRemembered('{"version":1,"ok":["a",2,"b"]}'), ["a", "b"]);
  assert.deepEqual(parseRemembered("[]"), []);
});
