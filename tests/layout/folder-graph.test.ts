// Neither the folder graph nor the file graph of src/ has a cycle: no folder
// (or top-level file) imports one that imports it back, directly or through a
// third, and no file does either. The rules themselves are tested on small
// graphs first, so the real checks cannot pass by finding nothing.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { ROOT } from "../support/cli.ts";
import { fileGraph, findCycle, folderGraph, relativeImports } from "./folder-graph.ts";

describe("folder graph rules", () => {
  test("reads static, type-only and dynamic relative imports, not packages", () => {
    const src = [
      'import { a } from "../runner/guards.ts";',
      'import type { T } from "../types.ts";',
      'const m = await import("../mcp/server.ts");',
      'import x from "yaml";',
      'import md from "../../agents/explore.md" with { type: "text" };',
    ].join("\n");
    assert.deepEqual(relativeImports(src), [
      "../runner/guards.ts",
      "../types.ts",
      "../mcp/server.ts",
      "../../agents/explore.md",
    ]);
  });

  test("imports inside comments, as in an @example block, do not count", () => {
    const src = [
      "/**",
      " * @example",
      " * ```ts",
      ' * import { DISK } from "./git.ts";',
      " * ```",
      " */",
      '// import { old } from "./old.ts";',
      'import { a } from "./a.ts";',
      'const glob = "src/**/*.ts";',
      'const m = await import("./late.ts");',
    ].join("\n");
    assert.deepEqual(relativeImports(src), ["./a.ts", "./late.ts"]);
  });

  test("a file at the top of src/ is a node of its own; files outside src/ are none", () => {
    const g = folderGraph({
      "cli/a.ts": ["../types.ts", "../../agents/x.md", "./b.ts", "../runner/r.ts"],
      "stdio.ts": ["./clean-text.ts", "../agents/y.md"],
    });
    assert.deepEqual([...g.get("cli")!].sort(), ["runner", "types.ts"]);
    assert.deepEqual([...g.get("stdio.ts")!], ["clean-text.ts"]);
  });

  test("finds a cycle through a top-level file", () => {
    const g = folderGraph({ "labels.ts": ["./runner/x.ts"], "runner/x.ts": ["../labels.ts"] });
    assert.deepEqual(findCycle(g), ["labels.ts", "runner", "labels.ts"]);
  });

  test("finds a direct cycle", () => {
    const g = folderGraph({ "mcp/s.ts": ["../cli/o.ts"], "cli/m.ts": ["../mcp/s.ts"] });
    assert.deepEqual(findCycle(g), ["cli", "mcp", "cli"]);
  });

  test("finds a cycle through a third folder", () => {
    const g = folderGraph({
      "model/r.ts": ["../task/p.ts"],
      "task/p.ts": ["../discovery/d.ts"],
      "discovery/d.ts": ["../model/x.ts"],
    });
    assert.deepEqual(findCycle(g), ["discovery", "model", "task", "discovery"]);
  });

  test("a chain is no cycle", () => {
    const g = folderGraph({ "cli/a.ts": ["../runner/b.ts"], "runner/b.ts": ["../child/c.ts"] });
    assert.equal(findCycle(g), undefined);
  });
});

describe("file graph rules", () => {
  test("an edge to every imported file of the input, none to others or itself", () => {
    const g = fileGraph({
      "runner/a.ts": ["./b.ts", "../types.ts", "./a.ts", "./gone.ts", "../../agents/x.md"],
      "runner/b.ts": [],
      "types.ts": [],
    });
    assert.deepEqual([...g.get("runner/a.ts")!].sort(), ["runner/b.ts", "types.ts"]);
    assert.deepEqual([...g.get("types.ts")!], []);
  });

  test("finds two files of one folder importing each other", () => {
    const g = fileGraph({
      "runner/task-runner.ts": ["./session-binding.ts"],
      "runner/session-binding.ts": ["./task-runner.ts"],
    });
    assert.deepEqual(findCycle(g), [
      "runner/session-binding.ts",
      "runner/task-runner.ts",
      "runner/session-binding.ts",
    ]);
    // The folder graph cannot see it: both files are in `runner`.
    assert.equal(
      findCycle(folderGraph({
        "runner/task-runner.ts": ["./session-binding.ts"],
        "runner/session-binding.ts": ["./task-runner.ts"],
      })),
      undefined,
    );
  });

  test("finds a cycle of files across folders that the folder graph also sees", () => {
    const g = fileGraph({
      "cli/a.ts": ["../runner/b.ts"],
      "runner/b.ts": ["../stdio.ts"],
      "stdio.ts": ["./cli/a.ts"],
    });
    assert.deepEqual(findCycle(g), ["cli/a.ts", "runner/b.ts", "stdio.ts", "cli/a.ts"]);
  });

  test("a shared file imported by both is no cycle", () => {
    const g = fileGraph({
      "runner/task-runner.ts": ["./session-binding.ts", "./prepared-task.ts"],
      "runner/session-binding.ts": ["./prepared-task.ts"],
      "runner/prepared-task.ts": [],
    });
    assert.equal(findCycle(g), undefined);
  });
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sourceFiles(join(dir, e.name))
      : e.name.endsWith(".ts") && !e.name.endsWith(".test.ts")
      ? [join(dir, e.name)]
      : []
  );
}

function srcImports(): Record<string, string[]> {
  const srcDir = join(ROOT, "src");
  const files: Record<string, string[]> = {};
  for (const file of sourceFiles(srcDir)) {
    files[relative(srcDir, file).split(sep).join("/")] = relativeImports(
      readFileSync(file, "utf8"),
    );
  }
  return files;
}

test("src/ has no folder cycle", () => {
  const graph = folderGraph(srcImports());
  assert.ok(graph.size >= 8, `expected the src/ folders, found ${[...graph.keys()]}`);
  assert.ok(graph.has("types.ts"), `expected the top-level files, found ${[...graph.keys()]}`);
  const cycle = findCycle(graph);
  assert.equal(cycle, undefined, `folder cycle: ${cycle?.join(" → ")}`);
});

test("src/ has no file import cycle", () => {
  const files = srcImports();
  const graph = fileGraph(files);
  assert.ok(graph.size >= 100, `expected the src/ files, found ${graph.size}`);
  const edges = [...graph.values()].reduce((n, to) => n + to.size, 0);
  assert.ok(edges >= graph.size, `expected the src/ imports, found ${edges}`);
  const cycle = findCycle(graph);
  assert.equal(cycle, undefined, `file import cycle: ${cycle?.join(" → ")}`);
});
