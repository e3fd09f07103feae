// End-to-end: the instruction files and the environment block in a child's
// system prompt, read by the real binary from real folders, asserted on the
// system text the local model server received (OpenAI wire format).
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runXcsh } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import { agentMd, systemPrompt, type World } from "../support/world.ts";

const harness = modelHarness();
const { server } = harness;

/**
 * A world whose project is a git repository with a `sub` folder; the run
 * starts in `sub`. Files are written relative to the world's root
 * (`home/…`, `project/…`).
 */
function world(files: Record<string, string | Uint8Array> = {}): World & { sub: string } {
  const w = harness.world();
  execFileSync("git", ["init", "-q", "-b", "trunk", w.cwd]);
  const sub = join(w.cwd, "sub");
  mkdirSync(sub);
  for (const [rel, text] of Object.entries(files)) {
    const abs = join(w.root, rel);
    mkdirSync(join(abs, ".."), { recursive: true });
    writeFileSync(abs, text);
  }
  return { ...w, sub };
}

/** Runs quick_task once (one model answer) and returns the system text it got. */
async function promptOf(
  w: World & { sub: string },
  env: Record<string, string> = {},
  agent = "quick_task",
): Promise<{ system: string; stderr: string }> {
  server.script([{ text: "done" }]);
  server.requests.length = 0;
  const r = await runXcsh(["run", agent, "go"], { cwd: w.sub, home: w.home, env });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(server.requests.length, 1);
  return { system: systemPrompt(server.requests[0]), stderr: r.stderr };
}

function today(): string {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

describe("instruction files in the child's prompt", () => {
  test("the user's four files, then the project's from the git root down to cwd", async () => {
    const w = world({
      "home/.xcsh/agent/AGENTS.md": "U-XCSH: user xcsh rules",
      "home/.claude/CLAUDE.md": "U-CLAUDE: user claude rules",
      "home/.codex/AGENTS.md": "U-CODEX: user codex rules",
      "home/.gemini/GEMINI.md": "U-GEMINI: user gemini rules",
      "project/AGENTS.md": "P-ROOT-AGENTS",
      "project/CLAUDE.md": "P-ROOT-CLAUDE",
      "project/CLAUDE.local.md": "P-ROOT-LOCAL",
      "project/GEMINI.md": "P-ROOT-GEMINI",
      "project/sub/AGENTS.md": "P-SUB-AGENTS",
    });
    const { system } = await promptOf(w, { SHELL: "/bin/zsh" });
    const order = [
      "U-XCSH",
      "U-CLAUDE",
      "U-CODEX",
      "U-GEMINI",
      "P-ROOT-AGENTS",
      "P-ROOT-CLAUDE",
      "P-ROOT-LOCAL",
      "P-ROOT-GEMINI",
      "P-SUB-AGENTS",
    ];
    const at = order.map((m) => system.indexOf(m));
    for (const [i, pos] of at.entries()) assert.ok(pos > 0, `${order[i]} is in the prompt`);
    assert.deepEqual([...at].sort((a, b) => a - b), at, "in the documented order");
    assert.ok(system.includes(`### ${join(w.cwd, "sub", "AGENTS.md")} (project)`));
    assert.ok(system.includes(`### ${join(w.home, ".claude", "CLAUDE.md")} (user)`));
    // The environment block.
    assert.match(system, /^Date: \d{4}-\d{2}-\d{2}$/m);
    const date = /^Date: (.*)$/m.exec(system)?.[1];
    assert.ok(date === today() || date! < today(), `${date} is today`);
    assert.match(system, /^Shell: zsh$/m);
    assert.match(system, /^OS: \S+/m);
    assert.ok(system.includes(`Working directory: ${w.sub}.`));
    assert.match(system, /^Git branch: trunk$/m);
    assert.match(system, /\?\? AGENTS\.md/, "git status lists the untracked files");
  });

  test("CLAUDE_CONFIG_DIR and CODEX_HOME move the user's files", async () => {
    const w = world({
      "elsewhere/claude/CLAUDE.md": "MOVED-CLAUDE",
      "elsewhere/codex/AGENTS.md": "MOVED-CODEX",
      "home/.claude/CLAUDE.md": "DEFAULT-CLAUDE",
    });
    const { system } = await promptOf(w, {
      CLAUDE_CONFIG_DIR: join(w.root, "elsewhere", "claude"),
      CODEX_HOME: join(w.root, "elsewhere", "codex"),
    });
    assert.ok(system.includes("MOVED-CLAUDE"));
    assert.ok(system.includes("MOVED-CODEX"));
    assert.ok(!system.includes("DEFAULT-CLAUDE"));
  });

  test("identical files appear once", async () => {
    const w = world({
      "home/.claude/CLAUDE.md": "SAME-TEXT everywhere\n",
      "project/AGENTS.md": "SAME-TEXT everywhere\n",
      "project/sub/CLAUDE.md": "SAME-TEXT everywhere",
    });
    const { system } = await promptOf(w);
    assert.equal(system.split("SAME-TEXT").length, 2, "exactly one copy");
  });

  test("past the 32 KiB cap the farthest file is cut and a note says so", async () => {
    const w = world({
      "home/.claude/CLAUDE.md": "FAR-START " + "far ".repeat(10_000) + "FAR-END",
      "project/sub/AGENTS.md": "NEAR-START " + "near ".repeat(4_000) + "NEAR-END",
    });
    const { system } = await promptOf(w);
    assert.ok(system.includes("NEAR-END"), "the nearest file is whole");
    assert.ok(system.includes("FAR-START") && !system.includes("FAR-END"), "the far one is cut");
    assert.ok(
      system.includes(`${join(w.home, ".claude", "CLAUDE.md")} was cut after`),
      "the note names the file",
    );
    assert.match(system, /capped at 32 KiB/);
  });

  for (const [field, value] of [["omitClaudeMd", "true"], ["context", "false"]]) {
    test(`an agent with ${field}: ${value} gets no instruction files, still the environment`, async () => {
      const w = world({
        "home/.claude/CLAUDE.md": "USER-RULES",
        "project/AGENTS.md": "PROJECT-RULES",
      });
      writeFileSync(
        join(w.cwd, ".xcsh", "agents", "bare.md"),
        agentMd("bare", `${field}: ${value}\nmodel: local/mock-small\n`),
      );
      const { system } = await promptOf(w, {}, "bare");
      assert.ok(!system.includes("USER-RULES") && !system.includes("PROJECT-RULES"), system);
      assert.ok(!system.includes("## Instructions from the user"));
      assert.match(system, /^Git branch: trunk$/m);
    });
  }

  test("an opt-out of the wrong type is a warning naming the file and field", async () => {
    const w = world({ "project/AGENTS.md": "PROJECT-RULES" });
    const file = join(w.cwd, ".xcsh", "agents", "odd.md");
    writeFileSync(file, agentMd("odd", "omitClaudeMd: maybe\nmodel: local/mock-small\n"));
    const r = await runXcsh(["agents", "check", file], { cwd: w.sub, home: w.home });
    assert.match(r.stderr + r.stdout, /odd\.md.*'omitClaudeMd' must be true or false/);
  });

  test("--dry-run lists the files that would be included", async () => {
    const w = world({
      "home/.claude/CLAUDE.md": "user rules",
      "project/AGENTS.md": "root rules",
      "project/sub/GEMINI.md": "sub rules",
    });
    server.requests.length = 0;
    const r = await runXcsh(["run", "quick_task", "--dry-run", "go"], {
      cwd: w.sub,
      home: w.home,
    });
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(out.contextFiles, [
      { path: join(w.home, ".claude", "CLAUDE.md"), scope: "user", bytes: 10 },
      { path: join(w.cwd, "AGENTS.md"), scope: "project", bytes: 10 },
      { path: join(w.cwd, "sub", "GEMINI.md"), scope: "project", bytes: 9 },
    ]);
    const ctx = out.tasks[0].envelope.promptContext;
    assert.equal(ctx.version, 1);
    assert.equal(ctx.files[2].text, "sub rules");
    assert.equal(ctx.environment.gitBranch, "trunk");
    assert.equal(server.requests.length, 0, "no model call");
  });

  test("a walk from inside HOME never reads HOME's own files as the project's", async () => {
    const w = world({ "home/AGENTS.md": "HOME-LEVEL", "home/work/AGENTS.md": "WORK-LEVEL" });
    const cwd = join(w.home, "work");
    server.script([{ text: "done" }]);
    server.requests.length = 0;
    const r = await runXcsh(["run", "quick_task", "go"], { cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    const system = systemPrompt(server.requests[0]);
    assert.ok(system.includes("WORK-LEVEL"));
    assert.ok(!system.includes("HOME-LEVEL"));
  });
});

describe("bad instruction files are skipped with one warning each", () => {
  test("huge, binary, a FIFO, a folder named AGENTS.md and an unreadable symlink loop", async () => {
    const w = world({
      "project/AGENTS.md": "x".repeat(2 * 1024 * 1024),
      "project/CLAUDE.md": new Uint8Array([0x68, 0x69, 0, 0xff, 0]),
      "project/GEMINI.md": "GOOD-ROOT-GEMINI",
      "home/.claude/CLAUDE.md": "GOOD-USER",
    });
    execFileSync("mkfifo", [join(w.cwd, "sub", "CLAUDE.md")]);
    mkdirSync(join(w.cwd, "sub", "AGENTS.md"));
    symlinkSync(join(w.cwd, "sub", "GEMINI.md"), join(w.cwd, "sub", "GEMINI.md"));
    const { system, stderr } = await promptOf(w);
    assert.ok(system.includes("GOOD-ROOT-GEMINI") && system.includes("GOOD-USER"));
    const warnings = stderr.split("\n").filter((l) => l.includes("instruction file skipped"));
    const expect: [string, RegExp][] = [
      [join(w.cwd, "AGENTS.md"), /is 2097152 bytes, more than the 1048576/],
      [join(w.cwd, "CLAUDE.md"), /looks like a binary file/],
      [join(w.cwd, "sub", "CLAUDE.md"), /not a regular file/],
      [join(w.cwd, "sub", "AGENTS.md"), /is a folder, not a file/],
      [join(w.cwd, "sub", "GEMINI.md"), /cannot be read \(ELOOP\)/],
    ];
    assert.equal(warnings.length, expect.length, stderr);
    for (const [file, reason] of expect) {
      const line = warnings.find((l) => l.includes(`${file}:`));
      assert.ok(line, `one warning names ${file}`);
      assert.match(line!, /^xcsh: warning: /);
      assert.match(line!, reason);
    }
    assert.ok(!/\n\s+at /.test(stderr), "no stack trace");
  });
});
