// End-to-end tests of odd input that used to escape as internal errors or
// runtime noise: model names that are also names of object properties, YAML
// tags xcsh does not know, and names so long they widened every table row.
//
// Needs `npm run build` first (npm test runs it).

import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { requireBinary, runXcsh } from "../support/cli.ts";
import { makeWorld } from "../support/world.ts";

requireBinary();
const w = makeWorld("models:\n  default: ollama/qwen3\n");
after(() => w.cleanup());

test("constructor-like model names are ordinary unknown names", async () => {
  const cases: [string, RegExp][] = [
    ["xcsh/constructor", /'xcsh\/constructor' names models\.roles\.constructor, which is not set/],
    ["pi/toString", /'pi\/toString' names models\.roles\.toString, which is not set/],
    ["xcsh/__proto__", /names models\.roles\.__proto__, which is not set/],
    ["constructor/x", /unknown provider 'constructor' in 'constructor\/x'/],
  ];
  for (const [model, message] of cases) {
    const r = await runXcsh(["run", "--model", model, "quick_task", "x"], {
      cwd: w.cwd,
      home: w.home,
    });
    assert.equal(r.code, 2, `${model}: ${r.stderr}`);
    assert.match(r.stderr, message);
    assert.doesNotMatch(r.stderr, /TypeError|is not a function|internal error/);
    // A dry run needs no model: it succeeds and says why none resolved.
    const dry = await runXcsh(["run", "--dry-run", "--model", model, "quick_task", "x"], {
      cwd: w.cwd,
      home: w.home,
    });
    assert.equal(dry.code, 0, `${model}: ${dry.stderr}`);
    assert.match(dry.stderr, /^xcsh: dry run: \[0-quick_task\] no model: /m);
    assert.match(dry.stderr, message);
    assert.doesNotMatch(dry.stderr, /TypeError|is not a function|internal error/);
  }
});

test("an unknown YAML tag is one warning line naming the file, no runtime warning", async () => {
  const agent = join(w.cwd, ".xcsh", "agents", "tagged.md");
  writeFileSync(agent, '---\nname: tagged\ndescription: !weird "a thing"\n---\nHi\n');
  const config = join(w.cwd, ".xcsh", "config.yml");
  writeFileSync(config, "task: !foo\n  timeout: 5\n");
  const quiet = await runXcsh(["agents"], { cwd: w.cwd, home: w.home });
  assert.equal(quiet.stderr, "xcsh: 1 agent file has warnings (xcsh agents check)\n");
  const r = await runXcsh(["agents", "--verbose"], { cwd: w.cwd, home: w.home });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^tagged /m);
  assert.equal(
    r.stderr,
    `xcsh: warning: ${agent}: YAML: Unresolved tag: !weird at line 2, column 14\n`,
  );
  const run = await runXcsh(["run", "--dry-run", "quick_task", "x"], { cwd: w.cwd, home: w.home });
  assert.match(
    run.stderr,
    new RegExp(`^xcsh: warning: ${config}: YAML: Unresolved tag: !foo`, "m"),
  );
  assert.doesNotMatch(run.stderr + r.stderr, /YAMLWarning|trace-warnings|\(node:\d+\)/);
});

test("a long name is cut in the tables, not padded into every row; one over 128 is refused", async () => {
  // 128 characters: the longest an agent name may be (discovery/agent-name.ts).
  const long = "n".repeat(128);
  const t = makeWorld("models:\n  default: ollama/qwen3\n");
  try {
    t.addAgent("long", `---\nname: ${long}\ndescription: long one\n---\nHi.\n`);
    t.addAgent("huge", `---\nname: ${"n".repeat(10_000)}\ndescription: huge one\n---\nHi.\n`);
    t.addAgent("short", "---\nname: short\ndescription: short one\n---\nHi.\n");
    mkdirSync(join(t.cwd, ".xcsh", "commands"), { recursive: true });
    // A command is named by its file, which a file system allows 255 bytes.
    writeFileSync(join(t.cwd, ".xcsh", "commands", `${"n".repeat(240)}.md`), "Do it.\n");
    for (const args of [["agents"], ["agents", "--all"], ["commands"]]) {
      const r = await runXcsh(args, { cwd: t.cwd, home: t.home });
      assert.equal(r.code, 0, r.stderr);
      const lines = r.stdout.trimEnd().split("\n");
      for (const line of lines) {
        assert.ok(line.length <= 300, `${args.join(" ")}: a line of ${line.length} characters`);
      }
      assert.ok(lines.some((l) => l.startsWith("n".repeat(59) + "…  ")), r.stdout.slice(0, 400));
    }
    const short = (await runXcsh(["agents"], { cwd: t.cwd, home: t.home })).stdout
      .split("\n").find((l) => l.startsWith("short "));
    assert.ok(short && short.length < 150, short);
    const json = await runXcsh(["agents", "--json"], { cwd: t.cwd, home: t.home });
    const names = JSON.parse(json.stdout).agents.map((a: { name: string }) => a.name);
    assert.ok(names.includes(long));
    assert.ok(!names.some((n: string) => n.length > 128), "the 10 000-character name is skipped");
    const check = await runXcsh(["agents", "check"], { cwd: t.cwd, home: t.home });
    assert.match(check.stdout + check.stderr, /huge\.md: skipped: 'name' is 10000 characters long/);
  } finally {
    t.cleanup();
  }
});
