/**
 * The hooks Claude Code users keep outside agent files, and which of them
 * run: the `hooks` of `~/.claude/settings.json` (`$CLAUDE_CONFIG_DIR`
 * respected) and of the user's installed, enabled plugins'
 * `hooks/hooks.json` always; those of a project's `.claude/settings.json`
 * and `.claude/settings.local.json` (and of a plugin whose hooks file lies
 * in the project) only when `xcsh trust` recorded that file with its
 * current content. Codex's `hooks.json` has Claude Code's shape: the user's
 * (`$CODEX_HOME`, default `~/.codex`) is read always, the nearest project
 * `.codex/hooks.json` after trust, like a project's settings. The settings files are the ones plugin discovery reads
 * (`discovery/plugins.ts`), read once. Order, as Claude Code merges them:
 * the user's, the project's, the local file's, Codex's, then the plugins'; each
 * group carries its file in `from`. A file that is not JSON, or whose
 * `hooks` has a shape xcsh cannot read, is one warning naming it and adds
 * no hooks; a hook of a type other than `command` (`prompt`, `http`) is
 * named and not run; an event a task never has is noted for `xcsh doctor`. {@link settingsHookReport} says, file by file, what is
 * active and what was skipped (for `xcsh doctor`).
 *
 * @example
 * ```ts
 * const r = readSettingsHooks({ cwd: "/src/app", home: "/home/me", env: process.env });
 * r.hooks.PreToolUse?.[0].from; // "/home/me/.claude/settings.json"
 * ```
 *
 * @module
 */
import { join } from "node:path";
import { codexHome, type DiscoveryEnv } from "../discovery/config-dirs.ts";
import { findUp, isFileInfo } from "../fs/walk-up.ts";
import { mergeHooks, parseHooks } from "../discovery/hook-config.ts";
import { listClaudePluginRoots, type PluginListing, readJson } from "../discovery/plugins.ts";
import { isRecord } from "../formats/values.ts";
import { isInside } from "../fs/path-inside.ts";
import type { AgentHooks, Diagnostic, HookEvent, HookGroup } from "../types.ts";
import { projectRoot } from "../sandbox/project-root.ts";
import { isTrusted, realPathOf, trustStoreFor } from "./trust-store.ts";

/** One file that may hold hooks, and what became of them. */
export interface HookSource {
  file: string;
  /** `user settings`, `project settings`, `local settings`, `codex user hooks`, `codex project hooks`, or `plugin <id>`. */
  kind: string;
  /** `active`: its hooks run; `untrusted`, `bad`: they do not (`reason` says why). */
  state: "active" | "untrusted" | "bad";
  /** For an active file: events and their hook counts (`PreToolUse: 2`). */
  events?: string[];
  reason?: string;
  /** Repository content: its hooks run only once `xcsh trust` recorded it. */
  project: boolean;
  /** Its bytes, for `xcsh trust` to record (project files only). */
  bytes?: Uint8Array;
}

export interface SettingsHooks {
  /** The hooks that run, each group stamped with its file. */
  hooks: AgentHooks;
  /** Every file that holds hooks (active or skipped). */
  sources: HookSource[];
  warnings: Diagnostic[];
  /**
   * Events of these files a task never has (`Stop`, `Notification`,
   * `SessionEnd`, …): common in a user's settings for Claude Code's own
   * session, so said by `xcsh doctor` only, not on every run.
   */
  notes: Diagnostic[];
}

/** Replaces `${CLAUDE_PLUGIN_ROOT}` (and `$CLAUDE_PLUGIN_ROOT`) in a plugin's command line. Pure. */
export function withPluginRoot(command: string, root: string): string {
  return command.replace(/\$\{CLAUDE_PLUGIN_ROOT\}|\$CLAUDE_PLUGIN_ROOT\b/g, root);
}

/** `hooks` with every group stamped `from` and plugin roots filled in. Pure. */
function stamped(hooks: AgentHooks, from: string, pluginRoot?: string): AgentHooks {
  const out: AgentHooks = {};
  for (const [event, groups] of Object.entries(hooks) as [HookEvent, HookGroup[]][]) {
    out[event] = groups.map((g) => ({
      ...g,
      from,
      hooks: g.hooks.map((h) => ({
        ...h,
        command: pluginRoot ? withPluginRoot(h.command, pluginRoot) : h.command,
      })),
    }));
  }
  return out;
}

/** `Event: n` for each event of `hooks`. Pure. */
function eventCounts(hooks: AgentHooks): string[] {
  return Object.entries(hooks).map(([event, groups]) =>
    `${event}: ${(groups ?? []).reduce((n, g) => n + g.hooks.length, 0)}`
  );
}

/** A file's `hooks` value read, or why it adds none. Pure. */
function hooksOf(
  value: unknown,
  file: string,
  warnings: Diagnostic[],
  notes: Diagnostic[],
): { hooks: AgentHooks } | { bad: string } | undefined {
  if (!isRecord(value) || value.hooks === undefined || value.hooks === null) return undefined;
  const parsed = parseHooks(value.hooks, { settings: true });
  if (!parsed.ok) return { bad: parsed.message };
  for (const w of parsed.warnings) {
    const d: Diagnostic = { level: "warning", file, field: w.field, message: w.message };
    (/^hooks\.[^.[]+$/.test(w.field) ? notes : warnings).push(d);
  }
  return Object.keys(parsed.hooks).length > 0 ? { hooks: parsed.hooks } : undefined;
}

/**
 * Reads the hooks of every settings and plugin hooks file for `e`;
 * `trusted` says whether a project file was trusted with these bytes
 * (default: the user's trust store); `listing` is plugin discovery's
 * reading of the same files when the caller has one (they are then not
 * read again).
 */
export function readSettingsHooks(
  e: DiscoveryEnv,
  trusted: (path: string, bytes: Uint8Array) => boolean = (path, bytes) =>
    isTrusted(path, bytes, trustStoreFor(e.env, e.home)),
  listing: PluginListing = listClaudePluginRoots(e),
): SettingsHooks {
  const warnings: Diagnostic[] = [];
  const notes: Diagnostic[] = [];
  const sources: HookSource[] = [];
  let hooks: AgentHooks = {};
  const take = (
    o: { file: string; kind: string; project: boolean; read: ReturnType<typeof readJson> },
    pluginRoot?: string,
  ) => {
    const { file, kind, read } = o;
    if (!read.exists) return;
    if (read.error) {
      sources.push({ file, kind, project: o.project, state: "bad", reason: read.error });
      warnings.push({ level: "warning", file, message: `${read.error}; its hooks are not run` });
      return;
    }
    const found = hooksOf(read.value, file, warnings, notes);
    if (!found) return;
    if ("bad" in found) {
      sources.push({ file, kind, project: o.project, state: "bad", reason: found.bad });
      warnings.push({
        level: "warning",
        file,
        field: "hooks",
        message: `${found.bad}; this file's hooks are not run`,
      });
      return;
    }
    const bytes = o.project ? { bytes: read.bytes } : {};
    if (o.project && !(read.bytes && trusted(file, read.bytes))) {
      const reason = "the project is not trusted with this file's content " +
        "(run 'xcsh trust' in it after reading the file)";
      sources.push({ file, kind, project: true, state: "untrusted", reason, ...bytes });
      warnings.push({
        level: "warning",
        file,
        field: "hooks",
        message: `not run: ${reason}`,
      });
      return;
    }
    sources.push({
      file,
      kind,
      project: o.project,
      state: "active",
      events: eventCounts(found.hooks),
      ...bytes,
    });
    hooks = mergeHooks(hooks, stamped(found.hooks, file, pluginRoot));
  };
  for (const s of listing.settings) {
    take({ file: s.path, kind: `${s.scope} settings`, project: s.scope !== "user", read: s.read });
  }
  // Codex keeps the same shape in hooks.json: the user's, then the nearest project's.
  const codexUser = join(codexHome(e.home, e.env), "hooks.json");
  take({ file: codexUser, kind: "codex user hooks", project: false, read: readJson(codexUser) });
  const codexProject = findUp(e.cwd, e.home, join(".codex", "hooks.json"), isFileInfo, warnings);
  if (codexProject && codexProject.path !== codexUser) {
    take({
      file: codexProject.path,
      kind: "codex project hooks",
      project: true,
      read: readJson(codexProject.path),
    });
  }
  // A plugin's hooks file inside the project is repository content: trust pins it.
  const project = realPathOf(projectRoot(e.cwd, e.home));
  for (const root of listing.roots) {
    const file = join(root.path, "hooks", "hooks.json");
    const inProject = isInside(realPathOf(file), [project]);
    take({ file, kind: `plugin ${root.id}`, project: inProject, read: readJson(file) }, root.path);
  }
  return { hooks, sources, warnings, notes };
}

/** Lines for `xcsh doctor`: each file with hooks, active or skipped and why. Pure. */
export function settingsHookReport(sources: readonly HookSource[]): string[] {
  if (sources.length === 0) return ["  (none)"];
  return sources.map((s) => {
    const what = s.state === "active"
      ? `active (${(s.events ?? []).join(", ")})`
      : `skipped: ${s.reason}`;
    return `  ${s.kind.padEnd(22)} ${s.file}  ${what}`;
  });
}
