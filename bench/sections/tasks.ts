/**
 * Task sections against the local model server (which answers at once): one
 * `xcsh run` against `xcsh --version`, with the steps of its start (listing,
 * planning, sandbox off, inside a git repository) each against the same
 * `--version` (`benchTask`), and a fan-out of 32 tasks at
 * concurrency 8 against the machine's own bound (32 × a child's CPU time ÷
 * cores), with the children's peak memory and CPU time and, for
 * information, the CPU the run spends besides them (the parent and the
 * cores' sharing; the bench's own model server).
 *
 * @module
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import process from "node:process";
import { join } from "node:path";
import { startModelServer } from "../../tests/support/model-server.ts";
import { envelopeText } from "../../src/protocol/envelope-builder.ts";
import { PARENT_PIPE, TASK_MARK } from "../../src/protocol/variables.ts";
import {
  type AsyncRun,
  cleanEnv,
  requireXcsh,
  scratchDir,
  timedAsync,
  tmp,
  XCSH,
} from "../measure.ts";
import { details, limitRow, log, median, row } from "../report.ts";

/** A HOME whose config points the child at `url`, with `maxConcurrency`. */
export function taskHome(
  name: string,
  url: string,
  maxConcurrency: number,
  taskExtra = "",
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
      `task: { maxConcurrency: ${maxConcurrency}${taskExtra ? `, ${taskExtra}` : ""} }\n`,
  );
  return { home, cwd };
}

export const SUBMIT = {
  toolCalls: [{ name: "submit_result", args: { result: { data: { ok: true } } } }],
};

/** The arguments of `xcsh run quick_task` with `tasks` tasks, printing JSON. */
function runArgs(tasks: number): string[] {
  return tasks === 1 ? ["run", "quick_task", "Say ok.", "--json"] : [
    "run",
    "quick_task",
    ...Array.from({ length: tasks }, (_, i) => `--task=t${i}=Say ok.`),
    "--json",
  ];
}

/** Runs `xcsh run quick_task …` and checks every task succeeded. */
export async function runTasks(
  home: string,
  cwd: string,
  tasks: number,
  onStart?: (pid: number) => void,
  env: Record<string, string> = {},
): Promise<AsyncRun> {
  const r = await timedAsync(XCSH, runArgs(tasks), {
    cwd,
    env: cleanEnv({ HOME: home, ...env }),
    onStart,
  });
  if (r.code !== 0) throw new Error(`xcsh run exited ${r.code}: ${r.stderr.slice(-2000)}`);
  const doc = JSON.parse(r.stdout);
  const ok = (doc.results ?? []).filter((x: { status: string }) => x.status === "ok").length;
  if (ok !== tasks) {
    throw new Error(`expected ${tasks} ok results, got ${ok}: ${r.stdout.slice(0, 2000)}`);
  }
  return r;
}

let oneTaskMedian: number | undefined;

/** A git repository with one commit in `dir`, or false where git cannot make one. */
function gitRepository(dir: string): boolean {
  const git = (...args: string[]) =>
    spawnSync("git", ["-c", "user.name=bench", "-c", "user.email=bench@example.com", ...args], {
      cwd: dir,
      stdio: "ignore",
    }).status === 0;
  writeFileSync(join(dir, "README.md"), "bench\n");
  return git("init", "-q") && git("add", ".") && git("commit", "-q", "-m", "bench");
}

/**
 * One `xcsh run` against the instant model (the sandbox as configured by
 * default), and the steps of its start one at a time, each against
 * `xcsh --version` in the same run: listing the agents, planning without a
 * child (`--dry-run`), a run with the sandbox off, and a run in a git
 * repository (the git facts of the prompt).
 */
export async function benchTask(): Promise<void> {
  requireXcsh();
  const server = await startModelServer({ respond: () => SUBMIT });
  try {
    const { home, cwd } = taskHome("task", server.url, 8);
    const off = taskHome("task-sandbox-off", server.url, 8, "sandbox: off");
    const repo = taskHome("task-git", server.url, 8);
    const inGit = gitRepository(repo.cwd);
    const env = cleanEnv({ HOME: home });
    const ok = async (args: string[]) => {
      const r = await timedAsync(XCSH, args, { cwd, env });
      if (r.code !== 0) throw new Error(`xcsh ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
      return r;
    };
    const steps: [string, () => Promise<AsyncRun>][] = [
      ["version", () => ok(["--version"])],
      ["agents", () => ok(["agents", "--json"])],
      ["dryRun", () => ok(["run", "quick_task", "Say ok.", "--dry-run", "--json"])],
      ["run", () => runTasks(home, cwd, 1)],
      ["sandboxOff", () => runTasks(off.home, off.cwd, 1)],
      ...(inGit
        ? [["git", () => runTasks(repo.home, repo.cwd, 1)] as [string, () => Promise<AsyncRun>]]
        : []),
    ];
    const ms: Record<string, number[]> = {};
    for (const [name, step] of steps) {
      await step(); // the first run writes the caches
      ms[name] = [];
    }
    for (let i = 0; i < 15; i++) {
      for (const [name, step] of steps) ms[name].push((await step()).ms);
    }
    const version = median(ms.version);
    oneTaskMedian = median(ms.run);
    limitRow("one task", "xcsh run (instant model), wall", oneTaskMedian, 25, "ms");
    row("one task", "  xcsh run vs xcsh --version", oneTaskMedian, version, "ms", null);
    const step = (label: string, name: string) => {
      if (ms[name]) {
        row("one task", `  step: ${label} vs --version`, median(ms[name]), version, "ms", null);
      }
    };
    step("agents --json (bundled agents)", "agents");
    step("run --dry-run (planned, no child)", "dryRun");
    step("run with the sandbox off", "sandboxOff");
    step("run in a git repository", "git");
    details.task = {
      ...Object.fromEntries(Object.entries(ms).map(([k, v]) => [`${k}Ms`, v])),
      modelRequests: server.requests.length,
    };
  } finally {
    await server.close();
  }
}

/** Peak resident set (VmHWM, KiB) of `pid`, or undefined once it is gone. */
export function vmHwm(pid: number): number | undefined {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Pids of the `__child` processes whose parent is `parent`. */
export function childPids(parent: number): number[] {
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

/**
 * The CPU time of a whole fan-out of 32 (xcsh and every process it waited
 * for) under /usr/bin/time, in ms; undefined where there is no /usr/bin/time.
 */
async function treeCpuMs(home: string, cwd: string): Promise<number | undefined> {
  if (!existsSync("/usr/bin/time")) return undefined;
  const out = join(scratchDir(), "fanout-time.txt");
  const args = ["-f", "%U %S", "-o", out, XCSH, ...runArgs(32)];
  const r = await timedAsync("/usr/bin/time", args, { cwd, env: cleanEnv({ HOME: home }) });
  if (r.code !== 0) throw new Error(`xcsh run under /usr/bin/time exited ${r.code}`);
  const [user, sys] = readFileSync(out, "utf8").trim().split(/\s+/).slice(-2).map(Number);
  return (user + sys) * 1000;
}

/** Children run one after another under one /usr/bin/time, for their CPU time. */
export const CPU_SAMPLE_CHILDREN = 20;

/**
 * Peak RSS of a child run alone under /usr/bin/time -v, in KiB, and its CPU
 * seconds: the average over CPU_SAMPLE_CHILDREN children run one after
 * another (one child's CPU time is below the 10 ms the counter shows). Each
 * child starts as a parent starts it: the complete plan its dry run shows
 * (as the wire carries it), `XCSH_PARENT_PIPE=1`, and a stdin that stays
 * open until it ends (a FIFO the shell holds; only shell built-ins run
 * beside the children, so the counter sees the children alone).
 * Asynchronous: the model server it talks to lives in this process.
 */
export async function childUnderTime(
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
  const envelopeFile = join(scratchDir(), "envelope.json");
  writeFileSync(envelopeFile, envelopeText(task.envelope));
  const fifo = join(scratchDir(), "child-stdin");
  rmSync(fifo, { force: true });
  if (spawnSync("mkfifo", [fifo]).status !== 0) {
    log("children under /usr/bin/time skipped: mkfifo failed");
    return undefined;
  }
  const loop = `E=$(cat "$2"); i=0; while [ $i -lt ${CPU_SAMPLE_CHILDREN} ]; do ` +
    `exec 3<>"$3"; "$0" "$1" < "$3" 3>&- > /dev/null & c=$!; ` +
    `printf '%s\\n' "$E" >&3; wait $c || exit 1; exec 3>&-; i=$((i+1)); done`;
  const r = await new Promise<{ code: number | null; stderr: string; ms: number }>((done, fail) => {
    const t0 = performance.now();
    const child = spawn(
      "/usr/bin/time",
      ["-v", "sh", "-c", loop, ...plan.command, envelopeFile, fifo],
      {
        cwd,
        env: { ...env, ...task.env, [PARENT_PIPE]: "1", [TASK_MARK]: "bench" },
        stdio: ["ignore", "ignore", "pipe"],
        timeout: 120_000,
      },
    );
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

export async function benchFanout(): Promise<void> {
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
    // The timed runs are not watched: scanning /proc every few milliseconds
    // takes a share of a core from the run it measures.
    // Fan-outs alternate with samples of a child's CPU time, so that both see
    // the same state of a shared machine.
    const runs: number[] = [];
    const samples: { kib: number; cpuSeconds: number; ms: number }[] = [];
    // Where the run's CPU goes besides the children: this process's own
    // (the model server, and reading one xcsh's output) during each timed
    // fan-out, and the whole xcsh tree's under /usr/bin/time in a run of its own.
    const serverMs: number[] = [];
    const treeMs: number[] = [];
    await runTasks(home, cwd, 32);
    for (let i = 0; i < 5; i++) {
      const before = process.cpuUsage();
      runs.push((await runTasks(home, cwd, 32)).ms);
      const spent = process.cpuUsage(before);
      serverMs.push((spent.user + spent.system) / 1000);
      const s = await childUnderTime(home, cwd);
      if (s) samples.push(s);
      const tree = await treeCpuMs(home, cwd);
      if (tree !== undefined) treeMs.push(tree);
    }
    // A separate run samples the children's VmHWM.
    const peak = new Map<number, number>();
    let parent = -1;
    const timer = setInterval(() => {
      if (parent < 0) return;
      for (const pid of childPids(parent)) {
        const kb = vmHwm(pid);
        if (kb !== undefined) peak.set(pid, Math.max(peak.get(pid) ?? 0, kb));
      }
    }, 5);
    try {
      await runTasks(home, cwd, 32, (pid) => (parent = pid));
    } finally {
      clearInterval(timer);
    }
    const alone = samples.length === 0 ? undefined : {
      kib: Math.max(...samples.map((x) => x.kib)),
      cpuSeconds: median(samples.map((x) => x.cpuSeconds)),
    };
    if (alone !== undefined) {
      // The best this machine can do: 32 children's CPU time spread over its cores.
      const bound = (32 * alone.cpuSeconds * 1000) / cpus().length;
      row(
        "fan-out",
        `32 tasks at concurrency 8 vs 32 × child CPU / ${cpus().length} cores`,
        median(runs),
        bound,
        "ms",
        1.2,
      );
      limitRow("fan-out", "  a child's CPU time per task", alone.cpuSeconds * 1000, 15, "ms");
      const children = 32 * alone.cpuSeconds * 1000;
      if (treeMs.length > 0) {
        row(
          "fan-out",
          "  the xcsh tree's CPU beyond 32 children alone (the parent; sharing the cores)",
          median(treeMs) - children,
          children,
          "ms",
          null,
        );
      }
      row(
        "fan-out",
        "  the bench's model server's CPU per fan-out (vs 32 children alone)",
        median(serverMs),
        children,
        "ms",
        null,
      );
    }
    row(
      "fan-out",
      "  32 tasks at concurrency 8 vs 4 × one task",
      median(runs),
      4 * oneTaskMedian,
      "ms",
      null,
    );
    const sampled = Math.max(0, ...peak.values()) / 1024;
    limitRow(
      "fan-out",
      `child peak RSS (/proc VmHWM, ${peak.size} children sampled)`,
      sampled,
      80,
      "MiB",
    );
    if (alone !== undefined) {
      limitRow(
        "fan-out",
        "child peak RSS (children alone, /usr/bin/time -v)",
        alone.kib / 1024,
        80,
        "MiB",
      );
    }
    details.fanout = {
      runMs: runs,
      oneTaskMedianMs: oneTaskMedian,
      childrenSampled: peak.size,
      peakKiB: [...peak.values()],
      alone: alone ?? null,
      childCpuSeconds: samples.map((x) => x.cpuSeconds),
      serverCpuMs: serverMs,
      treeCpuMs: treeMs,
    };
  } finally {
    await server.close();
  }
}
