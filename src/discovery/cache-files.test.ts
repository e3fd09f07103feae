// Unit tests for the cache files: one per folder and origin, named by a
// stable hash, loaded on first use, only the changed ones written.

import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CacheFiles, hashName } from "./cache-files.ts";
import type { FileSignature } from "./file-signature.ts";

const root = mkdtempSync(join(tmpdir(), "xcsh-cache-files-"));
after(() => rmSync(root, { recursive: true, force: true }));
const sig: FileSignature = { dev: 1, ino: 2, size: 3, mtimeMs: 4, ctimeMs: 5 };
const isNumber = (v: unknown): v is number => typeof v === "number";

describe("hashName", () => {
  test("16 hexadecimal digits, stable, different for near names", () => {
    assert.match(hashName("a"), /^[0-9a-f]{16}$/);
    assert.equal(
      hashName("user\0claude\0/home/me/.claude/agents"),
      hashName("user\0claude\0/home/me/.claude/agents"),
    );
    const names = ["", "a", "b", "ab", "ba", "/x/agents", "/x/agent", "/y/agents"].map(hashName);
    assert.equal(new Set(names).size, names.length);
  });
});

describe("CacheFiles", () => {
  test("one file per folder and origin, written only when it changed", () => {
    const dir = join(root, "one");
    const files = new CacheFiles(dir, "b", isNumber);
    files.folder("/u/agents", "user").get("/u/agents/x.md", "o", sig); // read, not changed
    assert.equal(files.changed, false);
    files.folder("/p/agents", "project").set("/p/agents/a.md", "o", sig, 1);
    assert.equal(files.changed, true);
    files.buildScoped().setConstant("k", 2);
    files.save();
    assert.equal(files.changed, false);
    const written = readdirSync(dir).sort();
    assert.equal(written.length, 2);
    const scopes = written.map((n) => JSON.parse(readFileSync(join(dir, n), "utf8")).scope).sort();
    assert.deepEqual(scopes, ["(build)", "project\0/p/agents"]);

    const again = new CacheFiles(dir, "b", isNumber);
    assert.equal(again.folder("/p/agents", "project").get("/p/agents/a.md", "o", sig), 1);
    assert.equal(again.folder("/p/agents", "user").get("/p/agents/a.md", "o", sig), undefined);
    assert.equal(again.buildScoped().constant("k", isNumber), 2);
  });

  test("the same folder is loaded once", () => {
    const files = new CacheFiles(join(root, "two"), "b", isNumber);
    assert.equal(files.folder("/f", "o"), files.folder("/f", "o"));
  });

  test("without a folder: memory only", () => {
    const files = new CacheFiles<number>(undefined, "b", isNumber);
    files.folder("/f", "o").set("/f/a.md", "o", sig, 7);
    files.save();
    assert.equal(files.folder("/f", "o").get("/f/a.md", "o", sig), 7);
  });
});
