/**
 * Runs an agent's command hooks with Claude Code's semantics for a
 * subagent: `PreToolUse` before a tool call (exit 2, or a JSON answer
 * denying it, blocks the call and its reason goes to the model),
 * `PostToolUse` after one (exit 2 or `decision: "block"` sends the reason to
 * the model with the result; `additionalContext` is added to it), and
 * `Stop` when the agent would finish (exit 2 or `decision: "block"` makes it
 * go on, with the reason). Each hook gets the event as JSON on stdin (every
 * secret value and key shape hidden, `text/secrets.ts`: a tool's input is
 * the model's, and may quote one), runs like a `bash` command (in the
 * sandbox, network and environment `bash` commands get, whether or not the
 * agent has `bash`; the scripts it names in the task's folders read-only:
 * see `program-files.ts`; its process tree ended at its timeout, default
 * 60 s), and its output is read in bounded memory. A hook that cannot
 * start, fails otherwise, hangs or is killed is one warning line naming the
 * file and field, and the task goes on.
 *
 * @module
 */
import { constants } from "node:os";
import { spawnCommand } from "../tools/bash.ts";
import type { ToolContext, ToolOutcome } from "../tools/tool-spec.ts";
import type { AgentHooks, HookEvent, HookGroup } from "../types.ts";
import type { ToolCall } from "./conversation.ts";
import { redactValue } from "../text/redact.ts";

/** Seconds a hook runs when its entry gives no timeout (Claude Code's default). */
export const DEFAULT_HOOK_TIMEOUT_S = 60;

/** Claude Code's names of xcsh's tools: what matchers and `tool_name` use. */
export const CLAUDE_TOOL_NAMES: Readonly<Record<string, string>> = {
  read: "Read",
  grep: "Grep",
  find: "Glob",
  ls: "LS",
  bash: "Bash",
  edit: "Edit",
  write: "Write",
  task: "Task",
  web_fetch: "WebFetch",
  web_search: "WebSearch",
  todo: "TodoWrite",
  skill: "Skill",
};

/** The signal a shell's exit status 128+N reports (the command it ran was killed). Pure. */
export function signalOfStatus(code: number): string | undefined {
  if (code <= 128 || code >= 128 + 65) return undefined;
  const n = code - 128;
  return Object.entries(constants.signals).find(([, v]) => v === n)?.[0] ?? `signal ${n}`;
}

/** Whether a group's matcher selects `tool` (xcsh's name). Pure. */
export function matcherSelects(matcher: string | undefined, tool: string): boolean {
  if (matcher === undefined) return true;
  const re = new RegExp(`^(?:${matcher})$`);
  return re.test(CLAUDE_TOOL_NAMES[tool] ?? tool) || re.test(tool);
}

/** What one hook's answer means. Pure. */
export function hookVerdict(
  event: HookEvent,
  r: { code: number | null; stdout: string; stderr: string },
): { block?: string; context?: string } | undefined {
  if (r.code === 2) return { block: r.stderr.trim() || "blocked by a hook (exit code 2)" };
  if (r.code !== 0) return undefined;
  const text = r.stdout.trim();
  if (!text.startsWith("{")) return {};
  let doc: Record<string, unknown>;
  try {
    doc = JSON.parse(text);
  } catch {
    return {};
  }
  const specific = (doc.hookSpecificOutput ?? {}) as Record<string, unknown>;
  const reason = String(specific.permissionDecisionReason ?? doc.reason ?? doc.stopReason ?? "")
    .trim();
  const context = typeof specific.additionalContext === "string"
    ? specific.additionalContext
    : undefined;
  if (event === "PreToolUse") {
    const decision = specific.permissionDecision ?? doc.decision;
    if (decision === "deny" || decision === "block") return { block: reason || "denied by a hook" };
    if (decision === "ask") {
      return {
        block: `a hook asks for approval, which a run without prompts cannot give${
          reason ? `: ${reason}` : ""
        }`,
      };
    }
    if (doc.continue === false) return { block: reason || "stopped by a hook" };
    return context ? { context } : {};
  }
  if (doc.decision === "block") return { block: reason || "blocked by a hook", context };
  return context ? { context } : {};
}

export interface HookRunner {
  /** Why the call is refused, or undefined. */
  before(call: ToolCall): Promise<string | undefined>;
  /** Text to add to the call's result, or undefined. */
  after(call: ToolCall, outcome: ToolOutcome): Promise<string | undefined>;
  /** Why the agent must go on instead of finishing, or undefined. */
  stop(active: boolean): Promise<string | undefined>;
}

export interface HookRunnerOptions {
  ctx: ToolContext;
  /** The agent file the hooks come from, named in warnings. */
  file: string;
  /** One warning, naming the file and field. */
  warn: (message: string) => void;
  sessionId?: string;
  projectDir: string;
  /** The run's secret values, hidden from what a hook reads. */
  secrets: readonly string[];
}

/** The runner of `hooks`, or undefined when there are none. */
export function hookRunner(
  hooks: AgentHooks | undefined,
  o: HookRunnerOptions,
): HookRunner | undefined {
  if (!hooks || Object.keys(hooks).length === 0) return undefined;
  const run = async (
    event: HookEvent,
    groups: readonly HookGroup[],
    payload: Record<string, unknown>,
  ): Promise<{ block?: string; context: string[] }> => {
    const context: string[] = [];
    const stdin = JSON.stringify(redactValue({
      session_id: o.sessionId ?? "",
      transcript_path: "",
      cwd: o.ctx.cwd,
      hook_event_name: event === "Stop" ? "SubagentStop" : event,
      ...payload,
    }, o.secrets));
    for (const [gi, group] of groups.entries()) {
      for (const [hi, hook] of group.hooks.entries()) {
        const field = `${group.from ? `${group.from}: ` : ""}hooks.${event}[${gi}].hooks[${hi}]`;
        const timeoutS = hook.timeout ?? DEFAULT_HOOK_TIMEOUT_S;
        const r = await spawnCommand(hook.command, o.ctx, {
          timeoutMs: timeoutS * 1000,
          stdin,
          env: { CLAUDE_PROJECT_DIR: o.projectDir },
        });
        const say = (what: string) =>
          o.warn(`${o.file}: ${field}: '${hook.command}' ${what}; the task goes on`);
        if (r.error) {
          say(`could not start (${r.error.message})`);
          continue;
        }
        if (o.ctx.signal.aborted) return { context };
        if (r.timedOut) {
          say(`did not finish within ${timeoutS} s and was ended`);
          continue;
        }
        const killer = r.code === null ? r.signal : signalOfStatus(r.code);
        if (killer) {
          say(`was killed by ${killer}`);
          continue;
        }
        const verdict = hookVerdict(event, r);
        if (!verdict) {
          const first = r.stderr.trim().split("\n")[0]?.slice(0, 80) ?? "";
          say(`failed with exit code ${r.code}${first ? ` (${first})` : ""}`);
          continue;
        }
        if (verdict.context) context.push(verdict.context);
        if (verdict.block !== undefined) return { block: verdict.block, context };
      }
    }
    return { context };
  };
  const groupsFor = (event: HookEvent, tool?: string) =>
    (hooks[event] ?? []).filter((g) => tool === undefined || matcherSelects(g.matcher, tool));
  const toolPayload = (call: ToolCall) => ({
    tool_name: CLAUDE_TOOL_NAMES[call.name] ?? call.name,
    tool_input: call.input,
  });
  return {
    async before(call) {
      const groups = groupsFor("PreToolUse", call.name);
      if (groups.length === 0) return undefined;
      return (await run("PreToolUse", groups, toolPayload(call))).block;
    },
    async after(call, outcome) {
      const groups = groupsFor("PostToolUse", call.name);
      if (groups.length === 0) return undefined;
      const r = await run("PostToolUse", groups, {
        ...toolPayload(call),
        tool_response: { success: outcome.ok, output: outcome.output },
      });
      const parts = [
        ...(r.block !== undefined ? [`A PostToolUse hook says: ${r.block}`] : []),
        ...r.context,
      ];
      return parts.length > 0 ? parts.join("\n") : undefined;
    },
    async stop(active) {
      const groups = groupsFor("Stop");
      if (groups.length === 0) return undefined;
      return (await run("Stop", groups, { stop_hook_active: active })).block;
    },
  };
}
