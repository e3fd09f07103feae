// The grep and find tools inside the real binary: a child started with an
// envelope calls them on a real folder tree (a repository with nested
// .gitignore files, a binary file and a CRLF file) against the local model
// server, and the outputs sent back to the model are those the tools give.

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { requireBinary, runXcsh } from "../support/cli.ts";
import { startModelServer } from "../support/model-server.ts";

let scratch = "";
before(() => {
  requireBinary();
  scratch = mkdtempSync(join(tmpdir(), "xcsh-e2e-search-"));
});
after(() => rmSync(scratch, { recursive: true, force: true }));

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
    const server = await startModelServer({
      turns: [
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
      ],
    });
    try {
      mkdirSync(join(home, ".xcsh", "agent"), { recursive: true });
      writeFileSync(
        join(home, ".xcsh", "agent", "config.yml"),
        `providers:\n  local: { type: openai-compatible, baseURL: "${server.url}/v1" }\n`,
      );
      writeFileSync(join(cwd, "a".repeat(200)), "x");
      const r = await runXcsh(["__child"], {
        cwd,
        home,
        stdin: JSON.stringify({
          version: 1,
          id: "0-search",
          agent: { name: "searcher", description: "Searches", systemPrompt: "Search." },
          assignment: "Search the tree.",
          outputSchema: null,
          model: "local/mock",
          cwd,
          planMode: false,
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
    } finally {
      await server.close();
    }
  });
});
