// Unit tests for the cache files: the user's and one per project, named by
// a stable hash, loaded on first use, only the changed ones written.

import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CacheFiles, hashName, scopeOf, USER_SCOPE } from "./cache-files.ts";
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

describe("scopeOf", () => {
  test("a project's folders share its file; the user's and the plugins' share the user's", () => {
    const claude = { path: "/p/.claude/agents", source: "project", family: "claude" };
    const xcsh = { path: "/p/.xcsh/agents", source: "project", family: "xcsh" };
    const deeper = { path: "/p/sub/.codex/agents", source: "project", family: "codex" };
    assert.equal(scopeOf(claude), "project\0/p");
    assert.equal(scopeOf(xcsh), scopeOf(claude));
    assert.equal(scopeOf(deeper), "project\0/p/sub");
    assert.equal(
      scopeOf({ path: "/h/.claude/agents", source: "user", family: "claude" }),
      USER_SCOPE,
    );
    const plugin = {
      path: "/h/.claude/plugins/cache/m/p/1/agents",
      source: "project",
      family: "plugin",
    };
    assert.equal(
      scopeOf(plugin),
      USER_SCOPE,
      "a plugin's folder is the user's, whatever its scope",
    );
  });
});

describe("CacheFiles", () => {
  const project = { path: "/p/.claude/agents", source: "project", family: "claude" };
  const user = { path: "/u/.claude/agents", source: "user", family: "claude" };

  test("the user's file and a project's, written only when they changed", () => {
    const dir = join(root, "one");
    const files = new CacheFiles(dir, "b", isNumber);
    files.folder(user).get("/u/.claude/agents/x.md", "o", sig); // read, not changed
    assert.equal(files.changed, false);
    files.folder(project).set("/p/.claude/agents/a.md", "o", sig, 1);
    assert.equal(files.changed, true);
    files.save();
    assert.equal(files.changed, false);
    let written = readdirSync(dir);
    assert.equal(written.length, 1, "the user's file did not change");
    files.buildScoped().setConstant("k", 2);
    files.save();
    written = readdirSync(dir).sort();
    const scopes = written.map((n) => JSON.parse(readFileSync(join(dir, n), "utf8")).scope).sort();
    assert.deepEqual(scopes, [USER_SCOPE, "project\0/p"]);

    const again = new CacheFiles(dir, "b", isNumber);
    assert.equal(again.folder(project).get("/p/.claude/agents/a.md", "o", sig), 1);
    assert.equal(again.folder(user).get("/p/.claude/agents/a.md", "o", sig), undefined);
    assert.equal(again.buildScoped().constant("k", isNumber), 2);
    assert.equal(again.buildScoped(), again.folder(user), "one file for both");
  });

  test("the same folder is loaded once", () => {
    const files = new CacheFiles(join(root, "two"), "b", isNumber);
    assert.equal(files.folder(project), files.folder(project));
  });

  test("without a folder: memory only", () => {
    const files = new CacheFiles<number>(undefined, "b", isNumber);
    files.folder(project).set("/p/.claude/agents/a.md", "o", sig, 7);
    files.save();
    assert.equal(files.folder(project).get("/p/.claude/agents/a.md", "o", sig), 7);
  });
});
