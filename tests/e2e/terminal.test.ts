// End-to-end tests of what reaches a terminal: escape sequences, control
// characters and bidi overrides from agent files, model-chosen tool
// arguments, results and guard errors are stripped; names with invisible
// characters are refused; progress marks a refused tool call as such.
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runXcsh } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import { agentMd, isAfterTool, type World } from "../support/world.ts";

const ESC = "\u001b";
const BEL = "\u0007";
/** A clipboard write (OSC 52), a colour change and a right-to-left override. */
const NASTY = `${ESC}]52;c;ZXZpbA==${BEL}${ESC}[31mred\u202Eeman`;

let w: World;
const { server, world } = modelHarness({
  setup: () => {
    w = world({
      agents: {
        shady: `---\nname: shady\ndescription: "looks ${
          NASTY.replaceAll(ESC, "\\e").replaceAll(BEL, "\\a")
        }"\ntools: read\n---\nBe shady.\n`,
      },
    });
  },
});

function assertClean(what: string, text: string): void {
  assert.ok(
    // deno-lint-ignore no-control-regex
    !/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(text),
    `${what} has control characters: ${JSON.stringify(text)}`,
  );
}

describe("text from files", () => {
  test("agent descriptions reach the listing without escapes", async () => {
    const r = await runXcsh(["agents"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    assertClean("agents", r.stdout + r.stderr);
    const show = await runXcsh(["agents", "show", "shady"], { cwd: w.cwd, home: w.home });
    assert.match(show.stdout, /looks redeman/);
    assertClean("agents show", show.stdout + show.stderr);
    // --json keeps the data exactly (JSON escapes it).
    const json = await runXcsh(["agents", "show", "shady", "--json"], { cwd: w.cwd, home: w.home });
    assert.ok(JSON.parse(json.stdout).agent.description.includes(`${ESC}]52;`));
  });

  test("names with invisible characters are refused: a warning, an error in agents check", async () => {
    const file = join(w.cwd, ".xcsh", "agents", "zw.md");
    writeFileSync(file, agentMd("ex\u200Bplore", ""));
    try {
      const list = await runXcsh(["agents", "--verbose"], { cwd: w.cwd, home: w.home });
      assert.equal(list.code, 0);
      assert.match(
        list.stderr,
        /zw\.md: skipped: 'name' contains an invisible or control character \(U\+200B\): "ex<U\+200B>plore"/,
      );
      assert.ok(!list.stdout.includes("ex\u200Bplore"));
      const check = await runXcsh(["agents", "check", file], { cwd: w.cwd, home: w.home });
      assert.equal(check.code, 1);
      assert.match(check.stdout + check.stderr, /U\+200B/);
      writeFileSync(file, agentMd("rev\u202Eeman", ""));
      const rtl = await runXcsh(["agents", "check", file], { cwd: w.cwd, home: w.home });
      assert.equal(rtl.code, 1);
      assert.match(rtl.stdout + rtl.stderr, /U\+202E/);
    } finally {
      writeFileSync(file, agentMd("zw", ""));
    }
  });
});

describe("text from models and the command line", () => {
  test("tool arguments in progress lines, refused calls and results", async () => {
    server.requests.length = 0;
    server.script([
      {
        toolCalls: [
          { name: "read", args: { path: `README.md${NASTY}` } },
          { name: "bash", args: { command: "echo pwned" } },
        ],
      },
      { text: `done ${NASTY}` },
    ]);
    const r = await runXcsh(["run", "shady", "go"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    assertClean("run", r.stdout + r.stderr);
    assert.equal(r.stdout, "done redeman\n");
    // The refused call is marked, not shown like one that ran.
    assert.match(r.stderr, /\] ✗ bash failed: unknown tool 'bash'/);
    assert.ok(isAfterTool(server.requests[1]));
  });

  test("guard errors naming what the user typed", async () => {
    const r = await runXcsh(["run", `nope${NASTY}`, "x"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /Unknown agent "nope/);
    assertClean("guard error", r.stderr);
  });
});
