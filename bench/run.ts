/**
 * `npm run bench`: measures xcsh against baselines taken in the same run and
 * prints one table (section, measurement, value, baseline, ratio, target,
 * pass/fail); writes every figure and the raw samples to bench/results.json.
 *
 *   bun bench/run.ts [discovery] [coldstart] [task] [fanout] [scaling]
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
 *   (bench/floor.ts) measured the same way.
 * - coldstart: `dist/xcsh agents --json` on a ~60-file tree vs an empty
 *   binary compiled with the same flags.
 * - task: `dist/xcsh run` against the local model server (answers at once)
 *   vs `dist/xcsh --version`.
 * - fanout: 32 tasks at concurrency 8 vs 4 × one task; peak RSS of the
 *   `__child` processes, sampled from /proc during the run, and of one child
 *   run alone under /usr/bin/time -v.
 * - scaling: discovery at 250, 2 500 and 25 000 files; linear when the cost
 *   per extra 1000 files stays flat.
 *
 * @module
 */
import { spawn, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { cpus, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { generateTree, type Tree, type TreeSpec } from "./generate.ts";
import { rawFloor } from "./floor.ts";
import {
  agentOrigins,
  definitionExtensions,
  discoverAgents,
  parseAgentFile,
} from "../src/task/discovery.ts";
import { readDefinitionFolder } from "../src/discovery/read-files.ts";
import { SETTLE_MS } from "../src/discovery/file-signature.ts";
import { startModelServer } from "../tests/support/model-server.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const XCSH = join(ROOT, "dist", "xcsh");
const BUN = process.execPath;
const SEED = 7;

// ---- Rows and statistics ---------------------------------------------------

interface Row {
  section: string;
  measurement: string;
  value: number;
  baseline: number;
  unit: string;
  /** value / baseline, or the figure the target applies to. */
  ratio: number;
  /** e.g. "≤ 1.25×"; "info" when there is no target. */
  target: string;
  pass: boolean | null;
}

const rows: Row[] = [];
const details: Record<string, unknown> = {};

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function row(
  section: string,
  measurement: string,
  value: number,
  baseline: number,
  unit: string,
  limit: number | null,
): void {
  const ratio = value / baseline;
  rows.push({
    section,
    measurement,
    value,
    baseline,
    unit,
    ratio,
    target: limit === null ? "info" : `≤ ${limit}×`,
    pass: limit === null ? null : ratio <= limit,
  });
}

/** A row whose value is compared with an absolute limit (same unit as the value). */
function limitRow(
  section: string,
  measurement: string,
  value: number,
  limit: number,
  unit: string,
) {
  rows.push({
    section,
    measurement,
    value,
    baseline: limit,
    unit,
    ratio: value / limit,
    target: `≤ ${limit} ${unit}`,
    pass: value <= limit,
  });
}

function log(message: string): void {
  process.stderr.write(`bench: ${message}\n`);
}

// ---- Processes -------------------------------------------------------------

/** A clean environment: only PATH and what the caller passes. */
function cleanEnv(extra: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", ...extra };
}

/** Wall time of one synchronous run, in ms; throws on a non-zero exit. */
function timedSync(
  cmd: string,
  args: string[],
  opts: { cwd?: string; env: Record<string, string> },
) {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, {
    cwd: opts.cwd,
    env: opts.env,
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 120_000,
  });
  const ms = performance.now() - t0;
  if (r.status !== 0) {
    throw new Error(
      `${cmd} ${args.join(" ")} exited ${r.status}: ${r.stderr?.toString().slice(-2000)}`,
    );
  }
  return { ms, stdout: r.stdout.toString() };
}

interface AsyncRun {
  ms: number;
  code: number | null;
  stdout: string;
  stderr: string;
  pid: number;
}

/**
 * Wall time of one run that must not block this process (the model server
 * lives here). `onStart` gets the pid, for RSS sampling.
 */
function timedAsync(
  cmd: string,
  args: string[],
  opts: { cwd?: string; env: Record<string, string>; onStart?: (pid: number) => void },
): Promise<AsyncRun> {
  return new Promise((done, fail) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, {
      cwd: opts.cwd,
      env: opts.env,
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 120_000, // a hung run fails the bench instead of stalling it
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", fail);
    if (child.pid !== undefined) opts.onStart?.(child.pid);
    child.on(
      "close",
      (code) => done({ ms: performance.now() - t0, code, stdout, stderr, pid: child.pid ?? -1 }),
    );
  });
}

// ---- Trees -----------------------------------------------------------------

let scratch = "";
function tmp(name: string): string {
  const dir = join(scratch, name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Writes a generated tree, then waits until its files are settled: agent
 * files are not written a second before they are used, and the definition
 * cache does not trust a file changed within the last SETTLE_MS.
 */
async function makeTree(name: string, spec: TreeSpec): Promise<Tree> {
  const t0 = performance.now();
  const tree = generateTree(tmp(name), spec);
  log(`${name}: ${tree.fileCount} files written in ${(performance.now() - t0).toFixed(0)} ms`);
  writeFileSync(join(scratch, `${name}.json`), JSON.stringify(tree));
  await new Promise((r) => setTimeout(r, SETTLE_MS + 100));
  return tree;
}

function discoveryEnv(tree: Tree) {
  return { cwd: tree.cwd, home: tree.home, env: tree.env };
}

/** Medians of `runs` alternating in-process runs of `a` and `b` (after `warm` each). */
async function alternate(
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  runs: number,
  warm: number,
): Promise<{ a: number[]; b: number[] }> {
  for (let i = 0; i < warm; i++) {
    await a();
    await b();
  }
  const out = { a: [] as number[], b: [] as number[] };
  for (let i = 0; i < runs; i++) {
    for (const [fn, into] of [[a, out.a], [b, out.b]] as const) {
      const t0 = performance.now();
      await fn();
      into.push(performance.now() - t0);
    }
  }
  return out;
}

// ---- Sections --------------------------------------------------------------

async function benchDiscovery(): Promise<void> {
  const tree = await makeTree("discovery", {
    files: 2000,
    plugins: 20,
    perPlugin: 10,
    depth: 30,
    seed: SEED,
  });
  const e = discoveryEnv(tree);
  const found = await discoverAgents(e);
  const floorCount = await rawFloor(tree);

  const warm = await alternate(() => discoverAgents(e), () => rawFloor(tree), 31, 5);
  row("discovery", "warm median (2 200 files)", median(warm.a), median(warm.b), "ms", 1.25);

  // Where the warm time goes: the same folders read by discovery's reader, and
  // the files it read parsed, each against the floor.
  const { origins } = agentOrigins(e);
  const readAll = () =>
    Promise.all(
      origins.map((o) => readDefinitionFolder(o.path, definitionExtensions(o.family))),
    );
  const read = await alternate(readAll, () => rawFloor(tree), 9, 1);
  const folders = await readAll();
  const parseAll = () => {
    folders.forEach((f, i) => f.files.forEach((file) => parseAgentFile(file, origins[i])));
    return Promise.resolve();
  };
  const parse = await alternate(parseAll, () => rawFloor(tree), 9, 1);
  row(
    "discovery",
    "  of which reading (readDefinitionFolder)",
    median(read.a),
    median(read.b),
    "ms",
    null,
  );
  row(
    "discovery",
    "  of which parsing (parseAgentFile)",
    median(parse.a),
    median(parse.b),
    "ms",
    null,
  );

  // Cold: the first call in a fresh process, code already loaded; with the
  // definition cache on disk (every run after the first) and without it.
  const cacheDir = join(scratch, "discovery-cache");
  const once = (mode: string) => {
    const r = timedSync(BUN, [
      join(ROOT, "bench", "discovery-once.ts"),
      mode,
      join(scratch, "discovery.json"),
      cacheDir,
    ], {
      env: cleanEnv({ HOME: tree.home }),
    });
    return JSON.parse(r.stdout) as { loadMs: number; firstMs: number; count: number };
  };
  const cold = {
    cached: [] as number[],
    uncached: [] as number[],
    floor: [] as number[],
    loadMs: [] as number[],
  };
  once("discover-cached"); // writes the cache
  for (let i = 0; i < 9; i++) {
    const d = once("discover-cached");
    cold.cached.push(d.firstMs);
    cold.loadMs.push(d.loadMs);
    cold.uncached.push(once("discover").firstMs);
    cold.floor.push(once("floor").firstMs);
  }
  row(
    "discovery",
    "cold first call, cache on disk (later runs)",
    median(cold.cached),
    median(cold.floor),
    "ms",
    1.25,
  );
  row(
    "discovery",
    "cold first call, no cache (first run)",
    median(cold.uncached),
    median(cold.floor),
    "ms",
    1.25,
  );
  details.discovery = {
    files: tree.fileCount,
    bytes: tree.bytes,
    agents: found.agents.length,
    shadowed: found.shadowed.length,
    warnings: found.warnings.length,
    floorFilesRead: floorCount,
    warm,
    cold,
  };
}

function buildEmptyBinary(): string {
  const out = join(tmp("empty"), "empty");
  const r = spawnSync(BUN, [
    "build",
    "--compile",
    "--minify",
    "--bytecode",
    join(ROOT, "bench", "empty.ts"),
    "--outfile",
    out,
  ], { stdio: ["ignore", "pipe", "pipe"] });
  if (r.status !== 0) throw new Error(`building the empty binary failed: ${r.stderr.toString()}`);
  return out;
}

function requireXcsh(): void {
  if (!existsSync(XCSH)) {
    throw new Error(`${XCSH} is missing: run 'npm run build' (npm run bench does)`);
  }
}

async function benchColdStart(): Promise<void> {
  requireXcsh();
  const tree = await makeTree("coldstart", {
    files: 40,
    plugins: 2,
    perPlugin: 10,
    depth: 5,
    seed: SEED,
  });
  const empty = buildEmptyBinary();
  const env = cleanEnv({ HOME: tree.home });
  // The cache lives in the tree's HOME (~/.cache/xcsh); the first run writes it.
  const agents = () => timedSync(XCSH, ["agents", "--json"], { cwd: tree.cwd, env });
  const uncachedEnv = { ...env, XCSH_CACHE: "off" };
  const uncached = () => timedSync(XCSH, ["agents", "--json"], { cwd: tree.cwd, env: uncachedEnv });
  const nothing = () => timedSync(empty, [], { cwd: tree.cwd, env });
  const listed = JSON.parse(agents().stdout);
  nothing();
  const a: number[] = [];
  const b: number[] = [];
  const c: number[] = [];
  for (let i = 0; i < 25; i++) {
    a.push(agents().ms);
    b.push(nothing().ms);
    c.push(uncached().ms);
  }
  row("cold start", "xcsh agents --json (60 files)", median(a), median(b), "ms", 3);
  row("cold start", "  the same with XCSH_CACHE=off", median(c), median(b), "ms", 3);
  details.coldstart = {
    files: tree.fileCount,
    agentsListed: Array.isArray(listed.agents) ? listed.agents.length : null,
    xcshMs: a,
    emptyMs: b,
    uncachedMs: c,
  };
}

// ---- Tasks against the local model server -----------------------------------

/** A HOME whose config points the child at `url`, with `maxConcurrency`. */
function taskHome(
  name: string,
  url: string,
  maxConcurrency: number,
): { home: string; cwd: string } {
  const base = tmp(name);
  const home = join(base, "home");
  const cwd = join(base, "work");
  mkdirSync(join(home, ".xcsh", "agent"), { recursive: true });
  mkdirSync(cwd, { recursive: true });
  writeFileSync(
    join(home, ".xcsh", "agent", "config.yml"),
    `providers: { local: { type: openai-compatible, baseURL: "${url}/v1" } }\n` +
      `models: { default: local/mock }\n` +
      `task: { maxConcurrency: ${maxConcurrency} }\n`,
  );
  return { home, cwd };
}

const SUBMIT = { toolCalls: [{ name: "submit_result", args: { result: { data: { ok: true } } } }] };

/** Runs `xcsh run quick_task …` and checks every task succeeded. */
async function runTasks(
  home: string,
  cwd: string,
  tasks: number,
  onStart?: (pid: number) => void,
): Promise<AsyncRun> {
  const args = tasks === 1 ? ["run", "quick_task", "Say ok.", "--json"] : [
    "run",
    "quick_task",
    ...Array.from({ length: tasks }, (_, i) => `--task=t${i}=Say ok.`),
    "--json",
  ];
  const r = await timedAsync(XCSH, args, { cwd, env: cleanEnv({ HOME: home }), onStart });
  if (r.code !== 0) throw new Error(`xcsh run exited ${r.code}: ${r.stderr.slice(-2000)}`);
  const doc = JSON.parse(r.stdout);
  const ok = (doc.results ?? []).filter((x: { status: string }) => x.status === "ok").length;
  if (ok !== tasks) {
    throw new Error(`expected ${tasks} ok results, got ${ok}: ${r.stdout.slice(0, 2000)}`);
  }
  return r;
}

let oneTaskMedian: number | undefined;

async function benchTask(): Promise<void> {
  requireXcsh();
  const server = await startModelServer({ respond: () => SUBMIT });
  try {
    const { home, cwd } = taskHome("task", server.url, 8);
    const env = cleanEnv({ HOME: home });
    const version = () => timedAsync(XCSH, ["--version"], { cwd, env });
    await runTasks(home, cwd, 1);
    await version();
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < 15; i++) {
      a.push((await runTasks(home, cwd, 1)).ms);
      b.push((await version()).ms);
    }
    oneTaskMedian = median(a);
    row("one task", "xcsh run (instant model)", oneTaskMedian, median(b), "ms", 4);
    details.task = { runMs: a, versionMs: b, modelRequests: server.requests.length };
  } finally {
    await server.close();
  }
}

/** Peak resident set (VmHWM, KiB) of `pid`, or undefined once it is gone. */
function vmHwm(pid: number): number | undefined {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Pids of the `__child` processes whose parent is `parent`. */
function childPids(parent: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      // Field 4 (ppid) comes after the parenthesised command name.
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid !== parent) continue;
      if (readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0").includes("__child")) {
        out.push(Number(name));
      }
    } catch {
      // gone already
    }
  }
  return out;
}

/** Children run one after another under one /usr/bin/time, for their CPU time. */
const CPU_SAMPLE_CHILDREN = 20;

/**
 * Peak RSS of a child run alone under /usr/bin/time -v, in KiB, and its CPU
 * seconds: the average over CPU_SAMPLE_CHILDREN children run one after
 * another (one child's CPU time is below the 10 ms the counter shows).
 * Asynchronous: the model server it talks to lives in this process.
 */
async function childUnderTime(
  home: string,
  cwd: string,
): Promise<{ kib: number; cpuSeconds: number; ms: number } | undefined> {
  if (!existsSync("/usr/bin/time")) return undefined;
  const env = cleanEnv({ HOME: home });
  const dry = spawnSync(XCSH, ["run", "quick_task", "Say ok.", "--dry-run", "--json"], {
    cwd,
    env,
  });
  const plan = JSON.parse(dry.stdout.toString());
  const task = plan.tasks[0];
  const envelopeFile = join(scratch, "envelope.json");
  writeFileSync(envelopeFile, JSON.stringify(task.envelope));
  const loop = `i=0; while [ $i -lt ${CPU_SAMPLE_CHILDREN} ]; do ` +
    `"$0" "$1" < "$2" > /dev/null || exit 1; i=$((i+1)); done`;
  const r = await new Promise<{ code: number | null; stderr: string; ms: number }>((done, fail) => {
    const t0 = performance.now();
    const child = spawn("/usr/bin/time", ["-v", "sh", "-c", loop, ...plan.command, envelopeFile], {
      cwd,
      env: { ...env, ...task.env },
      stdio: ["ignore", "ignore", "pipe"],
      timeout: 120_000,
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stderr, ms: performance.now() - t0 }));
  });
  const kib = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr);
  const user = /User time \(seconds\): ([\d.]+)/.exec(r.stderr);
  const sys = /System time \(seconds\): ([\d.]+)/.exec(r.stderr);
  if (r.code !== 0 || !kib) {
    log(`children under /usr/bin/time failed (exit ${r.code}): ${r.stderr.slice(-500)}`);
    return undefined;
  }
  return {
    kib: Number(kib[1]),
    cpuSeconds: (Number(user?.[1] ?? 0) + Number(sys?.[1] ?? 0)) / CPU_SAMPLE_CHILDREN,
    ms: r.ms / CPU_SAMPLE_CHILDREN,
  };
}

async function benchFanout(): Promise<void> {
  requireXcsh();
  const server = await startModelServer({ respond: () => SUBMIT });
  try {
    const { home, cwd } = taskHome("fanout", server.url, 8);
    if (oneTaskMedian === undefined) {
      await runTasks(home, cwd, 1);
      const one: number[] = [];
      for (let i = 0; i < 7; i++) one.push((await runTasks(home, cwd, 1)).ms);
      oneTaskMedian = median(one);
    }
    // Sample the children's VmHWM while the fan-out runs.
    const peak = new Map<number, number>();
    let parent = -1;
    const timer = setInterval(() => {
      if (parent < 0) return;
      for (const pid of childPids(parent)) {
        const kb = vmHwm(pid);
        if (kb !== undefined) peak.set(pid, Math.max(peak.get(pid) ?? 0, kb));
      }
    }, 5);
    const runs: number[] = [];
    try {
      await runTasks(home, cwd, 32);
      for (let i = 0; i < 3; i++) {
        runs.push((await runTasks(home, cwd, 32, (pid) => (parent = pid))).ms);
      }
    } finally {
      clearInterval(timer);
    }
    row("fan-out", "32 tasks at concurrency 8", median(runs), 4 * oneTaskMedian, "ms", 1.3);
    const sampled = Math.max(0, ...peak.values()) / 1024;
    limitRow(
      "fan-out",
      `child peak RSS (/proc VmHWM, ${peak.size} children sampled)`,
      sampled,
      80,
      "MiB",
    );
    const alone = await childUnderTime(home, cwd);
    if (alone !== undefined) {
      limitRow(
        "fan-out",
        "child peak RSS (children alone, /usr/bin/time -v)",
        alone.kib / 1024,
        80,
        "MiB",
      );
      // The best this machine can do: 32 children's CPU time spread over its cores.
      const bound = (32 * alone.cpuSeconds * 1000) / cpus().length;
      row(
        "fan-out",
        `  CPU bound: 32 × child CPU / ${cpus().length} cores`,
        bound,
        4 * oneTaskMedian,
        "ms",
        null,
      );
    }
    details.fanout = {
      runMs: runs,
      oneTaskMedianMs: oneTaskMedian,
      childrenSampled: peak.size,
      peakKiB: [...peak.values()],
      alone: alone ?? null,
    };
  } finally {
    await server.close();
  }
}

async function benchScaling(): Promise<void> {
  const sizes = [250, 2500, 25000];
  const perSize: { files: number; ms: number; floorMs: number; runs: number[] }[] = [];
  for (const files of sizes) {
    const tree = await makeTree(`scaling-${files}`, {
      files,
      plugins: 0,
      perPlugin: 0,
      depth: 30,
      seed: SEED,
    });
    const e = discoveryEnv(tree);
    const n = files >= 25000 ? 5 : 9;
    const r = await alternate(() => discoverAgents(e), () => rawFloor(tree), n, 1);
    perSize.push({ files: tree.fileCount, ms: median(r.a), floorMs: median(r.b), runs: r.a });
    rmSync(tree.root, { recursive: true, force: true });
  }
  const [s, m, l] = perSize;
  for (const p of perSize) {
    row(
      "scaling",
      `${p.files.toLocaleString("en")} files: ms per 1000 files (vs floor)`,
      (p.ms / p.files) * 1000,
      (p.floorMs / p.files) * 1000,
      "ms",
      null,
    );
  }
  // Linear: the cost of each extra 1000 files stays flat from size to size.
  const slopeLow = ((m.ms - s.ms) / (m.files - s.files)) * 1000;
  const slopeHigh = ((l.ms - m.ms) / (l.files - m.files)) * 1000;
  row(
    "scaling",
    "ms per extra 1000 files, 2 500→25 000 vs 250→2 500",
    slopeHigh,
    slopeLow,
    "ms",
    1.5,
  );
  details.scaling = perSize;
}

// ---- Main ------------------------------------------------------------------

const SECTIONS: Record<string, () => Promise<void> | void> = {
  discovery: benchDiscovery,
  coldstart: benchColdStart,
  task: benchTask,
  fanout: benchFanout,
  scaling: benchScaling,
};

function fmt(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  return Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 10 ? n.toFixed(1) : n.toFixed(2);
}

function printTable(): void {
  const head = ["section", "measurement", "value", "baseline", "ratio", "target", "result"];
  const body = rows.map((r) => [
    r.section,
    r.measurement,
    `${fmt(r.value)} ${r.unit}`,
    `${fmt(r.baseline)} ${r.unit}`,
    `${r.ratio.toFixed(2)}×`,
    r.target,
    r.pass === null ? "-" : r.pass ? "pass" : "FAIL",
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i >= 2 && i <= 4 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(
      "  ",
    );
  console.log(line(head));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const b of body) console.log(line(b));
}

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
  scratch = mkdtempSync(join(tmpdir(), "xcsh-bench-"));
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
  log(`total ${results.seconds.toFixed(1)} s; wrote bench/results.json`);
}

await main();
