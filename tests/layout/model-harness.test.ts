// Every end-to-end file that talks to the scripted model server gets it from
// the harness (tests/support/harness.ts): one server per file or per group,
// started, reset and closed the same way everywhere. So an e2e file imports
// only types from tests/support/model-server.ts, and no support module but
// the harness imports anything else from it (a helper of its own would start
// servers around the harness). The rule is tested on small inputs first, so
// the real checks cannot pass by finding nothing.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, posix, relative, sep } from "node:path";
import { ROOT } from "../support/cli.ts";
import { withoutComments } from "./folder-graph.ts";

/** `import … from "…"` and `export … from "…"`: the clause and the specifier. */
const FROM = /\b(?:import|export)\s+([^;"'()]+?)\s+from\s*["']([^"']+)["']/g;
/** `import("…")`. */
const DYNAMIC = /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g;

const isModelServer = (spec: string) =>
  posix.basename(spec).replace(/\.[jt]s$/, "") === "model-server";

/**
 * What `source` takes from the model server module other than types: the
 * names it imports or re-exports (`* as x` and `*` whole), and `import()`
 * for a dynamic import.
 */
function modelServerValues(source: string): string[] {
  const code = withoutComments(source);
  const found: string[] = [];
  for (const [, clause, spec] of code.matchAll(FROM)) {
    if (!isModelServer(spec) || /^type\s/.test(clause)) continue;
    const braces = /\{([^}]*)\}/.exec(clause);
    const outside = (braces ? clause.replace(braces[0], "") : clause).replace(/,/g, " ").trim();
    if (outside) found.push(outside.replace(/\s+/g, " "));
    for (const part of braces?.[1].split(",") ?? []) {
      const name = part.trim();
      if (name && !/^type\s/.test(name)) found.push(name.split(/\s+as\s+/)[0]);
    }
  }
  for (const [, spec] of code.matchAll(DYNAMIC)) if (isModelServer(spec)) found.push("import()");
  return found;
}

/** The `.ts` files under `tests/<folder>`, by path under `tests/`. */
function files(folder: string): Record<string, string> {
  const dir = join(ROOT, "tests", folder);
  const out: Record<string, string> = {};
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile() || !e.name.endsWith(".ts")) continue;
    const file = join(e.parentPath ?? dir, e.name);
    out[relative(join(ROOT, "tests"), file).split(sep).join("/")] = readFileSync(file, "utf8");
  }
  return out;
}

/** `file: names` for every file that takes more than types from the model server. */
function offenders(sources: Record<string, string>): string[] {
  return Object.entries(sources).flatMap(([file, text]) => {
    const names = modelServerValues(text);
    return names.length ? [`${file}: ${names.join(", ")}`] : [];
  });
}

describe("model harness rule", () => {
  test("types may be imported; a server, a namespace or a dynamic import may not", () => {
    assert.deepEqual(
      modelServerValues('import type { Turn } from "../support/model-server.ts";'),
      [],
    );
    assert.deepEqual(
      modelServerValues(
        'import {\n  type RecordedRequest,\n  type Turn,\n} from "../support/model-server.ts";',
      ),
      [],
    );
    assert.deepEqual(
      modelServerValues(
        'import {\n  type ModelServer,\n  startModelServer as start,\n} from "../support/model-server.ts";',
      ),
      ["startModelServer"],
    );
    assert.deepEqual(modelServerValues('import * as ms from "../support/model-server.ts";'), [
      "* as ms",
    ]);
    assert.deepEqual(modelServerValues('const m = await import("../support/model-server.ts");'), [
      "import()",
    ]);
    assert.deepEqual(modelServerValues('export { startModelServer } from "./model-server.ts";'), [
      "startModelServer",
    ]);
  });

  test("other modules and imports written in comments do not count", () => {
    assert.deepEqual(
      modelServerValues('import { modelHarness } from "../support/harness.ts";'),
      [],
    );
    assert.deepEqual(
      modelServerValues('import { startModelServer } from "./other-server.ts";'),
      [],
    );
    assert.deepEqual(
      modelServerValues('// import { startModelServer } from "../support/model-server.ts";\n'),
      [],
    );
  });
});

test("no e2e file starts a model server of its own: they take it from the harness", () => {
  const e2e = files("e2e");
  assert.ok(Object.keys(e2e).length > 20, "expected the e2e files");
  const harnessed = Object.values(e2e).filter((t) => t.includes("../support/harness.ts"));
  assert.ok(harnessed.length > 20, "expected most e2e files to use the harness");
  assert.deepEqual(offenders(e2e), []);
});

test("no support module but the harness takes more than types from the model server", () => {
  const support = Object.fromEntries(
    Object.entries(files("support")).filter(([file]) => !file.endsWith(".test.ts")),
  );
  assert.deepEqual(offenders({ "support/harness.ts": support["support/harness.ts"] }), [
    "support/harness.ts: startModelServer",
  ]);
  delete support["support/harness.ts"];
  assert.deepEqual(offenders(support), []);
});
