/**
 * The `hooks:` of an agent file, a config or a Claude Code settings file,
 * in Claude Code's shape: for each event a list of `{matcher, hooks:
 * [{type: "command", command, timeout}]}`. The events a task (a subagent)
 * has are `PreToolUse`, `PostToolUse`, `Stop` (Claude Code runs an agent's
 * `Stop` as `SubagentStop`; both spellings are read; in a settings file
 * only `SubagentStop`), `SubagentStart`, `UserPromptSubmit` and
 * `SessionStart`, and `PreCompact` (matcher `auto`: xcsh compacts only on its own).
 * A matcher is a tool name or a regular expression over Claude's tool names
 * (`Bash`, `Edit|Write`, `mcp__github__.*`); absent, empty or `*` matches
 * every tool. A shape xcsh cannot read is an error (the agent is not loaded,
 * so a broken hook never lets through what it was written to stop); an event
 * a subagent never has, or a hook type other than `command`, is a warning.
 * Pure.
 *
 * @example
 * ```ts
 * parseHooks({ PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./check.sh" }] }] });
 * // { ok: true, hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ command: "./check.sh" }] }] }, warnings: [] }
 * ```
 *
 * @module
 */
import type { AgentHooks, HookEvent, HookGroup } from "../types.ts";
import { isRecord } from "../formats/values.ts";

const EVENTS: Readonly<Record<string, HookEvent>> = {
  PreToolUse: "PreToolUse",
  PostToolUse: "PostToolUse",
  Stop: "Stop",
  SubagentStop: "Stop",
  SubagentStart: "SubagentStart",
  UserPromptSubmit: "UserPromptSubmit",
  SessionStart: "SessionStart",
  PreCompact: "PreCompact",
};

/**
 * In a settings file, `Stop` is the main session's end, which a task (a
 * subagent) never has: only `SubagentStop` is read there.
 */
const SETTINGS_EVENTS: Readonly<Record<string, HookEvent>> = {
  ...Object.fromEntries(Object.entries(EVENTS).filter(([k]) => k !== "Stop")),
};

/** Seconds a hook may run, at most (Claude Code's default is 60). */
export const MAX_HOOK_TIMEOUT_S = 600;

export type HookParse =
  | { ok: true; hooks: AgentHooks; warnings: { field: string; message: string }[] }
  | { ok: false; field: string; message: string };

/**
 * `base` with `added`'s groups after its own, event by event (config hooks
 * run before an agent's). Pure.
 */
export function mergeHooks(
  base: AgentHooks | undefined,
  added: AgentHooks | undefined,
): AgentHooks {
  const out: AgentHooks = { ...base };
  for (const [event, groups] of Object.entries(added ?? {}) as [HookEvent, HookGroup[]][]) {
    out[event] = [...(out[event] ?? []), ...groups];
  }
  return out;
}

/**
 * Reads the value of `hooks:`. `settings`: the value is a Claude Code
 * settings file's, whose `Stop` is the main session's (not read).
 */
export function parseHooks(value: unknown, o: { settings?: boolean } = {}): HookParse {
  const events = o.settings ? SETTINGS_EVENTS : EVENTS;
  const warnings: { field: string; message: string }[] = [];
  if (!isRecord(value)) {
    return { ok: false, field: "hooks", message: "'hooks' must be a mapping of events to lists" };
  }
  const hooks: AgentHooks = {};
  for (const [event, groups] of Object.entries(value)) {
    const at = `hooks.${event}`;
    const mapped = Object.hasOwn(events, event) ? events[event] : undefined;
    if (!mapped) {
      const why = event === "Stop"
        ? "a task is a subagent: use SubagentStop"
        : "it never happens in a subagent";
      warnings.push({ field: at, message: `'${at}' is not run (${why}); ignored` });
      continue;
    }
    if (!Array.isArray(groups)) {
      return { ok: false, field: at, message: `'${at}' must be a list of {matcher, hooks}` };
    }
    const out: HookGroup[] = hooks[mapped] ?? [];
    for (const [i, g] of groups.entries()) {
      const gat = `${at}[${i}]`;
      if (!isRecord(g) || !Array.isArray(g.hooks)) {
        return { ok: false, field: gat, message: `'${gat}' must be {matcher, hooks: [...]}` };
      }
      let matcher: string | undefined;
      if (g.matcher !== undefined && g.matcher !== null) {
        if (typeof g.matcher !== "string") {
          return {
            ok: false,
            field: `${gat}.matcher`,
            message: `'${gat}.matcher' must be a string`,
          };
        }
        const m = g.matcher.trim();
        if (m !== "" && m !== "*") matcher = m;
        try {
          if (matcher) new RegExp(matcher);
        } catch (err) {
          return {
            ok: false,
            field: `${gat}.matcher`,
            message: `'${gat}.matcher' is not a regular expression (${(err as Error).message})`,
          };
        }
      }
      const commands: HookGroup["hooks"] = [];
      for (const [j, h] of g.hooks.entries()) {
        const hat = `${gat}.hooks[${j}]`;
        if (!isRecord(h)) {
          return { ok: false, field: hat, message: `'${hat}' must be {type, command}` };
        }
        // No type is a command too (the parent's envelope sends them so).
        if (h.type !== undefined && h.type !== "command") {
          warnings.push({
            field: hat,
            message: `'${hat}' is a '${String(h.type)}' hook, which xcsh does not run; only ` +
              "command hooks run",
          });
          continue;
        }
        if (typeof h.command !== "string" || h.command.trim() === "") {
          return {
            ok: false,
            field: `${hat}.command`,
            message: `'${hat}.command' must be a command line`,
          };
        }
        const t = h.timeout;
        if (t !== undefined && (typeof t !== "number" || !(t > 0) || t > MAX_HOOK_TIMEOUT_S)) {
          return {
            ok: false,
            field: `${hat}.timeout`,
            message: `'${hat}.timeout' must be a number of seconds from 1 to ${MAX_HOOK_TIMEOUT_S}`,
          };
        }
        commands.push({ command: h.command, ...(t !== undefined ? { timeout: t } : {}) });
      }
      // `from` comes back in a parent's envelope (where config hooks came from).
      const from = typeof g.from === "string" && g.from !== "" ? { from: g.from } : {};
      if (commands.length > 0) {
        out.push({ ...from, ...(matcher ? { matcher } : {}), hooks: commands });
      }
    }
    if (out.length > 0) hooks[mapped] = out;
  }
  return { ok: true, hooks, warnings };
}
