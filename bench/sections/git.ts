/**
 * The cost of hardening xcsh's own git calls: the context block's git facts
 * (the place check, the config test, `git status` with the overrides)
 * against a plain `git status --porcelain=v1 --branch` in the same
 * repository (the old way), once with the config `git init` writes and once
 * with one that calls for the `git config --list` pass; and creating an
 * isolated worktree (`createWorktree`) against the old way's two git calls
 * (`show-ref`, `worktree add`), in both repositories. Alternated, so both
 * see the same machine.
 *
 * @module
 */
import { execFile, execFileSync } from "node:child_process";
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { gitFacts } from "../../src/plan/environment-facts.ts";
import { createWorktree, removeWorktree, repoBase } from "../../src/git/worktree.ts";
import { tmp } from "../measure.ts";
import { details, limitRow, log, median } from "../report.ts";

const RUNS = 30;
/** Extra milliseconds the hardened calls may cost. */
const EXTRA_LIMIT_MS = 5;

function plainGit(cwd: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      args,
      { cwd, env: { ...process.env, GIT_OPTIONAL_LOCKS: "0" } },
      (err) => err ? reject(err) : resolve(),
    );
  });
}

function makeRepo(dir: string): void {
  mkdirSync(join(dir, "src"), { recursive: true });
  for (let i = 0; i < 200; i++) {
    writeFileSync(join(dir, "src", `f${i}.ts`), `export const x${i} = ${i};\n`);
  }
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=b", "-c", "user.email=b@example.com", ...args], {
      cwd: dir,
    });
  git("init", "-q", "-b", "main");
  git("add", ".");
  git("commit", "-q", "-m", "one");
  writeFileSync(join(dir, "src", "f1.ts"), "changed\n");
}

async function pair(
  hardened: () => Promise<unknown>,
  plain: () => Promise<unknown>,
): Promise<{ hardened: number[]; plain: number[] }> {
  const out = { hardened: [] as number[], plain: [] as number[] };
  for (let i = 0; i < RUNS; i++) {
    let t = performance.now();
    await plain();
    out.plain.push(performance.now() - t);
    t = performance.now();
    await hardened();
    out.hardened.push(performance.now() - t);
  }
  return out;
}

/** `createWorktree` against the old way's two git calls, in `repo`. */
async function worktreePair(
  repo: string,
  env: Record<string, string | undefined>,
  home: string,
  tag: string,
): Promise<{ hardened: number[]; plain: number[] }> {
  const base = await repoBase(repo, env, home);
  if (!base.ok) throw new Error(base.message);
  const wtDir = tmp(`git-worktrees-${tag}`);
  let n = 0;
  const made: { path: string; branch: string }[] = [];
  const times = await pair(
    async () => made.push(await createWorktree(base.value, wtDir, `h${n++}`)),
    async () => {
      const branch = `plain/p${n}`;
      const path = join(wtDir, `p${n}`);
      await plainGit(repo, ["show-ref", "--verify", "--quiet", `refs/heads/${branch}`]).catch(
        () => {},
      );
      await plainGit(repo, ["worktree", "add", "--quiet", "-b", branch, path, base.value.head]);
      made.push({ path, branch });
    },
  );
  for (const w of made) await removeWorktree(repo, w.path, w.branch);
  return times;
}

export async function benchGit(): Promise<void> {
  try {
    execFileSync("git", ["--version"], { stdio: "ignore" });
  } catch {
    log("git: skipped (no git on PATH)");
    return;
  }
  const home = tmp("git-home");
  const env = { ...process.env, HOME: home };
  const plainRepo = tmp("git-plain");
  makeRepo(plainRepo);
  const status = ["status", "--porcelain=v1", "--branch", "--untracked-files=normal"];
  const facts = await pair(
    () => gitFacts(plainRepo, env, home),
    () => plainGit(plainRepo, status),
  );
  const listedRepo = tmp("git-listed");
  makeRepo(listedRepo);
  appendFileSync(
    join(listedRepo, ".git", "config"),
    '[remote "origin"]\n\turl = https://example.com/clean.git\n',
  );
  const listed = await pair(
    () => gitFacts(listedRepo, env, home),
    () => plainGit(listedRepo, status),
  );
  const worktree = await worktreePair(plainRepo, env, home, "a");
  const worktreeListed = await worktreePair(listedRepo, env, home, "b");
  const rows: [string, { hardened: number[]; plain: number[] }][] = [
    ["context block: git facts vs plain git status", facts],
    ["context block, config listed: vs plain git status", listed],
    ["worktree creation vs plain show-ref + worktree add", worktree],
    ["worktree creation, config listed: vs plain calls", worktreeListed],
  ];
  for (const [name, r] of rows) {
    limitRow("git", `${name} (extra)`, median(r.hardened) - median(r.plain), EXTRA_LIMIT_MS, "ms");
  }
  details.git = {
    factsMs: facts,
    listedMs: listed,
    worktreeMs: worktree,
    worktreeListedMs: worktreeListed,
    medians: Object.fromEntries(
      rows.map(([k, r]) => [k, { hardened: median(r.hardened), plain: median(r.plain) }]),
    ),
  };
}
