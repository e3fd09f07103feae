/**
 * `npm run bench`: measures xcsh against baselines taken in the same run and
 * prints one table (section, measurement, value, baseline, ratio, target,
 * pass/fail); writes the table to bench/RESULTS.md and every figure with the
 * raw samples to bench/results.json.
 *
 *   bun bench/run.ts [discovery] [coldstart] [task] [fanout] [scaling] [loop] [sandbox] [web]
 *                    [tools] [collections] [background] [git] [launcher] [stream] [ratelimit]
 *                    [tokens]
 *
 * With no argument every section runs. The targets are the project's; the run
 * reports them but exits 0 unless the bench itself crashed. Times are wall
 * clock medians; on a shared machine expect noise and read ratios, not
 * absolute milliseconds.
 *
 * Sections:
 * - discovery: a generated tree (4 families × project + user × 250 agents,
 *   20 plugins × 10 agents, cwd 30 folders deep); `discoverAgents` warm median
 *   and first call in a fresh process, each against the raw-I/O floor
 *   (bench/floor.ts) measured the same way; `dist/xcsh agents --json` on the
 *   same tree with the cache off (against the floor compiled like dist/xcsh),
 *   with an empty cache (a first run) and with the cache on disk.
 * - coldstart: `dist/xcsh --version` (≤ 2×) and `dist/xcsh agents --json`
 *   on a ~60-file tree (≤ 2.5×) vs an empty binary compiled with the same
 *   flags.
 * - task: `dist/xcsh run` against the local model server (answers at once):
 *   ≤ 25 ms wall, and against `dist/xcsh --version` for information, with
 *   the steps of a start (agents --json, run --dry-run, the sandbox off, a
 *   git repository) each against `--version`.
 * - fanout: 32 tasks at concurrency 8 vs 32 × a child's CPU time ÷ cores
 *   (≤ 1.2×; and, for information, vs 4 × one task); a child's CPU time
 *   (≤ 15 ms); for information, what else the run spends CPU on (the
 *   xcsh tree's beyond 32 children alone, and the bench's model server's);
 *   peak RSS of the `__child` processes, sampled from /proc during the run,
 *   and of one child run alone under /usr/bin/time -v.
 * - scaling: discovery at 250, 2 500 and 25 000 files; linear when the cost
 *   per extra 1000 files stays flat.
 * - loop: one child's agent loop (bench/sections/loop.ts): the cached share
 *   of input tokens over a scripted 10-turn task on the Anthropic wire (a
 *   server counting prompt-cache reads from the breakpoints), the cached
 *   share of the 2nd–8th first requests of an Anthropic fan-out of 8
 *   (≥ 90 %: they read the prefix the first task wrote), and a turn of
 *   four concurrent `task` calls against the slowest of them alone.
 * - sandbox: one bash tool call of `true` inside bubblewrap vs unsandboxed,
 *   and the bwrap probe.
 * - web: the HTML converter on a 5 MiB page, and a `web_fetch` call of it
 *   against a plain fetch of the same bytes.
 * - tools: the `grep` and `find` tools on a ~19 000-file tree against
 *   ripgrep (`rg`, Debian's `ripgrep` package; the section is skipped with a
 *   message when it is missing), and a full-tree grep's peak memory.
 * - collections: `dist/xcsh agents --json` on ~1 000 agent files shaped like
 *   public collections (bench/sections/collections.ts): warm ≤ 100 ms, and a
 *   first run with an empty definition cache ≤ 1.1× the run with it off.
 * - background: `dist/xcsh run --background` vs `dist/xcsh --version`.
 * - git: xcsh's hardened git calls (bench/sections/git.ts): the context
 *   block's git facts against a plain `git status`, with and without the
 *   config listing, and creating an isolated worktree against a plain
 *   `show-ref` + `worktree add`: each ≤ 5 ms more.
 * - launcher: a fan-out of 8 through `srun` on a one-node Slurm cluster
 *   started for the bench vs the same fan-out local (bench/sections/launcher.ts);
 *   skipped with the reason where the cluster cannot start.
 * - stream: a 10-turn task with `--output-format stream-json` vs `--json`
 *   (bench/sections/stream.ts): ≤ 1.05×.
 * - ratelimit: 64 tasks at concurrency 16 against a server limiting them to
 *   8 requests per second (bench/sections/ratelimit.ts): no task fails, and
 *   the wall time is ≤ 1.2× the least the limits allow.
 * - tokens: each bundled agent's system prompt and tool schemas as its first
 *   Anthropic request carries them, counted with o200k_base
 *   (bench/sections/prompt-tokens.ts): `explore` and `quick_task` ≤ 2 000,
 *   every agent ≤ 3 000.
 *
 * @module
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { ROOT, setScratch } from "./measure.ts";
import { details, log, printTable, resultsMarkdown, rows } from "./report.ts";
import { benchDiscovery, benchScaling } from "./sections/discovery.ts";
import { benchColdStart } from "./sections/coldstart.ts";
import { benchFanout, benchTask } from "./sections/tasks.ts";
import { benchLoop } from "./sections/loop.ts";
import { benchSandbox } from "./sections/sandbox.ts";
import { benchWeb } from "./sections/web.ts";
import { benchTools } from "./sections/tools.ts";
import { benchCollections } from "./sections/collections.ts";
import { benchBackground } from "./sections/background.ts";
import { benchGit } from "./sections/git.ts";
import { benchLauncher } from "./sections/launcher.ts";
import { benchStream } from "./sections/stream.ts";
import { benchRateLimit } from "./sections/ratelimit.ts";
import { benchPromptTokens } from "./sections/prompt-tokens.ts";

const SECTIONS: Record<string, () => Promise<void> | void> = {
  discovery: benchDiscovery,
  coldstart: benchColdStart,
  task: benchTask,
  fanout: benchFanout,
  scaling: benchScaling,
  loop: benchLoop,
  sandbox: benchSandbox,
  web: benchWeb,
  tools: benchTools,
  collections: benchCollections,
  background: benchBackground,
  git: benchGit,
  launcher: benchLauncher,
  stream: benchStream,
  ratelimit: benchRateLimit,
  tokens: benchPromptTokens,
};

async function main(): Promise<void> {
  const asked = process.argv.slice(2);
  const unknown = asked.filter((a) => !(a in SECTIONS));
  if (unknown.length > 0) {
    console.error(
      `unknown section(s): ${unknown.join(", ")}; known: ${Object.keys(SECTIONS).join(", ")}`,
    );
    process.exit(2);
  }
  const chosen = asked.length > 0
    ? Object.keys(SECTIONS).filter((s) => asked.includes(s))
    : Object.keys(SECTIONS);
  const scratch = mkdtempSync(join(tmpdir(), "xcsh-bench-"));
  setScratch(scratch);
  const started = performance.now();
  try {
    for (const name of chosen) {
      const t0 = performance.now();
      log(`${name}…`);
      await SECTIONS[name]();
      log(`${name} done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  printTable();
  const results = {
    date: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      model: cpus()[0]?.model,
      platform: process.platform,
      bun: process.versions.bun,
    },
    seconds: (performance.now() - started) / 1000,
    sections: chosen,
    rows,
    details,
  };
  writeFileSync(join(ROOT, "bench", "results.json"), JSON.stringify(results, null, 2) + "\n");
  writeFileSync(
    join(ROOT, "bench", "RESULTS.md"),
    resultsMarkdown({
      date: results.date,
      cpus: results.machine.cpus,
      model: results.machine.model,
      bun: results.machine.bun,
      seconds: results.seconds,
      sections: chosen,
    }),
  );
  log(`total ${results.seconds.toFixed(1)} s; wrote bench/RESULTS.md and bench/results.json`);
}

await main();
