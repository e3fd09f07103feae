// The folder graph of src/ has no cycle: no folder imports one that imports
// it back, directly or through a third. The rule itself is tested on small
// graphs first, so the real check cannot pass by finding nothing.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { ROOT } from "../support/cli.ts";
import { findCycle, folderGraph, relativeImports } from "./folder-graph.ts";

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

  test("files at the top of src/ and outside it are no folder", () => {
    const g = folderGraph({
      "cli/a.ts": ["../types.ts", "../../agents/x.md", "./b.ts", "../runner/r.ts"],
    });
    assert.deepEqual([...g.get("cli")!], ["runner"]);
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

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sourceFiles(join(dir, e.name))
      : e.name.endsWith(".ts") && !e.name.endsWith(".test.ts")
      ? [join(dir, e.name)]
      : []
  );
}

test("src/ has no folder cycle", () => {
  const srcDir = join(ROOT, "src");
  const files: Record<string, string[]> = {};
  for (const file of sourceFiles(srcDir)) {
    files[relative(srcDir, file).split(sep).join("/")] = relativeImports(
      readFileSync(file, "utf8"),
    );
  }
  const graph = folderGraph(files);
  assert.ok(graph.size >= 8, `expected the src/ folders, found ${[...graph.keys()]}`);
  const cycle = findCycle(graph);
  assert.equal(cycle, undefined, `folder cycle: ${cycle?.join(" → ")}`);
});
