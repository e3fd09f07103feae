// End-to-end tests of where cut outputs are saved: distinct task ids never
// share a file, and the temp-folder fallback is a fresh private folder that
// another user cannot have prepared.
//
// Needs `npm run build` first (npm test runs it).

import { test } from "node:test";
import assert from "node:assert/strict";
import { chownSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import process from "node:process";
import { runXcsh } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import { assignmentOf } from "../support/world.ts";

/** 6 000 lines naming the assignment: long enough to be cut. */
const longText = (who: string) => Array.from({ length: 6000 }, (_, i) => `${who} ${i}`).join("\n");

const { server, world } = modelHarness({
  respond: (req) => ({ text: longText(assignmentOf(req)) }),
});

test("task ids 'a/b' and 'a_b' keep separate artifacts", async () => {
  const w = world();
  const r = await runXcsh(
    ["run", "quick_task", "--json", "--task", "a/b=first", "--task", "a_b=second"],
    { cwd: w.cwd, home: w.home },
  );
  assert.equal(r.code, 0, r.stderr);
  const [one, two] = JSON.parse(r.stdout).results;
  assert.notEqual(one.artifact, two.artifact);
  assert.equal(readFileSync(one.artifact, "utf8"), longText("first"));
  assert.equal(readFileSync(two.artifact, "utf8"), longText("second"));
});

test("without a writable home, artifacts go to a fresh 0700 temp folder, not a shared name", async () => {
  const w = world();
  const tmp = join(w.root, "tmp");
  // Another user got there first with the old fixed name.
  const planted = join(tmp, "xcsh-artifacts");
  mkdirSync(planted, { recursive: true, mode: 0o777 });
  if (process.getuid?.() === 0) chownSync(planted, 54321, 54321);
  // HOME's .xcsh is a file: the home folder cannot hold artifacts.
  const home = join(w.root, "home2");
  mkdirSync(home);
  writeFileSync(join(home, ".xcsh"), "not a folder");
  const r = await runXcsh(["run", "quick_task", "--json", "say a lot"], {
    cwd: w.cwd,
    home,
    // No config in this home: a built-in provider moved to the local server.
    env: { TMPDIR: tmp, XCSH_MODEL: "ollama/mock-large", OLLAMA_BASE_URL: server.url },
  });
  assert.equal(r.code, 0, r.stderr);
  const artifact = JSON.parse(r.stdout).results[0].artifact as string;
  assert.ok(artifact.startsWith(tmp + "/xcsh-artifacts-"), artifact);
  assert.ok(!artifact.startsWith(planted + "/"), artifact);
  assert.equal(statSync(dirname(artifact)).mode & 0o777, 0o700);
  assert.equal(statSync(artifact).mode & 0o777, 0o600);
  assert.equal(statSync(artifact).uid, process.getuid?.() ?? statSync(artifact).uid);
});
