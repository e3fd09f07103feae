/**
 * The sandbox part of `xcsh doctor`: the bash sandbox a task started here
 * would get by default (from `task.sandbox`, else `workspace-write`), whether
 * bubblewrap can provide it on this machine (and which binary; a `bwrap` on
 * `PATH` that is not that one is named as ignored, never run), the folders
 * the file tools and sandboxed commands may write, and which variables of
 * this environment commands would not get (names only, never values).
 *
 * @module
 */
import { realpathSync, statSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import { workspaceRoots } from "../child/workspace.ts";
import { chooseSandbox } from "../sandbox/mode.ts";
import { keyVariables } from "../model/providers.ts";
import { commandEnvironment } from "../sandbox/command-env.ts";
import { bwrapLocations, sandboxSupport } from "../sandbox/probe.ts";
import { describeNetwork, sharesHostNetwork } from "../sandbox/net-policy.ts";
import type { XcshConfig } from "../types.ts";

export interface SandboxReport {
  mode: string;
  source: string;
  network: boolean;
  /** What commands reach with the network on (see `sandbox/net-policy.ts`). */
  reach: string;
  bwrap: { ok: true; path: string } | { ok: false; reason: string };
  /** Files named `bwrap` on `PATH` that are not the one used (bubblewrap never comes from PATH). */
  ignoredOnPath: string[];
  /** The project root, then the additional folders. */
  roots: string[];
  /** `task.additionalDirectories` entries that are not folders. */
  missing: string[];
  /** What the walk to the project root ignored (another user's `.git`, …). */
  ignored: string[];
  /** Variables of this environment that commands do not get, and `task.allowEnv`. */
  env: { withheld: string[]; allowed: string[] };
}

function real(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

/** The files named `bwrap` on `path` (entries resolved against `cwd`) other than `used`. */
function bwrapsOnPath(path: string | undefined, cwd: string, used: string | undefined): string[] {
  const out: string[] = [];
  const usedReal = used === undefined ? undefined : real(used);
  for (const dir of (path ?? "").split(delimiter)) {
    if (dir === "") continue;
    const file = resolve(cwd, join(dir, "bwrap"));
    try {
      if (!statSync(file).isFile()) continue;
    } catch {
      continue;
    }
    if (real(file) !== usedReal && !out.includes(file)) out.push(file);
  }
  return out;
}

/** What `doctor` says about the sandbox for `cwd`. */
export function sandboxReport(
  config: XcshConfig,
  cwd: string,
  home: string,
  env: Readonly<Record<string, string | undefined>>,
): SandboxReport {
  const choice = chooseSandbox({
    config: config.task.sandbox,
    network: config.task.sandboxNetwork,
  });
  const support = sandboxSupport(bwrapLocations(env), sharesHostNetwork(choice));
  const { roots, missing, ignored } = workspaceRoots(cwd, home, config);
  const commands = commandEnvironment(env, {
    remove: keyVariables(config),
    allow: config.task.allowEnv,
  });
  return {
    mode: choice.mode,
    source: choice.source,
    network: choice.network,
    reach: describeNetwork(choice.network, choice.reach),
    bwrap: support.ok ? { ok: true, path: support.bwrap } : { ok: false, reason: support.reason },
    ignoredOnPath: bwrapsOnPath(env.PATH, cwd, support.ok ? support.bwrap : undefined),
    roots,
    missing,
    env: { withheld: [...commands.dropped].sort(), allowed: config.task.allowEnv },
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
    `  network      ${r.reach}`,
    `  bubblewrap   ${works}`,
    ...r.ignoredOnPath.map((f) => `  ignored      ${f} (bubblewrap is never taken from PATH)`),
    `  project      ${r.roots[0]}`,
    ...r.ignored.map((w) => `  ignored      ${w}`),
    ...r.roots.slice(1).map((d) => `  also         ${d}`),
    ...r.missing.map((d) => `  missing      ${d} (task.additionalDirectories; ignored)`),
    `  withheld     ${r.env.withheld.length === 0 ? "none" : r.env.withheld.join(", ")}` +
    " (variables commands do not get)",
    ...(r.env.allowed.length > 0 ? [`  allowEnv     ${r.env.allowed.join(", ")}`] : []),
  ];
}
