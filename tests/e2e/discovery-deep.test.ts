// End-to-end test of discovery at scale: a cwd 30
// levels deep with 2 000 agent files, generated at test time, is listed
// completely and in order — nearest folder per family, byte order of file
// names, first wins — also under a tight file-descriptor limit (256, the
// macOS default), where reading every file at once would fail with EMFILE.
// Asserts names and order only, never times.
//
// Needs `npm run build` first (npm test runs it).

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type RunResult, runXcsh } from "../support/cli.ts";
import { makeTempRoot, type Materialized, rel, runXcshVia } from "../support/fixtures.ts";

const BUNDLED = ["explore", "plan", "designer", "reviewer", "task", "quick_task"];
const DEPTH = 30;

/** Name prefixes whose byte order differs from a case-insensitive or numeric order. */
const PREFIXES = ["b", "B", "_", "a-", "A", "0", "z9", "\u00e9", "\u{1F600}"];

interface Folder {
  /** Relative to the temp root. */
  dir: string;
  family: string;
  source: "project" | "user";
  names: string[];
  ext?: ".toml";
}

interface Listed {
  name: string;
  source: string;
  family: string;
  filePath?: string;
}

/** Deterministic shuffled names: `count` names starting at `from`. */
function names(from: number, count: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const n = from + ((i * 7919) % count); // a permutation, so creation order is not sorted
    out.push(`${PREFIXES[n % PREFIXES.length]}${n}`);
  }
  return out;
}

/**
 * The agent name in a file named `stem`: agent names keep to a safe ASCII
 * set (`discovery/agent-name.ts`), file names need not, so the name spells
 * the stem's code points; one name per stem.
 */
function agentName(stem: string): string {
  return "n-" + [...stem].map((c) => c.codePointAt(0)!.toString(16)).join("-");
}

function agentText(name: string, where: string): string {
  return `---\nname: "${
    agentName(name)
  }"\ndescription: Generated agent ${name} in ${where}\n---\nBody.\n`;
}

function tomlText(name: string, where: string): string {
  return `name = "${agentName(name)}"\ndescription = "Generated agent ${name} in ${where}"\n` +
    `developer_instructions = "Body."\n`;
}

/** Level k of the deep path: home/l01/l02/…/lk. */
function level(k: number): string {
  const parts = ["home"];
  for (let i = 1; i <= k; i++) parts.push(`l${String(i).padStart(2, "0")}`);
  return parts.join("/");
}

describe("a cwd 30 levels deep with 2 000 agent files", () => {
  let tmp: Materialized;
  let home: string;
  let cwd: string;
  let expected: string[];

  before(() => {
    tmp = makeTempRoot("deep");
    home = join(tmp.root, "home");
    cwd = join(tmp.root, level(DEPTH));
    mkdirSync(cwd, { recursive: true });
    const folders: Folder[] = [
      // 1200 in the cwd's own .claude/agents; 200 of them collide with xcsh names
      {
        dir: `${level(DEPTH)}/.claude/agents`,
        family: "claude",
        source: "project",
        names: names(200, 1200),
      },
      { dir: `${level(12)}/.xcsh/agents`, family: "xcsh", source: "project", names: names(0, 400) },
      {
        dir: `${level(3)}/.codex/agents`,
        family: "codex",
        source: "project",
        names: names(1400, 100),
        ext: ".toml",
      },
      {
        dir: `${level(3)}/.codex/agents`,
        family: "codex",
        source: "project",
        names: names(1500, 100),
      },
      // user folder: 150 new names, and 50 that collide with the claude project folder
      { dir: "home/.gemini/agents", family: "gemini", source: "user", names: names(1600, 150) },
      { dir: "home/.gemini/agents", family: "gemini", source: "user", names: names(1000, 50) },
    ];
    for (const f of folders) {
      mkdirSync(join(tmp.root, f.dir), { recursive: true });
      for (const name of f.names) {
        const file = join(tmp.root, f.dir, name + (f.ext ?? ".md"));
        writeFileSync(file, f.ext ? tomlText(name, f.dir) : agentText(name, f.dir));
      }
    }
    const total = folders.reduce((n, f) => n + f.names.length, 0);
    assert.equal(total, 2000);
    // Decoys farther than the nearest folder of their family: never read.
    for (const [dir, name] of [[level(5), "decoy-xcsh"], [level(20), "decoy-claude"]]) {
      const family = name === "decoy-xcsh" ? ".xcsh" : ".claude";
      mkdirSync(join(tmp.root, dir, family, "agents"), { recursive: true });
      writeFileSync(join(tmp.root, dir, family, "agents", `${name}.md`), agentText(name, dir));
    }

    // The expected result, computed independently of the implementation: per
    // folder in precedence order, files in byte order of their UTF-8 names.
    const byDir = new Map<string, { file: string; name: string; f: Folder }[]>();
    for (const f of folders) {
      const list = byDir.get(f.dir) ?? [];
      for (const name of f.names) list.push({ file: name + (f.ext ?? ".md"), name, f });
      byDir.set(f.dir, list);
    }
    const order = [
      `${level(12)}/.xcsh/agents`,
      `${level(DEPTH)}/.claude/agents`,
      `${level(3)}/.codex/agents`,
      "home/.gemini/agents",
    ];
    const seen = new Set<string>();
    expected = [];
    for (const dir of order) {
      const files = byDir.get(dir)!.sort((a, b) =>
        Buffer.compare(Buffer.from(a.file), Buffer.from(b.file))
      );
      for (const { file, name, f } of files) {
        if (seen.has(name)) continue;
        seen.add(name);
        expected.push(`${agentName(name)} ${f.source} ${f.family} ${dir}/${file}`);
      }
    }
    for (const name of BUNDLED) expected.push(`${name} bundled bundled (built in)`);
  });
  after(() => tmp.cleanup());

  function check(r: RunResult): void {
    assert.equal(r.code, 0, r.stderr.slice(0, 2000));
    assert.equal(r.stderr, "", "no file may be skipped");
    const json = JSON.parse(r.stdout) as { agents: Listed[] };
    const got = json.agents.map((a) =>
      `${a.name} ${a.source} ${a.family} ${a.filePath ? rel(tmp.root, a.filePath) : "(built in)"}`
    );
    assert.equal(got.length, expected.length);
    assert.deepEqual(got, expected);
  }

  test("the listing is complete and in precedence and byte order", async () => {
    // 2000 files, 250 names shadowed (200 xcsh/claude, 50 claude/gemini), 6 bundled
    assert.equal(expected.length, 2000 - 250 + BUNDLED.length);
    check(await runXcsh(["agents", "--json"], { home, cwd }));
  });

  test("the same listing under a 256 file-descriptor limit", async (t) => {
    if (spawnSync("prlimit", ["--version"]).status !== 0) {
      t.skip("prlimit (util-linux) is not installed");
      return;
    }
    check(await runXcshVia(["prlimit", "--nofile=256:256"], ["agents", "--json"], { home, cwd }));
  });
});
