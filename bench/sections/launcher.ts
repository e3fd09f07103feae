/**
 * The launcher section: a fan-out of 8 tasks started through `srun` on a
 * one-node Slurm cluster started for the bench (tests/support/slurm.ts)
 * against the same fan-out started locally, measured alternately; the
 * difference over 8 is a launcher's cost per task (submitting a job, its
 * step, the I/O forwarding). Skipped with the reason where the cluster
 * cannot start (not root, no slurm-wlm or munge).
 *
 * @module
 */
import { startSlurm } from "../../tests/support/slurm.ts";
import { startModelServer } from "../../tests/support/model-server.ts";
import { requireXcsh } from "../measure.ts";
import { details, log, median, row } from "../report.ts";
import { runTasks, SUBMIT, taskHome } from "./tasks.ts";

const SRUN = `launcher: ["srun", "--quiet", "--job-name={job}", "--chdir={cwd}", "--"]`;

export async function benchLauncher(): Promise<void> {
  requireXcsh();
  const cluster = await startSlurm();
  if (typeof cluster === "string") {
    log(`launcher: skipped: ${cluster}`);
    return;
  }
  const server = await startModelServer({ respond: () => SUBMIT });
  try {
    const local = taskHome("launcher-local", server.url, 8);
    const srun = taskHome("launcher-srun", server.url, 8, SRUN);
    await runTasks(local.home, local.cwd, 8);
    await runTasks(srun.home, srun.cwd, 8, undefined, cluster.env);
    const l: number[] = [];
    const s: number[] = [];
    for (let i = 0; i < 7; i++) {
      l.push((await runTasks(local.home, local.cwd, 8)).ms);
      s.push((await runTasks(srun.home, srun.cwd, 8, undefined, cluster.env)).ms);
    }
    row("launcher", "fan-out of 8 through srun vs local", median(s), median(l), "ms", null);
    row(
      "launcher",
      "  srun's cost per task (difference / 8) vs one local fan-out",
      (median(s) - median(l)) / 8,
      median(l),
      "ms",
      null,
    );
    details.launcher = { localMs: l, srunMs: s };
  } finally {
    await server.close();
    cluster.stop();
  }
}
