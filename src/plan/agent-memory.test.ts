// Where an agent's memory folder is, and what of MEMORY.md the prompt holds.

import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MEMORY_HEAD_LINES, memoryDir, memoryHead, openMemory } from "./agent-memory.ts";

const at = { projectRoot: "/p", claudeHome: "/h/.claude" };

describe("memoryDir", () => {
  const rows: [string, "user" | "project" | "local" | undefined, unknown][] = [
    ["rev", "user", {
      dir: "/h/.claude/agent-memory/rev",
      anchor: "/h/.claude",
      rel: "agent-memory/rev",
      where: "/h/.claude",
    }],
    ["rev", "project", {
      dir: "/p/.claude/agent-memory/rev",
      anchor: "/p",
      rel: ".claude/agent-memory/rev",
      where: "the project",
    }],
    ["rev", "local", {
      dir: "/p/.claude/agent-memory-local/rev",
      anchor: "/p",
      rel: ".claude/agent-memory-local/rev",
      where: "the project",
    }],
    ["rev", undefined, undefined],
    ["../x", "user", { error: 'the name "../x" cannot name a memory folder' }],
    ["a/b", "local", { error: 'the name "a/b" cannot name a memory folder' }],
  ];
  for (const [name, memory, expected] of rows) {
    test(`${name} ${memory}`, () => assert.deepEqual(memoryDir({ name, memory }, at), expected));
  }
});

test("memoryHead keeps the first 200 lines and counts the rest", () => {
  const text = Array.from({ length: 250 }, (_, i) => `line ${i + 1}`).join("\n");
  const head = memoryHead(text);
  assert.equal(head.split("\n").length, MEMORY_HEAD_LINES + 1);
  assert.match(head, /line 200\n\[… 50 more lines in MEMORY\.md\]$/);
  assert.equal(memoryHead("a\nb\n"), "a\nb");
});

describe("openMemory", () => {
  const root = mkdtempSync(join(tmpdir(), "xcsh-memory-"));
  after(() => rmSync(root, { recursive: true, force: true }));
  const place = (rel: string) => ({ anchor: root, rel, where: "the project" });
  test("makes the folder; an absent MEMORY.md is empty; a present one is read", () => {
    const dir = join(root, "a", "b");
    assert.deepEqual(openMemory(place("a/b")), { dir, head: "" });
    assert.ok(existsSync(dir));
    writeFileSync(join(dir, "MEMORY.md"), "- remember this\n");
    assert.deepEqual(openMemory(place("a/b")), { dir, head: "- remember this" });
  });
  test("a symlink on the way is refused; a MEMORY.md leading out is not read", () => {
    const outside = mkdtempSync(join(tmpdir(), "xcsh-memory-out-"));
    after(() => rmSync(outside, { recursive: true, force: true }));
    symlinkSync(outside, join(root, "linked"));
    assert.deepEqual(openMemory(place("linked/rev")), {
      error: "`linked` is a symlink: memory folders must be real folders inside the project",
    });
    assert.ok(!existsSync(join(outside, "rev")));
    writeFileSync(join(outside, "secret"), "KEY=1\n");
    mkdirSync(join(root, "c"));
    symlinkSync(join(outside, "secret"), join(root, "c", "MEMORY.md"));
    const opened = openMemory(place("c"));
    assert.ok("error" in opened && /MEMORY\.md leads outside its folder/.test(opened.error));
  });
});
