/**
 * The sandbox part of `xcsh doctor`: the bash sandbox a task started here
 * would get by default (from `task.sandbox`, else `workspace-write`), whether
 * bubblewrap can provide it on this machine, and the folders the file tools
 * and sandboxed commands may write.
 *
 * @module
 */
import { workspaceRoots } from "../child/workspace.ts";
import { chooseSandbox } from "../sandbox/mode.ts";
import { sandboxSupport } from "../sandbox/probe.ts";
import type { XcshConfig } from "../types.ts";

export interface SandboxReport {
  mode: string;
  source: string;
  network: boolean;
  bwrap: { ok: true; path: string } | { ok: false; reason: string };
  /** The project root, then the additional folders. */
  roots: string[];
  /** `task.additionalDirectories` entries that are not folders. */
  missing: string[];
  /** What the walk to the project root ignored (another user's `.git`, …). */
  ignored: string[];
}

/** What `doctor` says about the sandbox for `cwd`. */
export function sandboxReport(
  config: XcshConfig,
  cwd: string,
  home: string,
  path: string | undefined,
): SandboxReport {
  const choice = chooseSandbox({
    config: config.task.sandbox,
    network: config.task.sandboxNetwork,
  });
  const support = sandboxSupport(path, choice.network);
  const { roots, missing, ignored } = workspaceRoots(cwd, home, config);
  return {
    mode: choice.mode,
    source: choice.source,
    network: choice.network,
    bwrap: support.ok ? { ok: true, path: support.bwrap } : { ok: false, reason: support.reason },
    roots,
    missing,
    ignored,
  };
}

/** The report as indented lines. */
export function sandboxLines(r: SandboxReport): string[] {
  const works = r.bwrap.ok ? `${r.bwrap.path} works` : `unavailable: ${r.bwrap.reason}`;
  const effective = r.mode !== "off" && !r.bwrap.ok
    ? r.source === "default" ? " (commands run unsandboxed here)" : " (tasks with bash fail here)"
    : "";
  return [
    `  mode         ${r.mode} (${r.source})${effective}`,
    `  network      ${r.network ? "on" : "off"}`,
    `  bubblewrap   ${works}`,
    `  project      ${r.roots[0]}`,
    ...r.ignored.map((w) => `  ignored      ${w}`),
    ...r.roots.slice(1).map((d) => `  also         ${d}`),
    ...r.missing.map((d) => `  missing      ${d} (task.additionalDirectories; ignored)`),
  ];
}
