/**
 * Where a child's tools may work: the folders the file tools are confined to
 * and the sandbox its `bash` commands run in.
 *
 * Decides the roots (the project root of the working directory, then each
 * existing folder of `task.additionalDirectories`, `~/` meaning the home
 * folder; all as real paths), the sandbox setting (the envelope's, else the
 * agent's and the config's by the usual precedence) and what happens when
 * bubblewrap cannot sandbox here: a required mode is an error, the default
 * runs commands unsandboxed with a warning. A sandboxed task gets a private
 * temporary folder (0700), removed by `cleanup`.
 *
 * @module
 */
import process from "node:process";
import { mkdtempSync, realpathSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chooseSandbox } from "../sandbox/mode.ts";
import { sharesHostNetwork } from "../sandbox/net-policy.ts";
import { bwrapLocations, sandboxSupport } from "../sandbox/probe.ts";
import { findProjectRoot } from "../sandbox/project-root.ts";
import type { CommandSandbox } from "../tools/tool-spec.ts";
import type { XcshConfig } from "../types.ts";
import type { TaskEnvelope } from "../protocol/envelope.ts";

export interface Workspace {
  /** The project root first, then the additional folders. */
  roots: string[];
  sandbox?: CommandSandbox;
  /** Removes the private temporary folder. */
  cleanup(): void;
}

export type WorkspaceResult =
  | { ok: true; value: Workspace; warnings: string[] }
  | { ok: false; error: string };

function real(dir: string): string | undefined {
  try {
    return statSync(dir).isDirectory() ? realpathSync(dir) : undefined;
  } catch {
    return undefined;
  }
}

/** The allowed folders of a task in `cwd`; missing additional folders are reported. */
export function workspaceRoots(
  cwd: string,
  home: string,
  config: XcshConfig,
): { roots: string[]; missing: string[]; ignored: string[] } {
  const found = findProjectRoot(cwd, home);
  const roots = [real(found.root) ?? resolve(cwd)];
  const missing: string[] = [];
  for (const d of config.task.additionalDirectories) {
    const abs = d === "~" ? home : d.startsWith("~/") ? join(home, d.slice(2)) : d;
    const r = real(abs);
    if (r === undefined) missing.push(d);
    else if (!roots.includes(r)) roots.push(r);
  }
  return { roots, missing, ignored: found.warnings.map((w) => `${w.file}: ${w.message}`) };
}

export interface WorkspaceInputs {
  envelope: TaskEnvelope;
  config: XcshConfig;
  home: string;
  /** The environment (`XCSH_NO_BWRAP`: see `src/sandbox/probe.ts`). */
  env: Readonly<Record<string, string | undefined>>;
  /** False when the child has no `bash` tool: no sandbox is needed. */
  usesBash: boolean;
  /** The parent (an xcsh) probed bubblewrap already: only look `bwrap` up. */
  parentChecked: boolean;
}

/** Sets up the roots and, when commands run, the sandbox. */
export function prepareWorkspace(i: WorkspaceInputs): WorkspaceResult {
  const { roots, missing, ignored } = workspaceRoots(i.envelope.cwd, i.home, i.config);
  const warnings = [
    ...ignored,
    ...missing.map((d) => `task.additionalDirectories: ${d} is not a folder (ignored)`),
  ];
  const none: Workspace = { roots, cleanup: () => {} };
  const setting = i.envelope.sandbox ?? chooseSandbox({
    agent: i.envelope.agent.sandbox,
    config: i.config.task.sandbox,
    network: i.config.task.sandboxNetwork,
  });
  if (!i.usesBash || setting.mode === "off") return { ok: true, value: none, warnings };
  const support = sandboxSupport(
    bwrapLocations(i.env),
    sharesHostNetwork(setting),
    i.parentChecked,
  );
  if (!support.ok) {
    if (setting.required) {
      return {
        ok: false,
        error: `the ${setting.mode} sandbox for bash cannot start: ${support.reason}. ` +
          "Install bubblewrap, or run with --sandbox off (task.sandbox: off) to run " +
          "commands unsandboxed",
      };
    }
    warnings.push(`${support.reason}: bash commands run unsandboxed`);
    return { ok: true, value: none, warnings };
  }
  const tmp = mkdtempSync(join(tmpdir(), "xcsh-sandbox-"));
  const remove = () => {
    try {
      rmSync(tmp, { recursive: true, force: true });
    } catch {
      // a file the command made unremovable: leave it to the system
    }
  };
  // A child that ends early (a signal's grace run out, an exit on a fatal
  // error) still removes its private /tmp; only SIGKILL leaves it behind.
  process.once("exit", remove);
  return {
    ok: true,
    value: {
      roots,
      sandbox: {
        mode: setting.mode,
        network: setting.network,
        ...(setting.reach ? { reach: setting.reach } : {}),
        bwrap: support.bwrap,
        tmp,
      },
      cleanup: () => {
        process.off("exit", remove);
        remove();
      },
    },
    warnings,
  };
}
