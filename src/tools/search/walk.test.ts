import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { chownSync, mkdirSync } from "node:fs";
import process from "node:process";
import { join } from "node:path";
import { setImmediate } from "node:timers";
import { sandbox } from "../../../tests/support/tool-context.ts";
import { pacer } from "./pace.ts";
import { walk, type WalkEntry } from "./walk.ts";

const files: Record<string, string> = {};
for (let i = 0; i < 30; i++) files[`d${i % 3}/f${String(i).padStart(2, "0")}.txt`] = "x";
files[".gitignore"] = "*.log\n";
files["d1/skip.log"] = "x";

describe("walk", () => {
  const sb = sandbox(files);
  mkdirSync(join(sb.dir, ".git"));
  after(() => sb.remove());
  const all = async (opts = {}) => {
    const seen: string[] = [];
    const r = await walk(
      sb.dir,
      opts,
      (e: WalkEntry) => void seen.push(e.rel + (e.isDir ? "/" : "")),
    );
    return { seen, truncated: r.truncated };
  };

  test("depth first, names in byte order, ignored entries left out", async () => {
    const { seen, truncated } = await all();
    assert.equal(truncated, false);
    assert.deepEqual(seen.slice(0, 4), [".gitignore", "d0/", "d0/f00.txt", "d0/f03.txt"]);
    assert.equal(seen.length, 1 + 3 + 30);
    assert.ok(!seen.includes("d1/skip.log"));
  });

  test("stops at the entry bound and says so", async () => {
    const full = (await all()).seen;
    const { seen, truncated } = await all({ maxEntries: 5 });
    assert.equal(truncated, true);
    // `.git` counts as visited, though it is never listed.
    assert.deepEqual(seen, full.slice(0, 4));
  });

  test("gives the event loop a turn between slices, so an abort stops it", async () => {
    const controller = new AbortController();
    setImmediate(() => controller.abort());
    const { seen } = await all({ signal: controller.signal, pace: pacer(0) });
    assert.ok(seen.length >= 1 && seen.length < 10, `${seen.length} entries`);
  });
});

describe("walk under another user's .git", {
  skip: process.getuid?.() === 0 ? false : "needs root: the test gives a folder to another user",
}, () => {
  const sb = sandbox({ ".gitignore": "*.txt\n", "mine/a.txt": "x", "mine/b.md": "x" });
  after(() => sb.remove());

  test("its .gitignore hides nothing; the user's own repository's rules apply", async () => {
    mkdirSync(join(sb.dir, ".git"));
    chownSync(join(sb.dir, ".git"), 4242, 4242);
    chownSync(join(sb.dir, ".gitignore"), 4242, 4242);
    const seen = async () => {
      const out: string[] = [];
      await walk(join(sb.dir, "mine"), {}, (e) => void out.push(e.rel));
      return out;
    };
    assert.deepEqual(await seen(), ["a.txt", "b.md"]);
    chownSync(join(sb.dir, ".git"), 0, 0);
    chownSync(join(sb.dir, ".gitignore"), 0, 0);
    assert.deepEqual(await seen(), ["b.md"]);
  });
});
