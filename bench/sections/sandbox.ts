/**
 * The cost of the bash sandbox: one `bash` tool call running `true`,
 * unsandboxed and inside bubblewrap (`workspace-write`), with the network
 * off and with it on (the command in its own network namespace, reaching
 * the network through the proxy and dist/xcsh's bridge), alternated so all
 * see the same machine; and the once-per-process probe. Skipped, with a
 * note, where bubblewrap cannot sandbox.
 *
 * @module
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { spawnSync } from "node:child_process";
import { bashTool } from "../../src/tools/bash.ts";
import { probeArgs } from "../../src/sandbox/bwrap-args.ts";
import { hostHiding } from "../../src/sandbox/host-sockets.ts";
import { bwrapLocations, sandboxSupport } from "../../src/sandbox/probe.ts";
import type { ToolContext } from "../../src/tools/tool-spec.ts";
import { unavailableTaskRunner } from "../../src/tools/task.ts";
import { tmp, XCSH } from "../measure.ts";
import { details, limitRow, log, median, row } from "../report.ts";

const RUNS = 30;
/** Extra milliseconds a sandboxed command may cost. */
const OVERHEAD_LIMIT_MS = 15;

export async function benchSandbox(): Promise<void> {
  const support = sandboxSupport(bwrapLocations(process.env), true);
  if (!support.ok) {
    log(`sandbox: skipped (${support.reason})`);
    return;
  }
  const dir = tmp("sandbox");
  const tmpDir = join(dir, "tmp");
  mkdirSync(tmpDir);
  const base: ToolContext = {
    cwd: dir,
    roots: [dir],
    signal: new AbortController().signal,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    findings: [],
    runTask: unavailableTaskRunner,
  };
  const boxed: ToolContext = {
    ...base,
    sandbox: { mode: "workspace-write", network: false, bwrap: support.bwrap, tmp: tmpDir },
  };
  // The bridge a user's binary starts: dist/xcsh itself.
  const networked: ToolContext = {
    ...base,
    sandbox: {
      mode: "workspace-write",
      network: true,
      bwrap: support.bwrap,
      tmp: tmpDir,
      bridge: { command: [XCSH], needs: [XCSH] },
    },
  };
  const plain: number[] = [];
  const sandboxed: number[] = [];
  const bridged: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    for (
      const [ctx, into] of [[base, plain], [boxed, sandboxed], [networked, bridged]] as const
    ) {
      const t = performance.now();
      const r = await bashTool.run({ command: "true" }, ctx);
      into.push(performance.now() - t);
      if (!r.ok) throw new Error(`bash true failed: ${r.output}`);
    }
  }
  const probe: number[] = [];
  for (let i = 0; i < 10; i++) {
    const t = performance.now();
    spawnSync(support.bwrap, probeArgs(true, tmpDir, hostHiding()), { stdio: "ignore" });
    probe.push(performance.now() - t);
  }
  const p = median(plain);
  const s = median(sandboxed);
  const n = median(bridged);
  row("sandbox", "bash `true`, sandboxed vs not", s, p, "ms", null);
  limitRow("sandbox", "sandbox overhead per command, network off", s - p, OVERHEAD_LIMIT_MS, "ms");
  row("sandbox", "the same with the network on (proxy + bridge)", n, s, "ms", null);
  limitRow("sandbox", "bwrap probe (once per process)", median(probe), OVERHEAD_LIMIT_MS, "ms");
  details.sandbox = { plainMs: plain, sandboxedMs: sandboxed, bridgedMs: bridged, probeMs: probe };
}
