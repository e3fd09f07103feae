/**
 * Where a child's tools may work: the folders the file tools are confined to
 * and the sandbox its commands run in (its `bash` commands and its hooks:
 * a task that starts either gets one, see `startsCommands`).
 *
 * Decides the roots (the project root of the working directory, then each
 * existing folder of `task.additionalDirectories`, `~/` meaning the home
 * folder; all as real paths; then the agent's memory folder, which the
 * parent resolved where it belongs) and the folders behind them, each
 * checked through `fs/confined-folder.ts` (no symlink on the way) with its
 * identity kept: the outermost writable ones, and the skill folders inside
 * them, which stay read-only (the project's skill folders from the working
 * directory up to the project root, those at the top of each additional
 * folder, and the user's when an additional folder holds them; not one
 * the user named as an additional folder, or holding one). The sandbox is
 * the one the plan names (`envelope.sandbox`, decided by the parent in
 * `plan/sandbox-choice.ts`); where bubblewrap cannot run here (a
 * launcher's far side), the plan's `required` says what follows: an error
 * in one line, or commands (hooks too) unsandboxed with a warning. A sandboxed task
 * gets a private temporary folder (0700, made when a command first needs
 * it), removed by `cleanup`, and the
 * files its hooks and MCP servers run from its folders read-only
 * (`program-files.ts`).
 *
 * @module
 */
import process from "node:process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { type ConfinedFolder, confinedFolder } from "../fs/confined-folder.ts";
import { isInside } from "../fs/path-inside.ts";
import { realDir } from "../fs/real-entry.ts";
import { PROJECT_SKILL_FOLDERS, userSkillFolders } from "../discovery/skill-places.ts";
import { startsCommands } from "../sandbox/mode.ts";
import { sharesHostNetwork } from "../sandbox/net-policy.ts";
import { bwrapLocations, sandboxSupport } from "../sandbox/probe.ts";
import { findProjectRoot } from "../sandbox/project-root.ts";
import type { CommandSandbox } from "../tools/tool-spec.ts";
import type { XcshConfig } from "../types.ts";
import type { TaskEnvelope } from "../protocol/envelope.ts";
import { programFiles } from "./program-files.ts";

export interface Workspace {
  /** The project root first, then the additional folders, then the memory folder. */
  roots: string[];
  /** The outermost writable folders and the read-only skill folders inside them. */
  folders: { writable: ConfinedFolder[]; readOnly: ConfinedFolder[] };
  /** The files the task's hooks and MCP servers run from its folders: no tool writes them. */
  programs: string[];
  sandbox?: CommandSandbox;
  /** Removes the private temporary folder. */
  cleanup(): void;
}

export type WorkspaceResult =
  | { ok: true; value: Workspace; warnings: string[] }
  | { ok: false; error: string };

/** The allowed folders of a task in `cwd`; missing additional folders are reported. */
export function workspaceRoots(
  cwd: string,
  home: string,
  config: XcshConfig,
): { roots: string[]; missing: string[]; ignored: string[] } {
  const found = findProjectRoot(cwd, home);
  const roots = [realDir(found.root) ?? resolve(cwd)];
  const missing: string[] = [];
  for (const d of config.task.additionalDirectories) {
    const abs = d === "~" ? home : d.startsWith("~/") ? join(home, d.slice(2)) : d;
    const r = realDir(abs);
    if (r === undefined) missing.push(d);
    else if (!roots.includes(r)) roots.push(r);
  }
  return { roots, missing, ignored: found.warnings.map((w) => `${w.file}: ${w.message}`) };
}

/**
 * The folders behind `roots` (real paths; a memory folder last, if any):
 * each checked again, the outermost kept as writable, and the skill folders
 * inside them as read-only. A root that fails the check is dropped, with a
 * warning naming it.
 */
export function workspaceFolders(
  roots: readonly string[],
  at: { cwd: string; home: string; env: Readonly<Record<string, string | undefined>> },
): { roots: string[]; folders: Workspace["folders"]; warnings: string[] } {
  const warnings: string[] = [];
  const kept: ConfinedFolder[] = [];
  for (const r of roots) {
    const c = confinedFolder("/", r.slice(1), {
      kind: "the tools'",
      where: "the place they were resolved at the start",
    });
    if (c.ok) kept.push(c.value);
    else warnings.push(`${c.error} (not a folder the tools may use)`);
  }
  const paths = kept.map((f) => f.path);
  const writable = kept.filter((f, i) =>
    !kept.some((o, j) => j !== i && o.path !== f.path && isInside(f.path, [o.path])) &&
    paths.indexOf(f.path) === i
  );
  const readOnly: ConfinedFolder[] = [];
  const add = (anchor: string, rel: string) => {
    const c = confinedFolder(anchor, rel, { kind: "skill", where: "the project" });
    if (!c.ok || !isInside(c.value.path, paths)) return;
    // A folder the user made a root of its own (a skills folder as an
    // additional folder) is theirs to write.
    if (paths.some((r) => isInside(r, [c.value.path]))) return;
    if (!readOnly.some((f) => f.path === c.value.path)) readOnly.push(c.value);
  };
  if (paths.length > 0) {
    let dir = realDir(at.cwd) ?? resolve(at.cwd);
    for (; isInside(dir, [paths[0]]); dir = dirname(dir)) {
      for (const rel of PROJECT_SKILL_FOLDERS) add(dir, rel);
      if (dir === paths[0]) break;
    }
  }
  for (const p of paths.slice(1)) for (const rel of PROJECT_SKILL_FOLDERS) add(p, rel);
  for (const u of userSkillFolders(at)) {
    const r = realDir(dirname(u));
    if (r && isInside(r, paths)) add(r, "skills");
  }
  return { roots: paths, folders: { writable, readOnly }, warnings };
}

export interface WorkspaceInputs {
  envelope: TaskEnvelope;
  config: XcshConfig;
  home: string;
  /** The environment (`XCSH_NO_BWRAP`: see `src/sandbox/probe.ts`). */
  env: Readonly<Record<string, string | undefined>>;
  /** The names of the child's tools (with the envelope's hooks: whether commands run). */
  toolNames: readonly string[];
  /** The parent (an xcsh) probed bubblewrap already: only look `bwrap` up. */
  parentChecked: boolean;
}

/** Sets up the roots and, when commands run, the sandbox. */
export function prepareWorkspace(i: WorkspaceInputs): WorkspaceResult {
  const found = workspaceRoots(i.envelope.cwd, i.home, i.config);
  const memory = i.envelope.memory?.dir;
  const { roots, folders, warnings: dropped } = workspaceFolders(
    memory ? [...found.roots, memory] : found.roots,
    { cwd: i.envelope.cwd, home: i.home, env: i.env },
  );
  const warnings = [
    ...found.ignored,
    ...found.missing.map((d) => `task.additionalDirectories: ${d} is not a folder (ignored)`),
    ...dropped,
  ];
  const hooks = i.envelope.agent.hooks;
  const programs = programFiles({
    hooks,
    servers: i.envelope.mcpServers,
    cwd: i.envelope.cwd,
    projectDir: roots[0],
    roots,
  });
  const none: Workspace = { roots, folders, programs, cleanup: () => {} };
  const setting = i.envelope.sandbox;
  if (setting.mode === "off" || !startsCommands({ tools: i.toolNames, hooks })) {
    return { ok: true, value: none, warnings };
  }
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
  // The private /tmp is made when a command first needs it (a task whose
  // commands never run makes none: a folder in /tmp costs about a
  // millisecond to make and remove).
  let tmp: string | undefined;
  const remove = () => {
    if (tmp === undefined) return;
    try {
      rmSync(tmp, { recursive: true, force: true });
    } catch {
      // a file the command made unremovable: leave it to the system
    }
  };
  const sandbox: CommandSandbox = {
    mode: setting.mode,
    network: setting.network,
    ...(setting.reach ? { reach: setting.reach } : {}),
    bwrap: support.bwrap,
    get tmp(): string {
      if (tmp === undefined) {
        tmp = mkdtempSync(join(tmpdir(), "xcsh-sandbox-"));
        // A child that ends early (a signal's grace run out, an exit on a
        // fatal error) still removes its private /tmp; only SIGKILL leaves it.
        process.once("exit", remove);
      }
      return tmp;
    },
    ...(programs.length > 0 ? { readOnly: programs } : {}),
  };
  return {
    ok: true,
    value: {
      roots,
      folders,
      programs,
      sandbox,
      cleanup: () => {
        process.off("exit", remove);
        remove();
      },
    },
    warnings,
  };
}
