// What loads with the start of a run and of a child, through static imports
// (what a dynamic `import()` loads comes when it is first needed):
// - a built-in tool's module, as src/tools/tool-loaders.ts loads it to offer
//   the tool, loads neither the network stack (node:http, node:https,
//   node:net, node:dns, node:zlib) nor the HTML converter: they cost every
//   child's start a few milliseconds of CPU and load when the tool runs;
// - neither `xcsh run` nor a child loads the price catalogue at start;
// - `xcsh run` starts its spare child before the task runner loads;
// - listing agents loads the definition parser (the field readers, the
//   bundled agents' files) only for a file no cache holds.
// The rules are tested on small inputs first, so the real checks cannot pass
// by finding nothing.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { ROOT } from "../support/cli.ts";
import { withoutComments } from "./folder-graph.ts";

/** Modules a tool loads only when it runs. */
const AT_RUN_ONLY = ["node:http", "node:https", "node:net", "node:dns", "node:zlib"];
const AT_RUN_ONLY_FILES = ["tools/web/html-to-markdown.ts", "tools/web/pinned-get.ts"];

/** Whether `x` (a path under `src/` or a `node:` module) loads only when a tool runs. */
function atRunOnly(x: string): boolean {
  return AT_RUN_ONLY_FILES.includes(x) || AT_RUN_ONLY.some((m) => x === m || x.startsWith(`${m}/`));
}

// `import x from "m"`, `import { a } from "m"`, `import "m"`, `export { a } from "m"`:
// value imports that load with the module (`import type` and `import()` do not).
const STATIC = /^\s*(?:import|export)\s+(?!type\b)(?:[^"';]*?\s+from\s+)?["']([^"']+)["']/gm;

/** The specifiers `source` loads with itself. */
export function staticImports(source: string): string[] {
  return [...withoutComments(source).matchAll(STATIC)].map((m) => m[1]);
}

/**
 * The files under `src/` and the `node:` modules that loading `entry` (a
 * path under `src/`) loads, through static imports only; `read` gives a
 * file's text, or undefined when there is none.
 */
export function loadedWith(entry: string, read: (file: string) => string | undefined): string[] {
  const seen = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = read(file);
    if (text === undefined) return;
    for (const spec of staticImports(text)) {
      if (spec.startsWith("node:")) seen.add(spec);
      else if (spec.startsWith(".")) walk(posix.normalize(posix.join(posix.dirname(file), spec)));
    }
  };
  walk(entry);
  return [...seen];
}

const readSrc = (file: string) => {
  const path = join(ROOT, "src", file);
  return existsSync(path) ? readFileSync(path, "utf8") : undefined;
};

/** The modules tool-loaders.ts loads on demand, by path under `src/`. */
function toolModules(): string[] {
  const text = readSrc("tools/tool-loaders.ts") ?? "";
  return [...text.matchAll(/import\(\s*["'](\.[^"']+)["']\s*\)/g)].map((m) =>
    posix.normalize(posix.join("tools", m[1]))
  );
}

describe("start-path rules", () => {
  test("static imports: values and re-exports, not types or import()", () => {
    assert.deepEqual(
      staticImports([
        'import http from "node:http";',
        'import { a, type B } from "./a.ts";',
        'import type { C } from "./c.ts";',
        'import "./side.ts";',
        'export { d } from "./d.ts";',
        'const e = await import("./e.ts");',
        "// import { f } from './f.ts';",
      ].join("\n")),
      ["node:http", "./a.ts", "./side.ts", "./d.ts"],
    );
  });
  test("follows static imports through files, not dynamic ones", () => {
    const files: Record<string, string> = {
      "tools/t.ts": 'import { x } from "./x.ts";\nconst l = () => import("./late.ts");',
      "tools/x.ts": 'import dns from "node:dns";',
      "tools/late.ts": 'import http from "node:http";',
    };
    assert.deepEqual(
      loadedWith("tools/t.ts", (f) => files[f]).sort(),
      ["node:dns", "tools/t.ts", "tools/x.ts"],
    );
  });
});

test("a tool's module loads no network stack and no HTML converter with it", () => {
  const modules = toolModules();
  assert.ok(modules.length >= 10, `tool-loaders.ts names ${modules.length} modules`);
  assert.ok(modules.includes("tools/web/web-fetch.ts"));
  const found = modules.flatMap((m) =>
    loadedWith(m, readSrc)
      .filter((x) => atRunOnly(x))
      .map((x) => `${m} → ${x}`)
  );
  assert.deepEqual(found, []);
});

test("the price catalogue loads when a price or a window is asked for, not at start", () => {
  for (const entry of ["cli/run.ts", "child/command.ts"]) {
    assert.ok(loadedWith(entry, readSrc).length > 50, `${entry} loads its modules`);
    assert.deepEqual(
      loadedWith(entry, readSrc).filter((f) => f === "model/price-table.json"),
      [],
      entry,
    );
  }
});

test("xcsh run starts its spare child before the task runner loads", () => {
  const run = loadedWith("cli/run.ts", readSrc);
  assert.ok(run.includes("runner/spawn/spare-child.ts"));
  assert.equal(run.includes("runner/task-runner.ts"), false);
});

test("xcsh agents loads the definition parser only when a file needs parsing", () => {
  const agents = loadedWith("cli/agents.ts", readSrc);
  assert.ok(agents.includes("discovery/cached-parse.ts"));
  assert.deepEqual(
    agents.filter((f) =>
      ["discovery/agent-file.ts", "discovery/agent-fields.ts", "discovery/bundled.ts"].includes(f)
    ),
    [],
  );
});
