// The grep and find tools inside the real binary: a child started with an
// envelope calls them on a real folder tree (a repository with nested
// .gitignore files, a binary file and a CRLF file) against the local model
// server, and the outputs sent back to the model are those the tools give;
// on a tree large enough for grep to share its search with a worker thread
// (inside the binary), the results are those of the earlier implementation.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { runXcsh } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import { grepTool as referenceGrep } from "../support/reference-search/grep.ts";
import { unavailableTaskRunner } from "../../src/tools/task.ts";
import { planText, userConfig } from "../support/plan.ts";

let scratch = "";
const harness = modelHarness({
  setup: () => {
    scratch = harness.scratch(mkdtempSync(join(tmpdir(), "xcsh-e2e-search-")));
  },
});
const { server } = harness;

const TREE: Record<string, string> = {
  ".gitignore": "dist/\n*.log\n",
  "src/a.ts": "export const needle = 1;\r\nconst other = needle + 1;\n",
  "src/lib/b.ts": "// TODO: needle here\n",
  "src/lib/.gitignore": "gen/\n",
  "src/lib/gen/c.ts": "needle\n",
  "dist/d.js": "needle\n",
  "debug.log": "needle\n",
  "notes.md": "No NEEDLE in caps? NEEDLE.\n",
};

describe("grep and find in a child of the compiled binary", () => {
  test("outputs reach the model as the tools give them", async () => {
    const home = join(scratch, "home");
    const cwd = join(scratch, "work");
    mkdirSync(join(cwd, ".git"), { recursive: true });
    for (const [rel, text] of Object.entries(TREE)) {
      mkdirSync(dirname(join(cwd, rel)), { recursive: true });
      writeFileSync(join(cwd, rel), text);
    }
    writeFileSync(
      join(cwd, "src", "blob.bin"),
      Buffer.from([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0]),
    );
    server.script([
      {
        toolCalls: [
          { name: "grep", args: { pattern: "needle" } },
        ],
      },
      {
        toolCalls: [{
          name: "grep",
          args: { pattern: "needle", ignore_case: true, glob: "*.md" },
        }],
      },
      { toolCalls: [{ name: "find", args: { pattern: "*.ts" } }] },
      { toolCalls: [{ name: "find", args: { pattern: "*a*a*a*a*a*a*a*a*b" } }] },
      { text: "done" },
    ]);
    server.requests.length = 0;
    mkdirSync(join(home, ".xcsh", "agent"), { recursive: true });
    writeFileSync(
      join(home, ".xcsh", "agent", "config.yml"),
      `providers:\n  local: { type: openai-compatible, baseURL: "${server.url}/v1" }\n`,
    );
    writeFileSync(join(cwd, "a".repeat(200)), "x");
    const r = await runXcsh(["__child"], {
      cwd,
      home,
      stdin: planText({
        id: "0-search",
        agent: { name: "searcher", description: "Searches", systemPrompt: "Search." },
        assignment: "Search the tree.",
        model: "local/mock",
        cwd,
        config: userConfig(home),
        limits: { maxTurns: 10, timeoutMs: 60_000, submitRetries: 3 },
      }),
    });
    assert.equal(r.code, 0, r.stderr);
    const ends = r.stdout.split("\n").filter((l) => l.includes('"tool_end"')).map((l) =>
      JSON.parse(l)
    );
    assert.deepEqual(ends.map((e) => [e.tool, e.ok, e.summary]), [
      // Searched: both .gitignore files, a.ts, b.ts, notes.md and the long name; not the
      // ignored files nor the binary one.
      ["grep", true, "3 matches in 6 files"],
      ["grep", true, "1 matches in 1 files"],
      ["find", true, "2 paths"],
      ["find", true, "0 paths"],
    ]);
    // What the model got back: the tool outputs in the next requests.
    const sent = server.requests.map((q) => JSON.stringify(q.body));
    assert.match(sent[1], /src\/a\.ts:1:export const needle = 1;\\nsrc\/a\.ts:2:const other/);
    assert.match(sent[1], /src\/lib\/b\.ts:1:\/\/ TODO: needle here/);
    assert.doesNotMatch(sent[1], /dist\/d\.js|debug\.log|gen\/c\.ts|blob\.bin/);
    assert.match(sent[2], /notes\.md:1:No NEEDLE in caps\? NEEDLE\./);
    assert.match(sent[3], /src\/a\.ts\\nsrc\/lib\/b\.ts/);
  });

  test("grep on 3 000 files (searched on two threads) gives the earlier implementation's results", async () => {
    const home = join(scratch, "home-big");
    const cwd = join(scratch, "big");
    mkdirSync(join(cwd, ".git"), { recursive: true });
    writeFileSync(join(cwd, ".gitignore"), "*.log\n");
    for (let d = 0; d < 30; d++) {
      mkdirSync(join(cwd, `d${d}`, "sub"), { recursive: true });
      for (let f = 0; f < 100; f++) {
        const n = d * 100 + f;
        const text = n % 7 === 0
          ? `line\nneedle ${n}\n`
          : n % 50 === 0
          ? "needle\0bin"
          : `x ${n}\n`;
        writeFileSync(
          join(cwd, `d${d}`, f % 2 ? "sub" : "", `f${f}.${f % 10 === 3 ? "log" : "ts"}`),
          text,
        );
      }
    }
    const calls = [{ pattern: "needle", max_results: 1000 }, { pattern: "needle 29\\d\\d" }];
    server.script([
      ...calls.map((args) => ({ toolCalls: [{ name: "grep", args }] })),
      { text: "done" },
    ]);
    server.requests.length = 0;
    mkdirSync(join(home, ".xcsh", "agent"), { recursive: true });
    writeFileSync(
      join(home, ".xcsh", "agent", "config.yml"),
      `providers:\n  local: { type: openai-compatible, baseURL: "${server.url}/v1" }\n`,
    );
    const r = await runXcsh(["__child"], {
      cwd,
      home,
      stdin: planText({
        id: "0-bigsearch",
        agent: { name: "searcher", description: "Searches", systemPrompt: "Search." },
        assignment: "Search the tree.",
        model: "local/mock",
        cwd,
        config: userConfig(home),
        limits: { maxTurns: 10, timeoutMs: 60_000, submitRetries: 3 },
      }),
    });
    assert.equal(r.code, 0, r.stderr);
    const ends = r.stdout.split("\n").filter((l) => l.includes('"tool_end"')).map((l) =>
      JSON.parse(l)
    );
    const ctx = {
      cwd,
      signal: new AbortController().signal,
      env: {},
      findings: [],
      runTask: unavailableTaskRunner,
    };
    for (const [i, args] of calls.entries()) {
      const expected = await referenceGrep.run(args, ctx);
      assert.equal(ends[i].summary, expected.summary);
      // The tool output as the model received it in the next request.
      assert.ok(
        JSON.stringify(server.requests[i + 1].body).includes(
          JSON.stringify(expected.output).slice(1, -1),
        ),
        `grep ${JSON.stringify(args)}: the output sent to the model is the reference output`,
      );
    }
    assert.match(ends[0].summary, /^\d+ matches in 2\d\d\d files$/);
  });
});
