// The parent–child protocol is the seam between the two sides of a run:
// the child side (src/child/) imports nothing of the parent side
// (src/runner/), and the protocol's variables are read only through
// src/protocol/variables.ts, on both sides. The rules are tested on small
// inputs first, so the real checks cannot pass by finding nothing.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, posix, relative, sep } from "node:path";
import { ROOT } from "../support/cli.ts";
import { relativeImports } from "./folder-graph.ts";

/** The files under `src/<folder>` (tests left out), by path under `src/`. */
function sources(folder: string): Record<string, string> {
  const dir = join(ROOT, "src", folder);
  const out: Record<string, string> = {};
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile() || !e.name.endsWith(".ts") || e.name.endsWith(".test.ts")) continue;
    const file = join(e.parentPath ?? dir, e.name);
    out[relative(join(ROOT, "src"), file).split(sep).join("/")] = readFileSync(file, "utf8");
  }
  return out;
}

/** The imports of `files` that land in `src/<into>/`. */
function importsInto(files: Record<string, string>, into: string): string[] {
  const hits: string[] = [];
  for (const [file, text] of Object.entries(files)) {
    for (const spec of relativeImports(text)) {
      const target = posix.normalize(posix.join(posix.dirname(file), spec));
      if (target.startsWith(`${into}/`)) hits.push(`${file} → ${target}`);
    }
  }
  return hits;
}

// `env.XCSH_X`, `env["XCSH_X"]`, `env.PI_BLOCKED_AGENT`: a protocol variable read by its literal name.
const LITERAL_READ =
  /\benv\s*(?:\.\s*(?:XCSH_\w+|PI_BLOCKED_AGENT)\b|\[\s*["'](?:XCSH_\w+|PI_BLOCKED_AGENT)["']\s*\])/g;

function literalReads(files: Record<string, string>): string[] {
  return Object.entries(files).flatMap(([file, text]) =>
    [...text.matchAll(LITERAL_READ)].map((m) => `${file}: ${m[0]}`)
  );
}

describe("protocol seam rules", () => {
  test("finds an import from child/ into runner/, static or dynamic", () => {
    assert.deepEqual(
      importsInto({
        "child/a.ts": 'import { x } from "../runner/guards.ts";',
        "child/b.ts": 'const m = await import("../runner/task-runner.ts");',
        "child/c.ts": 'import { y } from "../protocol/variables.ts";',
      }, "runner"),
      ["child/a.ts → runner/guards.ts", "child/b.ts → runner/task-runner.ts"],
    );
  });
  test("finds literal reads of protocol variables, not names in text", () => {
    assert.deepEqual(
      literalReads({
        "child/a.ts": 'const d = env.XCSH_TASK_DEPTH; const s = process.env["XCSH_SPAWNS"];',
        "child/b.ts": "const b = env.PI_BLOCKED_AGENT; // see XCSH_MODEL",
      }),
      [
        "child/a.ts: env.XCSH_TASK_DEPTH",
        'child/a.ts: env["XCSH_SPAWNS"]',
        "child/b.ts: env.PI_BLOCKED_AGENT",
      ],
    );
  });
});

test("src/child/ imports nothing of src/runner/", () => {
  assert.deepEqual(importsInto(sources("child"), "runner"), []);
});

test("child/ and runner/ read the protocol's variables only through protocol/variables.ts", () => {
  const files = { ...sources("child"), ...sources("runner") };
  assert.ok(Object.keys(files).length > 20, "expected the child and runner sources");
  assert.deepEqual(literalReads(files), []);
});
