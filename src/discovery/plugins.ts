/**
 * Which Claude Code plugins contribute agents and commands, and in what order.
 *
 * Decides how `installed_plugins.json` is read (version 1: one user-scope
 * install per id; version 2: a list of installs per id, each with a scope),
 * when an install counts (not `enabled: false`, not `false` in the merged
 * `enabledPlugins` of the user's and the project's Claude settings, and for
 * `project`/`local` scope only when its `projectPath` is cwd or a folder the
 * walk up from it visits: `walk-up.ts`, which stops below `$HOME`), the
 * project's settings coming from the nearest `.claude` the walk accepts,
 * and the order: project-scoped installs first, then user-scoped, each in
 * file order. Bad files are warnings; discovery goes on.
 *
 * @module
 */
import {
  MAX_SETTINGS_FILE_BYTES,
  ownershipProblem,
  parseJsonFile,
  readCappedSync,
} from "../fs/file-safety.ts";
import { isAbsolute, join, resolve } from "node:path";
import { claudeHome, type DiscoveryEnv, isDirectory } from "./config-dirs.ts";
import type { Diagnostic } from "../types.ts";
import { findUp, isFolderInfo, walkUpDirs } from "../fs/walk-up.ts";
import { isRecord } from "../formats/values.ts";

export type PluginScope = "project" | "local" | "user" | "managed";

/** One install listed in the registry, and the verdict on it. */
export interface PluginInstall {
  id: string;
  scope: PluginScope;
  installPath?: string;
  projectPath?: string;
  included: boolean;
  /** Why it is in or out, for `xcsh doctor`. */
  reason: string;
}

/** A plugin root that contributes its `agents/` and `commands/` folders. */
export interface PluginRoot {
  id: string;
  scope: PluginScope;
  path: string;
}

export interface PluginListing {
  roots: PluginRoot[];
  installs: PluginInstall[];
  /** The files read: registry and settings, whether each exists. */
  files: { path: string; exists: boolean }[];
  /** The Claude settings files read, user's first (their hooks: `settings-hooks.ts`). */
  settings: SettingsFile[];
  warnings: Diagnostic[];
}

/** A Claude Code settings file as read: its parsed value and bytes, or why not. */
export interface SettingsFile {
  path: string;
  /** `user`: `~/.claude/settings.json`; `project`/`local`: the project's `settings(.local).json`. */
  scope: "user" | "project" | "local";
  read: JsonRead;
}

interface RawInstall {
  id: string;
  entry: Record<string, unknown>;
}

/**
 * Flattens a parsed registry into installs in file order; a string result is
 * the reason the shape is wrong.
 */
export function readRegistry(doc: unknown): RawInstall[] | string {
  if (!isRecord(doc) || !isRecord(doc.plugins)) {
    return "expected an object with a 'plugins' object (installed_plugins.json version 1 or 2)";
  }
  const out: RawInstall[] = [];
  for (const [id, value] of Object.entries(doc.plugins)) {
    const entries = Array.isArray(value) ? value : [value];
    for (const entry of entries) {
      if (isRecord(entry)) out.push({ id, entry });
    }
  }
  return out;
}

const SCOPES: readonly string[] = ["project", "local", "user", "managed"];

/**
 * Judges each install. `enabled` is the merged `enabledPlugins` map;
 * `ancestors` are cwd and its ancestors (absolute).
 */
export function judgeInstalls(
  raw: readonly RawInstall[],
  enabled: Readonly<Record<string, unknown>>,
  ancestors: readonly string[],
): PluginInstall[] {
  const judged = raw.map(({ id, entry }): PluginInstall => {
    const scope = (SCOPES.includes(entry.scope as string) ? entry.scope : "user") as PluginScope;
    const installPath = typeof entry.installPath === "string" ? entry.installPath : undefined;
    const projectPath = typeof entry.projectPath === "string" ? entry.projectPath : undefined;
    const base = { id, scope, installPath, projectPath };
    if (entry.enabled === false) {
      return { ...base, included: false, reason: "disabled in installed_plugins.json" };
    }
    if (enabled[id] === false) {
      return { ...base, included: false, reason: "disabled in enabledPlugins" };
    }
    if (scope === "project" || scope === "local") {
      if (!projectPath) {
        return { ...base, included: false, reason: `${scope} install without projectPath` };
      }
      if (!ancestors.includes(resolve(projectPath))) {
        return {
          ...base,
          included: false,
          reason: `installed for another project (${projectPath})`,
        };
      }
    }
    if (!installPath) return { ...base, included: false, reason: "installPath missing" };
    if (!isAbsolute(installPath)) {
      return { ...base, included: false, reason: `installPath is not absolute (${installPath})` };
    }
    return { ...base, included: true, reason: `${scope} install` };
  });
  const projectFirst = (i: PluginInstall) => (i.scope === "project" || i.scope === "local" ? 0 : 1);
  return judged
    .map((install, index) => ({ install, index }))
    .sort((a, b) => projectFirst(a.install) - projectFirst(b.install) || a.index - b.index)
    .map((x) => x.install);
}

export type JsonRead =
  | { exists: false }
  | { exists: true; value?: unknown; error?: string; bytes?: Uint8Array };

/**
 * Synchronous: these are small files, read before anything else can run.
 * Measured on the open descriptor and read capped (a FIFO or a device is
 * refused, never waited on); a file someone else could have written is
 * refused too (see `file-safety.ts`).
 */
export function readJson(path: string): JsonRead {
  const r = readCappedSync(path, MAX_SETTINGS_FILE_BYTES);
  if (!r.ok) {
    if (r.code === "ENOENT" || r.code === "ENOTDIR") return { exists: false };
    if (r.code === "EISDIR" || r.code === "ENOTREG") {
      return { exists: true, error: "is not a regular file" };
    }
    if (r.code === "EFBIG") return { exists: true, error: r.reason };
    return { exists: true, error: `cannot read (${(r.error as Error)?.message ?? r.reason})` };
  }
  const problem = ownershipProblem(r.info);
  if (problem) return { exists: true, error: `${problem}, so it is not trusted` };
  const text = r.bytes.toString("utf8");
  const parsed = parseJsonFile(text);
  return parsed.ok
    ? { exists: true, value: parsed.value, bytes: r.bytes }
    : { exists: true, error: parsed.reason };
}

/**
 * The nearest project `.claude` folder (never `~/.claude`) the walk accepts
 * (`walk-up.ts`), if any; refused ones add a warning.
 */
function nearestProjectClaudeDir(
  e: Pick<DiscoveryEnv, "cwd" | "home">,
  warnings: Diagnostic[],
): string | undefined {
  return findUp(e.cwd, e.home, ".claude", isFolderInfo, warnings)?.path;
}

/**
 * Lists the Claude plugin roots that count for this cwd, with a verdict on
 * every install for `xcsh doctor`.
 */
export function listClaudePluginRoots(e: DiscoveryEnv): PluginListing {
  const warnings: Diagnostic[] = [];
  const claude = claudeHome(e.home, e.env);
  const registryPath = join(claude, "plugins", "installed_plugins.json");
  const projectClaude = nearestProjectClaudeDir(e, warnings);
  const settingsPaths = [
    join(claude, "settings.json"),
    ...(projectClaude
      ? [join(projectClaude, "settings.json"), join(projectClaude, "settings.local.json")]
      : []),
  ];
  const [registry, ...settings] = [registryPath, ...settingsPaths].map(readJson);
  const files = [registryPath, ...settingsPaths].map((path, i) => ({
    path,
    exists: [registry, ...settings][i].exists,
  }));
  const scopes = ["user", "project", "local"] as const;
  const settingsFiles = settings.map((read, i) => ({
    path: settingsPaths[i],
    scope: scopes[i],
    read,
  }));

  const enabled: Record<string, unknown> = {};
  settings.forEach((s, i) => {
    if (!s.exists) return;
    if (s.error) {
      warnings.push({
        level: "warning",
        file: settingsPaths[i],
        message: `${s.error}; its enabledPlugins are ignored`,
      });
      return;
    }
    const map = isRecord(s.value) ? s.value.enabledPlugins : undefined;
    if (map === undefined) return;
    if (!isRecord(map)) {
      warnings.push({
        level: "warning",
        file: settingsPaths[i],
        field: "enabledPlugins",
        message: "'enabledPlugins' must be an object; ignored",
      });
      return;
    }
    Object.assign(enabled, map);
  });

  if (!registry.exists) {
    return { roots: [], installs: [], files, settings: settingsFiles, warnings };
  }
  if (registry.error) {
    warnings.push({
      level: "warning",
      file: registryPath,
      message: `${registry.error}; no plugin agents loaded`,
    });
    return { roots: [], installs: [], files, settings: settingsFiles, warnings };
  }
  const raw = readRegistry(registry.value);
  if (typeof raw === "string") {
    warnings.push({
      level: "warning",
      file: registryPath,
      message: `${raw}; no plugin agents loaded`,
    });
    return { roots: [], installs: [], files, settings: settingsFiles, warnings };
  }
  // A project install counts for the folders the walk visits (and cwd itself).
  const walked = [...new Set([resolve(e.cwd), ...walkUpDirs(e.cwd, e.home)])];
  const installs = judgeInstalls(raw, enabled, walked);
  const exists = installs.map((i) => (i.included ? isDirectory(i.installPath!) : false));
  const roots: PluginRoot[] = [];
  installs.forEach((install, i) => {
    if (install.included && !exists[i]) {
      install.included = false;
      install.reason = `installPath does not exist (${install.installPath})`;
    }
    if (install.included) {
      roots.push({ id: install.id, scope: install.scope, path: install.installPath! });
    } else if (/^installPath/.test(install.reason)) {
      warnings.push({
        level: "warning",
        file: registryPath,
        message: `plugin ${install.id}: ${install.reason}; skipped`,
      });
    }
  });
  return { roots, installs, files, settings: settingsFiles, warnings };
}
