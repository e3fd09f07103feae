// Unit tests for the definition cache: hits only for the same signature, the
// file on disk (private, whole, per build), entries that fail validation or
// idle too long dropped, and every disk failure silent.

import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import { DefinitionCache, MAX_IDLE_DAYS } from "./definition-cache.ts";
import type { FileSignature } from "./file-signature.ts";

const dir = mkdtempSync(join(tmpdir(), "xcsh-defcache-"));
after(() => rmSync(dir, { recursive: true, force: true }));

interface V {
  n: number;
}
const isV = (v: unknown): v is V => typeof (v as V)?.n === "number";
const sig: FileSignature = { dev: 1, ino: 2, size: 3, mtimeMs: 4, ctimeMs: 5 };

/** An entry as the file keeps it: key, signature, day of last use, value. */
type Entry = [string, unknown, number, unknown];

/** The entry of the written document `doc` with `key`. */
function entry(doc: { entries: Entry[] }, key: string): Entry {
  const e = doc.entries.find((x) => x[0] === key);
  assert.ok(e, `no entry ${JSON.stringify(key)}`);
  return e;
}
let counter = 0;
const fresh = () => join(dir, `c${counter++}`, "definitions.json");

describe("DefinitionCache", () => {
  test("a value comes back only for the same path, origin and signature", () => {
    const c = new DefinitionCache<V>(undefined, "b");
    c.set("/a.md", "o", sig, { n: 1 });
    assert.deepEqual(c.get("/a.md", "o", sig), { n: 1 });
    assert.equal(c.get("/a.md", "other", sig), undefined);
    assert.equal(c.get("/b.md", "o", sig), undefined);
    assert.equal(c.get("/a.md", "o", { ...sig, ctimeMs: 6 }), undefined);
  });

  test("saved privately, whole, and loaded back by the same build", () => {
    const file = fresh();
    const c = new DefinitionCache<V>(file, "b1");
    c.set("/a.md", "o", sig, { n: 1 });
    c.setConstant("k", [1, 2]);
    c.save();
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(join(file, "..")).mode & 0o777, 0o700);
    assert.deepEqual(readdirSync(join(file, "..")), ["definitions.json"], "no temporary file left");
    const back = DefinitionCache.load(file, "b1", isV);
    assert.deepEqual(back.get("/a.md", "o", sig), { n: 1 });
    assert.deepEqual(back.constant("k", Array.isArray), [1, 2]);
    assert.equal(back.constant("k", isV), undefined, "a constant failing its check is not given");
  });

  test("a folder removed while the process runs is made again on the next save", () => {
    const file = fresh();
    const c = new DefinitionCache<V>(file, "b");
    c.set("/a.md", "o", sig, { n: 1 });
    c.save();
    rmSync(join(file, ".."), { recursive: true });
    c.set("/b.md", "o", sig, { n: 2 });
    c.save();
    assert.equal(statSync(join(file, "..")).mode & 0o777, 0o700);
    assert.deepEqual(DefinitionCache.load(file, "b", isV).get("/b.md", "o", sig), { n: 2 });
  });

  test("another build, another format, a corrupt or missing file: empty", () => {
    const file = fresh();
    const c = new DefinitionCache<V>(file, "b1");
    c.set("/a.md", "o", sig, { n: 1 });
    c.save();
    assert.equal(DefinitionCache.load(file, "b2", isV).size, 0);
    const doc = JSON.parse(readFileSync(file, "utf8"));
    writeFileSync(file, JSON.stringify({ ...doc, format: 99 }));
    assert.equal(DefinitionCache.load(file, "b1", isV).size, 0);
    writeFileSync(file, "{");
    assert.equal(DefinitionCache.load(file, "b1", isV).size, 0);
    assert.equal(DefinitionCache.load(join(dir, "none.json"), "b1", isV).size, 0);
  });

  test("entries that fail the value check or have no signature are dropped", () => {
    const file = fresh();
    const c = new DefinitionCache<V>(file, "b");
    c.set("/ok.md", "o", sig, { n: 1 });
    c.save();
    const doc = JSON.parse(readFileSync(file, "utf8"));
    const [, , used] = entry(doc, "o\0/ok.md");
    doc.entries.push(["o\0/bad.md", [1, 2, 3, 4, 5], used, { n: "x" }]);
    doc.entries.push(["o\0/nosig.md", null, 1, { n: 2 }]);
    doc.entries.push(["o\0/short.md", [1, 2, 3, 4, 5], used]);
    writeFileSync(file, JSON.stringify(doc));
    const back = DefinitionCache.load(file, "b", isV);
    assert.equal(back.size, 2, "no signature: dropped at once; the value: checked when used");
    assert.deepEqual(back.get("/ok.md", "o", sig), { n: 1 });
    assert.equal(back.get("/bad.md", "o", sig), undefined);
    assert.equal(back.size, 1);
    // Not written back either, used or not.
    writeFileSync(file, JSON.stringify(doc));
    const again = DefinitionCache.load(file, "b", isV);
    again.set("/other.md", "o", sig, { n: 3 });
    again.save();
    const keys = JSON.parse(readFileSync(file, "utf8")).entries.map((e: Entry) => e[0]).sort();
    assert.deepEqual(keys, ["o\0/ok.md", "o\0/other.md"]);
  });

  test(`entries unused for over ${MAX_IDLE_DAYS} days are dropped on save`, () => {
    const file = fresh();
    const c = new DefinitionCache<V>(file, "b");
    c.set("/old.md", "o", sig, { n: 1 });
    c.set("/new.md", "o", sig, { n: 2 });
    c.save();
    const doc = JSON.parse(readFileSync(file, "utf8"));
    entry(doc, "o\0/old.md")[2] -= MAX_IDLE_DAYS + 1;
    writeFileSync(file, JSON.stringify(doc));
    const back = DefinitionCache.load(file, "b", isV);
    back.set("/other.md", "o", sig, { n: 3 });
    back.save();
    const again = DefinitionCache.load(file, "b", isV);
    assert.equal(again.get("/old.md", "o", sig), undefined);
    assert.deepEqual(again.get("/new.md", "o", sig), { n: 2 });
  });

  test("entries for files gone from the folder are dropped", () => {
    const file = fresh();
    const c = new DefinitionCache<V>(file, "b");
    c.set("/d/a.md", "o", sig, { n: 1 });
    c.set("/d/b.md", "o", sig, { n: 2 });
    c.set("/d/b.md", "other", sig, { n: 3 });
    c.set("/e/c.md", "o", sig, { n: 4 });
    c.set("/d2/c.md", "o", sig, { n: 5 });
    c.save();
    const back = DefinitionCache.load(file, "b", isV);
    back.retainFolders(new Map([["o\0/d/", new Set(["/d/a.md"])]]));
    back.save();
    const again = DefinitionCache.load(file, "b", isV);
    assert.deepEqual(again.get("/d/a.md", "o", sig), { n: 1 });
    assert.equal(again.get("/d/b.md", "o", sig), undefined);
    assert.deepEqual(again.get("/d/b.md", "other", sig), { n: 3 }, "another origin's are kept");
    assert.deepEqual(again.get("/e/c.md", "o", sig), { n: 4 }, "another folder's are kept");
    assert.deepEqual(again.get("/d2/c.md", "o", sig), { n: 5 }, "a folder named alike is another");
  });

  test("two folders of one origin in one file: only the folder read forgets", () => {
    const origin = "user\0gemini\0"; // an origin holds NULs; a path none
    const c = new DefinitionCache<V>(undefined, "b");
    c.set("/h/.gemini/agents/a.md", origin, sig, { n: 1 });
    c.set("/h/.gemini/agents/gone.md", origin, sig, { n: 2 });
    c.set("/h/.config/gemini-cli/agents/b.md", origin, sig, { n: 3 });
    c.retainFolders(
      new Map([[`${origin}\0/h/.gemini/agents/`, new Set(["/h/.gemini/agents/a.md"])]]),
    );
    assert.deepEqual(c.get("/h/.gemini/agents/a.md", origin, sig), { n: 1 });
    assert.equal(c.get("/h/.gemini/agents/gone.md", origin, sig), undefined);
    assert.deepEqual(c.get("/h/.config/gemini-cli/agents/b.md", origin, sig), { n: 3 });
    assert.equal(c.size, 2);
    // Entries set after the first call, and one set again, are known to the next.
    c.set("/h/.gemini/agents/new.md", origin, sig, { n: 4 });
    c.set("/h/.gemini/agents/gone.md", origin, sig, { n: 5 });
    c.retainFolders(
      new Map([[`${origin}\0/h/.gemini/agents/`, new Set(["/h/.gemini/agents/new.md"])]]),
    );
    assert.equal(c.get("/h/.gemini/agents/a.md", origin, sig), undefined);
    assert.equal(c.get("/h/.gemini/agents/gone.md", origin, sig), undefined);
    assert.deepEqual(c.get("/h/.gemini/agents/new.md", origin, sig), { n: 4 });
    assert.equal(c.size, 2);
  });

  test("a name with a backslash is a file of its folder (POSIX)", { skip: sep !== "/" }, () => {
    const c = new DefinitionCache<V>(undefined, "b");
    c.set("/d/we\\ird.md", "o", sig, { n: 1 });
    c.retainFolders(new Map([["o\0/d/", new Set<string>()]]));
    assert.equal(c.size, 0, "gone from /d/, so forgotten");
  });

  test("a file made for another scope is not used", () => {
    const file = fresh();
    const c = new DefinitionCache<V>(file, "b", "origin\0/one");
    c.set("/one/a.md", "o", sig, { n: 1 });
    c.save();
    assert.equal(DefinitionCache.load(file, "b", isV, "origin\0/two").size, 0);
    assert.equal(DefinitionCache.load(file, "b", isV, "origin\0/one").size, 1);
  });

  test("nothing changed: nothing written", () => {
    const file = fresh();
    const c = new DefinitionCache<V>(file, "b");
    assert.equal(c.changed, false);
    c.save();
    assert.ok(!existsSync(file));
    c.set("/a.md", "o", sig, { n: 1 });
    assert.equal(c.changed, true);
    c.save();
    assert.equal(c.changed, false, "written: nothing left to write");
    const before = statSync(file).mtimeMs;
    const back = DefinitionCache.load(file, "b", isV);
    back.get("/a.md", "o", sig); // used today already: not a change
    assert.equal(back.changed, false);
    back.save();
    assert.equal(statSync(file).mtimeMs, before);
  });

  test("a cache kept in memory only never has anything to write", () => {
    const c = new DefinitionCache<V>(undefined, "b");
    c.set("/a.md", "o", sig, { n: 1 });
    assert.equal(c.changed, false);
  });

  test("a folder that cannot be written is no error", () => {
    const blocker = join(dir, "a-file");
    writeFileSync(blocker, "");
    const c = new DefinitionCache<V>(join(blocker, "sub", "definitions.json"), "b");
    c.set("/a.md", "o", sig, { n: 1 });
    assert.doesNotThrow(() => c.save());
    assert.deepEqual(c.get("/a.md", "o", sig), { n: 1 }, "memory still works");
  });
});
