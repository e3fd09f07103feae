// End-to-end tests of discovery on bad input: fixtures/bad plus what is made at test time (a file over
// 1 MiB, a non-UTF-8 file, an unreadable file and folder, a FIFO, more
// dangling symlinks and loops). Discovery goes on, names each bad file in
// exactly one warning line on stderr, prints no stack trace and exits 0;
// `agents check` exits 1 on the same tree.
//
// When the tests run as root, the binary runs as nobody (setpriv) so that
// permission bits apply. Needs `npm run build` first (npm test runs it).

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RunResult } from "../support/cli.ts";
import {
  makeDanglingSymlink,
  makeHugeFile,
  makeNonUtf8File,
  makeSymlinkLoop,
  makeUnreadable,
  type Materialized,
  materializeFixture,
  rel,
  runXcshUnprivileged,
} from "../support/fixtures.ts";

interface Listed {
  name: string;
  source: string;
  family: string;
  plugin?: string;
  filePath?: string;
  description?: string;
}

interface Diag {
  level: "warning" | "error";
  file?: string;
  field?: string;
  files?: string[];
  message: string;
}

const BUNDLED = ["explore", "plan", "designer", "reviewer", "task", "quick_task"];
const STACK_LINE = /^\s{4}at /m;
const CLAUDE = "home/.claude/agents";
const CODEX = "home/.codex/agents";

function line(root: string, a: Listed): string {
  const fam = a.plugin ? `${a.family}/${a.plugin}` : a.family;
  return `${a.name} ${a.source} ${fam} ${a.filePath ? rel(root, a.filePath) : "(built in)"}`;
}

/** The agents that load from the bad tree, in order. */
const GOOD_AGENTS = [
  "p-good project xcsh home/proj/.xcsh/agents/p-good.md",
  `bad-thinking user claude ${CLAUDE}/bad-thinking.md`,
  `dup user claude ${CLAUDE}/dup-a.md`,
  `fallback user claude ${CLAUDE}/fallback.md`,
  `good user claude ${CLAUDE}/good.md`,
  `unknown-tools user claude ${CLAUDE}/unknown-tools.md`,
  `codex-ok user codex ${CODEX}/ok.toml`,
  "plug-good user plugin/good-plug@mkt home/.claude/plugins/cache/good-plug/agents/plug-good.md",
  ...BUNDLED.map((n) => `${n} bundled bundled (built in)`),
];

/** Every path that must be named by exactly one warning line, with its reason. */
const WARNED: Record<string, RegExp> = {
  "home/.claude/settings.json": /not valid JSON.*its enabledPlugins are ignored/,
  "home/proj/.claude/settings.local.json": /'enabledPlugins' must be an object/,
  "home/.claude/plugins/installed_plugins.json": new RegExp(
    "plugin gone@mkt: installPath does not exist .*" +
      "plugin relative@mkt: installPath is not absolute \\(plugins/cache/relative\\).*" +
      "plugin no-path@mkt: installPath missing",
  ),
  "home/.xcsh/agent/agents": /is a file, not a folder/,
  "home/.gemini/agents": /cannot read folder \(permission denied\)/,
  [`${CLAUDE}/bad-thinking.md`]: /unknown thinking level "extreme"/,
  [`${CLAUDE}/dangling.md`]: /skipped: dangling symlink/,
  [`${CLAUDE}/fallback.md`]: new RegExp(
    "^frontmatter is not valid YAML, so it was read line by line: 'name' is given twice " +
      "\\(lines 1 and 4\\); the first is used\\. To fix: put the value of 'description' " +
      "\\(line 2\\) in quotes",
  ),
  [`${CLAUDE}/folder.md`]: /skipped: is a folder, not a file/,
  [`${CLAUDE}/huge.md`]: /skipped: .*over the 1 MiB limit/,
  [`${CLAUDE}/latin1.md`]: /skipped: file is not valid UTF-8/,
  [`${CLAUDE}/loop-a.md`]: /skipped: symlink loop/,
  [`${CLAUDE}/loop-b.md`]: /skipped: symlink loop/,
  [`${CLAUDE}/no-frontmatter.md`]: /skipped: no frontmatter/,
  [`${CLAUDE}/no-name.md`]: /skipped: missing required field 'name'/,
  [`${CLAUDE}/pipe.md`]: /skipped: is not a regular file/,
  [`${CLAUDE}/secret.md`]: /skipped: permission denied/,
  [`${CODEX}/broken.toml`]: /skipped: invalid TOML/,
  [`${CODEX}/gone.toml`]: /skipped: dangling symlink/,
  [`${CODEX}/loop-1.toml`]: /skipped: symlink loop/,
  [`${CODEX}/loop-2.toml`]: /skipped: symlink loop/,
};

/** Splits stderr into `{file, level, message}` per `xcsh: LEVEL: FILE: message` line. */
function warningLines(root: string, stderr: string): { file: string; message: string }[] {
  return stderr.split("\n").filter((l) => l !== "").map((l) => {
    const m = /^xcsh: warning: (\/[^:]+): (.*)$/.exec(l);
    assert.ok(m, `not a one-line warning naming a file: ${l}`);
    return { file: rel(root, m[1]), message: m[2] };
  });
}

function assertNoStackTrace(r: RunResult): void {
  assert.doesNotMatch(r.stderr, STACK_LINE, r.stderr);
  assert.doesNotMatch(r.stdout, STACK_LINE, r.stdout);
}

describe("discovery on fixtures/bad", () => {
  let fx: Materialized;
  let home: string;
  let cwd: string;
  const run = (args: string[], env: Record<string, string> = {}) =>
    runXcshUnprivileged(args, { home, cwd, env });

  before(() => {
    fx = materializeFixture("bad");
    home = join(fx.root, "home");
    cwd = join(home, "proj");
    const claude = join(fx.root, CLAUDE);
    makeHugeFile(join(claude, "huge.md"));
    makeNonUtf8File(join(claude, "latin1.md"));
    writeFileSync(join(claude, "secret.md"), "---\nname: secret\ndescription: Hidden\n---\nx\n");
    makeUnreadable(join(claude, "secret.md"));
    const fifo = spawnSync("mkfifo", [join(claude, "pipe.md")]);
    assert.equal(fifo.status, 0, `mkfifo failed: ${fifo.stderr}`);
    const codex = join(fx.root, CODEX);
    makeDanglingSymlink(join(codex, "gone.toml"));
    makeSymlinkLoop(join(codex, "loop-1.toml"), join(codex, "loop-2.toml"));
    const gemini = join(home, ".gemini", "agents");
    mkdirSync(gemini, { recursive: true });
    writeFileSync(join(gemini, "hidden.md"), "---\nname: hidden\ndescription: Hidden\n---\nx\n");
    makeUnreadable(gemini);
  });
  after(() => fx.cleanup());

  test("agents --json: the good agents load, in order; exit 0", async () => {
    const r = await run(["agents", "--all", "--json"]);
    assert.equal(r.code, 0, r.stderr);
    assertNoStackTrace(r);
    const json = JSON.parse(r.stdout) as { agents: Listed[]; shadowed: Listed[] };
    assert.deepEqual(json.agents.map((a) => line(fx.root, a)), GOOD_AGENTS);
    // Two files of one folder with the same name: the first in byte order wins.
    assert.deepEqual(json.shadowed.map((a) => line(fx.root, a)), [
      `dup user claude ${CLAUDE}/dup-b.md`,
    ]);
    // The fallback parser kept the description with its colons.
    const fallback = json.agents.find((a) => a.name === "fallback")!;
    assert.equal(
      fallback.description,
      "Use this agent when: the YAML is not strict: it has colons",
    );
  });

  test("without --verbose the warnings are one summary line", async () => {
    for (const env of [{}, { XCSH_VERBOSE: "0" }] as Record<string, string>[]) {
      const r = await run(["agents", "--json"], env);
      assert.equal(r.code, 0);
      assert.equal(
        r.stderr,
        `xcsh: ${Object.keys(WARNED).length} agent files have warnings (xcsh agents check)\n`,
      );
    }
  });

  test("each bad file is named in exactly one warning line, with its reason", async () => {
    const r = await run(["agents", "--json", "--verbose"]);
    assert.equal(r.code, 0);
    assert.equal(
      (await run(["agents", "--json"], { XCSH_VERBOSE: "1" })).stderr,
      r.stderr,
      "XCSH_VERBOSE=1 is --verbose",
    );
    assert.equal(r.code, 0);
    assertNoStackTrace(r);
    const lines = warningLines(fx.root, r.stderr);
    assert.deepEqual(
      lines.map((l) => l.file).sort(),
      Object.keys(WARNED).sort(),
      `stderr:\n${r.stderr}`,
    );
    for (const l of lines) assert.match(l.message, WARNED[l.file], l.file);
    // Nothing about good files, nor about a folder that is simply missing.
    assert.ok(!r.stderr.includes("gemini-cli"), "a missing folder is not a warning");
    assert.ok(!r.stderr.includes("good.md"));
  });

  test("installed_plugins.json that is not JSON, or has the wrong shape", async () => {
    for (
      const [dir, reason] of [
        ["claude-notjson", /not valid JSON.*no plugin agents loaded/],
        ["claude-shape", /expected an object with a 'plugins' object.*no plugin agents loaded/],
      ] as const
    ) {
      const r = await run(["agents", "--json", "--verbose"], {
        CLAUDE_CONFIG_DIR: join(fx.root, dir),
      });
      assert.equal(r.code, 0, r.stderr);
      assertNoStackTrace(r);
      const json = JSON.parse(r.stdout) as { agents: Listed[] };
      // The claude user folder moved to DIR/agents, which is missing: silent.
      assert.deepEqual(json.agents.map((a) => line(fx.root, a)), [
        "p-good project xcsh home/proj/.xcsh/agents/p-good.md",
        `codex-ok user codex ${CODEX}/ok.toml`,
        ...BUNDLED.map((n) => `${n} bundled bundled (built in)`),
      ]);
      const registry = `${dir}/plugins/installed_plugins.json`;
      const named = warningLines(fx.root, r.stderr).filter((l) => l.file === registry);
      assert.equal(named.length, 1, r.stderr);
      assert.match(named[0].message, reason);
    }
  });

  test("agents check exits 1 and reports every problem (text)", async () => {
    const r = await run(["agents", "check"]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assertNoStackTrace(r);
    for (const file of Object.keys(WARNED)) {
      assert.ok(r.stdout.includes(join(fx.root, file)), `${file} not reported:\n${r.stdout}`);
    }
    // Unknown tools are warnings, one line per tool naming the agents.
    for (const tool of ["Frobnicate", "Teleport"]) {
      assert.match(
        r.stdout,
        new RegExp(
          `^warning: tools: '${tool}' is not an xcsh tool, so it grants nothing ` +
            "\\(asked for by 1 agent: unknown-tools\\); the agents run without it$",
          "m",
        ),
      );
    }
    assert.match(r.stdout, /^warning: .*bad-thinking\.md: thinking: unknown thinking level/m);
    assert.match(r.stdout, /dup-b\.md: name: name "dup" is already defined by .*dup-a\.md/);
    assert.match(r.stdout, /^checked \d+ files: \d+ errors, 4 warnings$/m);
  });

  test("agents check --json: errors for files that cannot load, warnings for the rest", async () => {
    const r = await run(["agents", "check", "--json"]);
    assert.equal(r.code, 1);
    const json = JSON.parse(r.stdout) as {
      files: { path: string; name: string | null; ok: boolean }[];
      diagnostics: Diag[];
      errors: number;
      warnings: number;
    };
    const levelOf = (file: string) =>
      json.diagnostics.filter((d) => d.file === join(fx.root, file)).map((d) => d.level);
    assert.deepEqual(levelOf(`${CLAUDE}/fallback.md`), ["warning"]);
    assert.deepEqual(levelOf(`${CLAUDE}/dup-b.md`), ["error"]);
    assert.deepEqual(levelOf(`${CLAUDE}/no-name.md`), ["error"]);
    assert.deepEqual(levelOf(`${CLAUDE}/bad-thinking.md`), ["warning"]);
    // Unknown tools: one warning per tool, listing the files asking for it.
    const tools = json.diagnostics.filter((d) => d.field === "tools");
    assert.deepEqual(
      tools.map((d) => [d.level, d.files?.map((f) => rel(fx.root, f))]),
      [
        ["warning", [`${CLAUDE}/unknown-tools.md`]],
        ["warning", [`${CLAUDE}/unknown-tools.md`]],
      ],
    );
    assert.deepEqual(levelOf(`${CLAUDE}/good.md`), []);
    assert.deepEqual(levelOf(`${CODEX}/ok.toml`), []);
    for (const file of Object.keys(WARNED)) {
      const loads = file.endsWith("fallback.md") || file.endsWith("bad-thinking.md");
      assert.ok(levelOf(file).includes(loads ? "warning" : "error"), file);
    }
    assert.equal(json.warnings, 4);
    assert.equal(json.errors, json.diagnostics.length - 4);
    const ok = json.files.filter((f) => f.ok).map((f) => rel(fx.root, f.path));
    assert.ok(ok.includes(`${CLAUDE}/good.md`) && ok.includes(`${CODEX}/ok.toml`));
    assert.ok(!json.files.some((f) => f.path.endsWith("no-name.md") && f.ok));
  });

  test("agents check PATH on single files", async () => {
    const check = async (files: string[]) => {
      const r = await run(["agents", "check", "--json", ...files.map((f) => join(fx.root, f))]);
      assertNoStackTrace(r);
      const json = JSON.parse(r.stdout) as { diagnostics: Diag[]; errors: number };
      return { code: r.code, json };
    };
    const cases: [string[], number, RegExp | null][] = [
      [[`${CLAUDE}/good.md`], 0, null],
      [[`${CODEX}/ok.toml`], 0, null],
      [[`${CLAUDE}/fallback.md`], 0, /^frontmatter is not valid YAML/],
      [[`${CLAUDE}/no-name.md`], 1, /missing required field 'name'/],
      [[`${CLAUDE}/unknown-tools.md`], 0, /'Frobnicate' is not an xcsh tool/],
      [[`${CLAUDE}/bad-thinking.md`], 0, /unknown thinking level/],
      [[`${CODEX}/broken.toml`], 1, /invalid TOML/],
      [[`${CLAUDE}/huge.md`], 1, /over the 1 MiB limit/],
      [[`${CLAUDE}/latin1.md`], 1, /not valid UTF-8/],
      [[`${CLAUDE}/dangling.md`], 1, /cannot read|dangling/],
      [[`${CLAUDE}/dup-a.md`, `${CLAUDE}/dup-b.md`], 1, /already defined by .*dup-a\.md/],
      [[`${CLAUDE}/no-such-file.md`], 1, /cannot read/],
    ];
    for (const [files, code, message] of cases) {
      const r = await check(files);
      assert.equal(r.code, code, `${files}: ${JSON.stringify(r.json.diagnostics)}`);
      if (message) {
        assert.ok(r.json.diagnostics.some((d) => message.test(d.message)), `${files}`);
      } else assert.deepEqual(r.json.diagnostics, [], `${files}`);
    }
  });

  test("doctor names every folder and plugin install, with the warnings", async () => {
    const r = await run(["doctor", "--json"]);
    assert.equal(r.code, 0, r.stderr);
    assertNoStackTrace(r);
    const json = JSON.parse(r.stdout) as {
      folders: {
        family: string;
        scope: string;
        path: string;
        exists: boolean;
        count: number;
        problem?: string;
      }[];
      plugins: { installs: { id: string; included: boolean; reason: string }[] };
      warnings: Diag[];
    };
    assert.deepEqual(
      json.folders.map((f) =>
        `${f.family} ${f.scope} ${rel(fx.root, f.path)} ${
          f.problem ?? (f.exists ? f.count : "missing")
        }`
      ),
      [
        "xcsh project home/proj/.xcsh/agents 1",
        "xcsh user home/.xcsh/agent/agents not a folder",
        // six valid definitions: dup-b.md parses too (and is shadowed by dup-a.md)
        "claude user home/.claude/agents 6",
        "codex user home/.codex/agents 1",
        "gemini user home/.gemini/agents unreadable (permission denied)",
        "gemini user home/.config/gemini-cli/agents missing",
        "plugin user home/.claude/plugins/cache/good-plug/agents 1",
      ],
    );
    assert.deepEqual(json.plugins.installs.map((i) => [i.id, i.included, i.reason]), [
      [
        "gone@mkt",
        false,
        `installPath does not exist (${join(home, ".claude/plugins/cache/gone")})`,
      ],
      ["relative@mkt", false, "installPath is not absolute (plugins/cache/relative)"],
      ["no-path@mkt", false, "installPath missing"],
      ["good-plug@mkt", true, "user install"],
    ]);
    assert.deepEqual(
      json.warnings.map((w) => rel(fx.root, w.file!)).sort(),
      Object.keys(WARNED).sort(),
    );
  });
});
