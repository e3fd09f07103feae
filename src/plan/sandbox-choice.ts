/**
 * The sandbox a child gets, decided by the parent before the child starts.
 *
 * Decides, from `--sandbox`, the agent, the config and the calling task (see
 * `src/sandbox/mode.ts`), the setting that travels in the envelope, and what
 * happens where bubblewrap cannot sandbox (probed once per process, only for
 * an agent that starts commands: `bash` or hooks, see `startsCommands`): a mode somebody asked for is a usage error
 * before any child starts; the default becomes `off`, with one warning per
 * process.
 *
 * @example
 * ```ts
 * import type { AgentDefinition, XcshConfig } from "../types.ts";
 *
 * declare const agent: AgentDefinition;
 * declare const config: XcshConfig;
 * const s = await sandboxFor({ request: "read-only", agent, config, env: process.env });
 * if (!s.ok) console.error(s.message); // "--sandbox read-only: bubblewrap (bwrap) is not installed …"
 * ```
 *
 * @module
 */
import { chooseSandbox, describeSource, startsCommands } from "../sandbox/mode.ts";
import { sharesHostNetwork } from "../sandbox/net-policy.ts";
import process from "node:process";
import {
  bwrapLocations,
  type ProbeMemory,
  sandboxSupportSoon,
  startSandboxProbe,
} from "../sandbox/probe.ts";
import { cacheDir } from "../discovery/cache-dir.ts";
import { isCompiled } from "../runtime.ts";
import { probeMemory } from "../sandbox/probe-memory.ts";
import type {
  AgentDefinition,
  Diagnostic,
  SandboxMode,
  SandboxSetting,
  XcshConfig,
} from "../types.ts";

export type SandboxDecision =
  | { ok: true; setting: SandboxSetting; warning?: Diagnostic }
  | { ok: false; message: string };

export interface SandboxRequest {
  /** `--sandbox`. */
  request?: SandboxMode;
  /** The effective agent (plan mode has already removed `bash`), with its hooks. */
  agent: AgentDefinition;
  config: XcshConfig;
  /** The calling task's sandbox, for delegated tasks. */
  caller?: SandboxSetting;
  /** The environment (`XCSH_NO_BWRAP`: see `src/sandbox/probe.ts`). */
  env: Readonly<Record<string, string | undefined>>;
  /**
   * The user's home: the probes that succeeded are remembered in xcsh's
   * cache folder there (`sandbox/probe-memory.ts`). Absent: nothing is remembered.
   */
  home?: string;
}

let warned = false;

/** Where the probes of `r`'s user are remembered, if anywhere. */
function memoryOf(r: Pick<SandboxRequest, "env" | "home">): ProbeMemory | undefined {
  if (r.home === undefined) return undefined;
  return probeMemory(cacheDir({
    env: r.env,
    home: r.home,
    platform: process.platform,
    compiled: isCompiled(),
  }));
}

/**
 * Starts finding out whether bubblewrap works here, for the sandbox the
 * request will most likely get (the agent's own mode is not known yet), so
 * that {@link sandboxFor} finds the answer ready. Nothing starts when that
 * sandbox is off.
 */
export function probeSandboxEarly(r: Omit<SandboxRequest, "agent">): void {
  const choice = chooseSandbox({
    flag: r.request,
    config: r.config.task.sandbox,
    network: r.config.task.sandboxNetwork,
    caller: r.caller,
  });
  if (choice.mode !== "off") {
    startSandboxProbe(bwrapLocations(r.env), sharesHostNetwork(choice), undefined, memoryOf(r));
  }
}

/** The child's sandbox, or why it cannot have the one asked for. */
export async function sandboxFor(r: SandboxRequest): Promise<SandboxDecision> {
  const choice = chooseSandbox({
    flag: r.request,
    agent: r.agent.sandbox,
    config: r.config.task.sandbox,
    network: r.config.task.sandboxNetwork,
    caller: r.caller,
  });
  const setting: SandboxSetting = {
    mode: choice.mode,
    network: choice.network,
    ...(choice.reach ? { reach: choice.reach } : {}),
    required: choice.required,
  };
  if (setting.mode === "off" || !startsCommands(r.agent)) return { ok: true, setting };
  const support = await sandboxSupportSoon(
    bwrapLocations(r.env),
    sharesHostNetwork(setting),
    memoryOf(r),
  );
  if (support.ok) return { ok: true, setting };
  if (setting.required) {
    return {
      ok: false,
      message: `${describeSource(choice)}: ${support.reason}. Install bubblewrap, or use ` +
        "--sandbox off (task.sandbox: off) to run bash commands unsandboxed",
    };
  }
  const off: SandboxSetting = { ...setting, mode: "off" };
  if (warned) return { ok: true, setting: off };
  warned = true;
  return {
    ok: true,
    setting: off,
    warning: {
      level: "warning",
      field: "task.sandbox",
      message: `${support.reason}: bash commands run unsandboxed ` +
        "(task.sandbox: off says so and silences this warning)",
    },
  };
}
