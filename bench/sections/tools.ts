/**
 * The child's search tools on a large tree (the JavaScript, TypeScript, JSON
 * and Markdown files of `node_modules`, copied four times: about 19 000
 * files): the `grep` tool against `rg -n` and the `find` tool against
 * `rg --files -g`, each with a pattern that matches nothing (a full scan),
 * alternated run by run; and the peak memory of a full-tree grep.
 *
 * A tool's time is its first `run` in a fresh process (bench/tool-once.ts),
 * so it includes loading and compiling the tool's code but not the runtime's
 * start-up, which a child has already paid; ripgrep's time is its whole
 * process. Needs ripgrep (Debian's `ripgrep` package) as the baseline;
 * without it the section says so and is skipped.
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { buildSourceTree } from "../source-tree.ts";
import { BUN, cleanEnv, ROOT, tmp } from "../measure.ts";
import { details, limitRow, log, median, row } from "../report.ts";

/** ripgrep's path, or undefined when it is not installed. */
function findRg(): string | undefined {
  const r = spawnSync("rg", ["--version"], { stdio: ["ignore", "pipe", "ignore"] });
  return r.status === 0 ? "rg" : undefined;
}

/** Wall time of one ripgrep run (exit 1, "nothing found", is expected). */
function rgMs(args: string[]): number {
  const t0 = performance.now();
  const r = spawnSync("rg", args, { stdio: ["ignore", "ignore", "pipe"], env: cleanEnv({}) });
  const ms = performance.now() - t0;
  if (r.status !== 0 && r.status !== 1) {
    throw new Error(`rg ${args.join(" ")} exited ${r.status}: ${r.stderr?.toString()}`);
  }
  return ms;
}

interface Once {
  ms: number;
  ok: boolean;
  summary: string;
  lines: number;
}

/** One tool call in a fresh process. */
function toolMs(tool: string, cwd: string, args: object): Once {
  const r = spawnSync(BUN, [join(ROOT, "bench", "tool-once.ts"), tool, cwd, JSON.stringify(args)], {
    stdio: ["ignore", "pipe", "pipe"],
    env: cleanEnv({}),
  });
  if (r.status !== 0) throw new Error(`tool-once ${tool} failed: ${r.stderr.toString()}`);
  return JSON.parse(r.stdout.toString()) as Once;
}

/** Peak RSS (MiB) of one tool call in a fresh process, under /usr/bin/time -v. */
function toolPeakMiB(tool: string, cwd: string, args: object): number | undefined {
  if (!existsSync("/usr/bin/time")) return undefined;
  const r = spawnSync("/usr/bin/time", [
    "-v",
    BUN,
    join(ROOT, "bench", "tool-once.ts"),
    tool,
    cwd,
    JSON.stringify(args),
  ], { stdio: ["ignore", "ignore", "pipe"], env: cleanEnv({}) });
  const kib = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr.toString());
  return r.status === 0 && kib ? Number(kib[1]) / 1024 : undefined;
}

const RUNS = 11;

export function benchTools(): void {
  if (findRg() === undefined) {
    log(
      "tools: skipped: ripgrep (`rg`) is not installed; it is the baseline of this section. " +
        "Install Debian's `ripgrep` package (apt-get install ripgrep) and run again.",
    );
    return;
  }
  const t0 = performance.now();
  const from = join(ROOT, "node_modules");
  const tree = buildSourceTree(join(tmp("tools"), "tree"), from, 4);
  log(
    `tools: ${tree.files} files, ${(tree.bytes / 2 ** 20).toFixed(0)} MiB written in ` +
      `${(performance.now() - t0).toFixed(0)} ms`,
  );
  const dir = tree.root;
  const NEEDLE = "zqxNoSuchThing";
  const cases = [
    {
      name: "grep tool, no match (full scan)",
      tool: "grep",
      args: { pattern: NEEDLE },
      rg: ["-n", NEEDLE, dir],
      limit: 1.5,
    },
    {
      name: "find tool, no match (full walk)",
      tool: "find",
      args: { pattern: "*.zqx" },
      rg: ["--files", "-g", "*.zqx", dir],
      limit: 1.5,
    },
    {
      name: "  grep, ignore_case",
      tool: "grep",
      args: { pattern: NEEDLE, ignore_case: true },
      rg: ["-n", "-i", NEEDLE, dir],
      limit: null,
    },
    {
      name: "  grep, a regex without a literal",
      tool: "grep",
      args: { pattern: "[0-9]{12}[g-z]" },
      rg: ["-n", "[0-9]{12}[g-z]", dir],
      limit: null,
    },
  ];
  const samples: Record<string, { tool: number[]; rg: number[]; summary: string }> = {};
  for (const c of cases) {
    const first = toolMs(c.tool, dir, c.args); // warms the page cache
    rgMs(c.rg);
    const s = { tool: [] as number[], rg: [] as number[], summary: first.summary };
    for (let i = 0; i < RUNS; i++) {
      s.tool.push(toolMs(c.tool, dir, c.args).ms);
      s.rg.push(rgMs(c.rg));
    }
    samples[c.name] = s;
    row("tools", c.name, median(s.tool), median(s.rg), "ms", c.limit);
  }
  const peak = toolPeakMiB("grep", dir, { pattern: NEEDLE });
  if (peak !== undefined) {
    limitRow("tools", "grep tool peak RSS, full tree (whole process)", peak, 150, "MiB");
  }
  details.tools = { files: tree.files, bytes: tree.bytes, samples, peakMiB: peak ?? null };
}
