/**
 * A real one-node Slurm cluster for the launcher tests: its own munge daemon
 * (key, socket) and `slurmctld` + `slurmd` on free local ports, with a
 * config written into a throwaway folder; `SLURM_CONF` in {@link
 * SlurmCluster.env} points `srun`, `squeue` and `scancel` at it. Needs
 * Linux, root (slurmd runs jobs as their user) and Debian's `slurm-wlm` and
 * `munge` on PATH (where a run that hides them, as `.ci/run` does, takes
 * them away); {@link startSlurm} returns the reason when any is missing or
 * the daemons do not come up, for the test to skip with.
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { cpus, hostname, tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import process from "node:process";
import { randomBytes } from "node:crypto";

export interface SlurmCluster {
  dir: string;
  /** `SLURM_CONF` (and a PATH holding the Slurm programs) for the processes that use it. */
  env: Record<string, string>;
  /** The job ids `squeue` lists now. */
  jobs(): string[];
  /** Runs a Slurm client program (`scancel`, `squeue`, …) against the cluster. */
  client(
    program: string,
    args: string[],
  ): { status: number | null; stdout: string; stderr: string };
  stop(): void;
}

const PROGRAMS = ["munged", "slurmctld", "slurmd", "srun", "squeue", "scancel", "sinfo"];
/** The folders of this process's PATH. */
const DIRS = (process.env.PATH ?? "").split(delimiter).filter((d) => d.startsWith("/"));

function which(name: string): string | undefined {
  for (const d of DIRS) {
    const r = spawnSync("test", ["-x", join(d, name)]);
    if (r.status === 0) return join(d, name);
  }
  return undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function readPid(file: string): number | undefined {
  try {
    const n = Number(readFileSync(file, "utf8").trim());
    return Number.isInteger(n) && n > 0 ? n : undefined;
  } catch {
    return undefined;
  }
}

/** Starts the cluster, or says why it cannot. */
export async function startSlurm(): Promise<SlurmCluster | string> {
  if (process.platform !== "linux") return "needs Linux";
  if (process.getuid?.() !== 0) return "needs root (slurmd runs each job as its user)";
  const missing = PROGRAMS.filter((p) => which(p) === undefined);
  if (missing.length > 0) {
    return `needs Slurm and munge (Debian: apt-get install slurm-wlm munge); missing: ${
      missing.join(", ")
    }`;
  }
  const dir = mkdtempSync(join(tmpdir(), "xcsh-slurm-"));
  const p = (...parts: string[]) => join(dir, ...parts);
  for (const d of ["munge", "state", "spool", "log"]) mkdirSync(p(d), { recursive: true });
  chmodSync(p("munge"), 0o700);
  writeFileSync(p("munge", "munge.key"), randomBytes(1024), { mode: 0o400 });
  const [ctldPort, slurmdPort] = [await freePort(), await freePort()];
  const host = hostname().split(".")[0];
  const socket = p("munge", "munge.sock");
  const conf = p("slurm.conf");
  writeFileSync(
    conf,
    [
      "ClusterName=xcshtest",
      `SlurmctldHost=${host}`,
      `SlurmctldPort=${ctldPort}`,
      `SlurmdPort=${slurmdPort}`,
      "AuthType=auth/munge",
      `AuthInfo=socket=${socket}`,
      "CredType=cred/munge",
      "SlurmUser=root",
      "SlurmdUser=root",
      `StateSaveLocation=${p("state")}`,
      `SlurmdSpoolDir=${p("spool")}`,
      `SlurmctldPidFile=${p("slurmctld.pid")}`,
      `SlurmdPidFile=${p("slurmd.pid")}`,
      `SlurmctldLogFile=${p("log", "slurmctld.log")}`,
      `SlurmdLogFile=${p("log", "slurmd.log")}`,
      "ProctrackType=proctrack/linuxproc",
      "TaskPlugin=task/none",
      "SelectType=select/cons_tres",
      "SelectTypeParameters=CR_CPU",
      "ReturnToService=2",
      "MpiDefault=none",
      "JobAcctGatherType=jobacct_gather/none",
      "AccountingStorageType=accounting_storage/none",
      "SchedulerType=sched/builtin",
      "KillWait=2",
      `NodeName=${host} CPUs=${cpus().length} RealMemory=1000 State=UNKNOWN`,
      // Jobs share the node's CPUs: a fan-out of 8 on 2 cores runs at once.
      "PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:32",
      "",
    ].join("\n"),
  );
  const env = { SLURM_CONF: conf, PATH: process.env.PATH ?? "/usr/sbin:/usr/bin" };
  const run = (program: string, args: string[]) => {
    const r = spawnSync(program, args, {
      env: { ...process.env, ...env },
      encoding: "utf8",
      timeout: 20_000,
    });
    return { status: r.status, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
  };
  const stop = () => {
    for (const f of ["slurmd.pid", "slurmctld.pid", "munge/munged.pid"]) {
      const pid = readPid(p(f));
      if (pid === undefined) continue;
      try {
        process.kill(pid, "SIGTERM");
      } catch { /* gone */ }
    }
    spawnSync("sleep", ["0.5"]);
    for (const f of ["slurmd.pid", "slurmctld.pid", "munge/munged.pid"]) {
      const pid = readPid(p(f));
      if (pid === undefined) continue;
      try {
        process.kill(pid, "SIGKILL");
      } catch { /* gone */ }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const started = (what: string, r: { status: number | null; stderr: string }) =>
    r.status === 0 ? undefined : `${what} did not start: ${r.stderr.trim().split("\n").at(-1)}`;
  const failed = started(
    "munged",
    run("munged", [
      "--force",
      `--key-file=${p("munge", "munge.key")}`,
      `--socket=${socket}`,
      `--pid-file=${p("munge", "munged.pid")}`,
      `--log-file=${p("munge", "munged.log")}`,
      `--seed-file=${p("munge", "seed")}`,
    ]),
  ) ?? started("slurmctld", run("slurmctld", ["-c"])) ??
    started("slurmd", run("slurmd", []));
  if (failed) {
    stop();
    return failed;
  }
  // The node registers within a few seconds.
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    const r = run("sinfo", ["-h", "-o", "%T"]);
    if (r.status === 0 && /^(idle|mixed|allocated)/m.test(r.stdout)) {
      return {
        dir,
        env,
        client: run,
        jobs: () =>
          run("squeue", ["-h", "-o", "%i"]).stdout.split("\n").map((s) => s.trim()).filter(
            Boolean,
          ),
        stop,
      };
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const log = (() => {
    try {
      return readFileSync(p("log", "slurmd.log"), "utf8").trim().split("\n").at(-1);
    } catch {
      return "no log";
    }
  })();
  stop();
  return `the Slurm node did not come up within 30 s (slurmd: ${log})`;
}
