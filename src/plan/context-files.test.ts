// Which instruction files a prompt holds, in which order, within the cap.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  CONTEXT_CAP_BYTES,
  contextCandidates,
  fitContext,
  type FolderProbe,
  MIN_CUT_BYTES,
  projectFolders,
  userContextPaths,
} from "./context-files.ts";

/** A probe over a set of existing paths (folders end with "/"). */
function probe(paths: string[]): FolderProbe {
  const set = new Set(paths);
  return {
    exists: (p) => set.has(p) || set.has(p + "/"),
    isFolder: (p) => set.has(p + "/"),
  };
}

describe("projectFolders", () => {
  test("the git root and every folder below it down to cwd, root first", () => {
    const p = probe(["/src/repo/.git/"]);
    assert.deepEqual(projectFolders("/src/repo/a/b", "/home/ada", p), [
      "/src/repo",
      "/src/repo/a",
      "/src/repo/a/b",
    ]);
  });
  test("a .git file (worktree) marks the root too", () => {
    assert.deepEqual(projectFolders("/w/x", "/home/ada", probe(["/w/.git"])), ["/w", "/w/x"]);
  });
  test("the git root wins over a nearer config folder", () => {
    const p = probe(["/r/.git/", "/r/pkg/.claude/"]);
    assert.deepEqual(projectFolders("/r/pkg/src", "/h", p), ["/r", "/r/pkg", "/r/pkg/src"]);
  });
  test("without git, the nearest folder holding .xcsh, .claude, .codex or .gemini", () => {
    for (const m of [".xcsh", ".claude", ".codex", ".gemini"]) {
      const p = probe([`/p/${m}/`, `/${m}/`]);
      assert.deepEqual(projectFolders("/p/q", "/h", p), ["/p", "/p/q"], m);
    }
  });
  test("a config marker that is a file does not count", () => {
    assert.deepEqual(projectFolders("/p/q", "/h", probe(["/p/.claude"])), ["/p/q"]);
  });
  test("no root found: only the working directory", () => {
    assert.deepEqual(projectFolders("/a/b/c", "/h", probe([])), ["/a/b/c"]);
  });
  test("inside HOME the walk stops below HOME: HOME's .claude is the user's", () => {
    const p = probe(["/home/ada/.claude/", "/home/.git/", "/.git/"]);
    assert.deepEqual(projectFolders("/home/ada/scratch/x", "/home/ada", p), [
      "/home/ada/scratch/x",
    ]);
  });
  test("cwd = HOME: no project folders at all", () => {
    assert.deepEqual(projectFolders("/home/ada", "/home/ada", probe(["/home/ada/.git/"])), []);
  });
  test("a folder merely named like HOME's prefix is not inside it", () => {
    const p = probe(["/home/ada2/.git/"]);
    assert.deepEqual(projectFolders("/home/ada2/x", "/home/ada", p), [
      "/home/ada2",
      "/home/ada2/x",
    ]);
  });
});

describe("userContextPaths", () => {
  test("xcsh, claude, codex, gemini, in that order", () => {
    assert.deepEqual(userContextPaths("/h", {}), [
      "/h/.xcsh/agent/AGENTS.md",
      "/h/.claude/CLAUDE.md",
      "/h/.codex/AGENTS.md",
      "/h/.gemini/GEMINI.md",
    ]);
  });
  test("honours CLAUDE_CONFIG_DIR and CODEX_HOME", () => {
    const paths = userContextPaths("/h", { CLAUDE_CONFIG_DIR: "/cc", CODEX_HOME: "/cx" });
    assert.equal(paths[1], "/cc/CLAUDE.md");
    assert.equal(paths[2], "/cx/AGENTS.md");
  });
  test("no HOME, no user files", () => assert.deepEqual(userContextPaths("", {}), []));
});

describe("contextCandidates", () => {
  test("user files, then each project folder root first with its four names", () => {
    const c = contextCandidates("/r/sub", "/h", {}, probe(["/r/.git/"]));
    assert.deepEqual(c.map((x) => `${x.scope} ${x.path}`), [
      "user /h/.xcsh/agent/AGENTS.md",
      "user /h/.claude/CLAUDE.md",
      "user /h/.codex/AGENTS.md",
      "user /h/.gemini/GEMINI.md",
      "project /r/AGENTS.md",
      "project /r/CLAUDE.md",
      "project /r/CLAUDE.local.md",
      "project /r/GEMINI.md",
      "project /r/sub/AGENTS.md",
      "project /r/sub/CLAUDE.md",
      "project /r/sub/CLAUDE.local.md",
      "project /r/sub/GEMINI.md",
    ]);
  });
  test("a path that is both a user and a project file is listed once, as the user's", () => {
    const c = contextCandidates("/cc", "/h", { CLAUDE_CONFIG_DIR: "/cc" }, probe(["/cc/.git/"]));
    assert.equal(c.filter((x) => x.path === "/cc/CLAUDE.md").length, 1);
    assert.equal(c.find((x) => x.path === "/cc/CLAUDE.md")?.scope, "user");
  });
});

const file = (path: string, text: string, scope: "user" | "project" = "project") => ({
  path,
  scope,
  text,
});

describe("fitContext", () => {
  test("identical files once, the first kept; empty files dropped", () => {
    const r = fitContext([
      file("/h/.claude/CLAUDE.md", "Be terse.\n", "user"),
      file("/r/AGENTS.md", "Be terse."),
      file("/r/CLAUDE.md", "  \n"),
      file("/r/GEMINI.md", "Other."),
    ]);
    assert.deepEqual(r.files.map((f) => f.path), ["/h/.claude/CLAUDE.md", "/r/GEMINI.md"]);
    assert.deepEqual(r.duplicates, ["/r/AGENTS.md"]);
    assert.equal(r.note, undefined);
  });
  test("within the cap nothing is cut", () => {
    const r = fitContext([file("/a", "x".repeat(1000)), file("/b", "y".repeat(1000))], 2000);
    assert.equal(r.files.length, 2);
    assert.equal(r.note, undefined);
  });
  test("over the cap: the nearest (last) files are kept whole, an earlier one is cut", () => {
    const r = fitContext([
      file("/user", "u".repeat(3000), "user"),
      file("/near", "n".repeat(3000)),
    ], 4096);
    assert.deepEqual(r.files.map((f) => f.path), ["/user", "/near"]);
    assert.equal(r.files[1].text.length, 3000);
    assert.equal(r.files[0].text.length, 1096);
    assert.match(r.note ?? "", /capped at 4 KiB/);
    assert.match(r.note ?? "", /\/user was cut after 1 KiB of 3 KiB/);
  });
  test("a file that would keep less than the minimum is left out, and said so", () => {
    const r = fitContext([
      file("/far", "f".repeat(5000)),
      file("/near", "n".repeat(4096 - MIN_CUT_BYTES + 1)),
    ], 4096);
    assert.deepEqual(r.files.map((f) => f.path), ["/near"]);
    assert.match(r.note ?? "", /\/far \(5 KiB\) was left out/);
  });
  test("the default cap is 32 KiB, counted in UTF-8 bytes, never splitting a character", () => {
    assert.equal(CONTEXT_CAP_BYTES, 32 * 1024);
    const r = fitContext([file("/a", "é".repeat(20000)), file("/b", "b")]);
    const total = r.files.reduce((n, f) => n + new TextEncoder().encode(f.text).length, 0);
    assert.ok(total <= CONTEXT_CAP_BYTES, String(total));
    assert.ok(!r.files[0].text.includes("\uFFFD"));
    assert.match(r.note ?? "", /\/a was cut/);
  });
});
