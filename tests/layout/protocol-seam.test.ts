// The parent–child protocol is the seam between the two sides of a run:
// the child side (src/child/) imports nothing of the parent side (the plan
// in src/plan/, its execution in src/runner/), the plan imports nothing of
// its execution (the runner executes a plan, never the reverse), and the
// protocol's variables are read only through src/protocol/variables.ts, on
// both sides. The rules are tested on small
// inputs first, so the real checks cannot pass by finding nothing.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, posix, relative, sep } from "node:path";
import { ROOT } from "../support/cli.ts";
import { relativeImports, withoutComments } from "./folder-graph.ts";

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

test("src/child/ imports nothing of src/runner/ or src/plan/", () => {
  const child = sources("child");
  assert.deepEqual([...importsInto(child, "runner"), ...importsInto(child, "plan")], []);
});

test("src/plan/ imports nothing of src/runner/: the runner executes a plan", () => {
  const files = sources("plan");
  assert.ok(Object.keys(files).length > 10, "expected the plan sources");
  assert.deepEqual(importsInto(files, "runner"), []);
});

test("child/, plan/ and runner/ read the protocol's variables only through protocol/variables.ts", () => {
  const files = { ...sources("child"), ...sources("plan"), ...sources("runner") };
  assert.ok(Object.keys(files).length > 20, "expected the child, plan and runner sources");
  assert.deepEqual(literalReads(files), []);
});

// The parent plans, the child executes: the child loads no config file,
// resolves no model and chooses no sandbox (those are the parent's, and
// travel in the plan); the protocol, the seam itself, depends on neither
// config/ nor discovery/.

/** The parent's deciders a child must not import: config loading, model resolution, sandbox choice. */
const DECIDERS = [
  /^config\/load[^/]*\.ts$/,
  /^model\/resolve[^/]*\.ts$/,
  /^plan\/sandbox-choice\.ts$/,
];

/** The imports of `files` whose target matches one of `targets`. */
function importsOf(files: Record<string, string>, targets: readonly RegExp[]): string[] {
  const hits: string[] = [];
  for (const [file, text] of Object.entries(files)) {
    for (const spec of relativeImports(text)) {
      const target = posix.normalize(posix.join(posix.dirname(file), spec));
      if (targets.some((t) => t.test(target))) hits.push(`${file} → ${target}`);
    }
  }
  return hits;
}

/** The files of `files` that name the sandbox chooser of `sandbox/mode.ts`. */
function sandboxChoosers(files: Record<string, string>): string[] {
  return Object.entries(files).filter(([, text]) => /\bchooseSandbox\b/.test(withoutComments(text)))
    .map(([file]) => file);
}

describe("plan seam rules", () => {
  test("finds a child's import of config loading, model resolution or the sandbox choice", () => {
    assert.deepEqual(
      importsOf({
        "child/a.ts": 'import { loadConfig } from "../config/load.ts";',
        "child/b.ts": 'const m = await import("../model/resolve.ts");',
        "child/c.ts": 'import { sandboxFor } from "../plan/sandbox-choice.ts";',
        "child/d.ts": 'import { validateConfig } from "../config/validate.ts";',
      }, DECIDERS),
      [
        "child/a.ts → config/load.ts",
        "child/b.ts → model/resolve.ts",
        "child/c.ts → plan/sandbox-choice.ts",
      ],
    );
    assert.deepEqual(
      sandboxChoosers({
        "child/a.ts": 'import { chooseSandbox, startsCommands } from "../sandbox/mode.ts";',
        "child/b.ts": "// chooseSandbox is the parent's\nconst s = startsCommands(x);",
      }),
      ["child/a.ts"],
    );
  });
});

test("src/child/ imports no config loading, no model resolution, no sandbox choice", () => {
  const files = sources("child");
  assert.ok(Object.keys(files).length > 20, "expected the child sources");
  assert.deepEqual(importsOf(files, DECIDERS), []);
  assert.deepEqual(sandboxChoosers(files), []);
});

test("src/protocol/ imports nothing of config/ or discovery/", () => {
  const files = sources("protocol");
  assert.ok(Object.keys(files).length > 5, "expected the protocol sources");
  assert.deepEqual([...importsInto(files, "config"), ...importsInto(files, "discovery")], []);
});
