/**
 * Runs a task's command hooks (its agent file's, the user's config and
 * Claude Code settings', merged by the parent) with Claude Code's contract
 * for a subagent. Events: `SessionStart` (`source: startup|resume`),
 * `SubagentStart`, `UserPromptSubmit` (the assignment; exit 2 refuses it),
 * `PreToolUse` (exit 2 or a denying answer blocks the call; `updatedInput`
 * replaces the input, mapped back and checked again when the tool runs),
 * `PostToolUse`, and `Stop`, read by a hook as `SubagentStop` (a task is a
 * subagent; exit 2 or `decision: "block"` makes it go on). `additionalContext`
 * (and the plain stdout of the three start events) is added for the model;
 * `continue: false` ends the task with its `stopReason`. Names and shapes a
 * hook reads are Claude Code's (`claude-tool-shape.ts`); matchers are
 * case-sensitive on those names. Each hook gets the event as JSON on stdin
 * (every secret value and key shape hidden, `text/secrets.ts`: a tool's
 * input is the model's, and may quote one), runs like a `bash` command (in
 * the sandbox, network and environment `bash` commands get, whether or not
 * the agent has `bash`; the scripts it names in the task's folders
 * read-only: see `program-files.ts`; its process tree ended at its timeout,
 * default 60 s), and its output is read in bounded memory. A hook that
 * cannot start, fails otherwise, hangs or is killed is one warning line
 * naming the file and field, and the task goes on.
 *
 * @module
 */
import { constants } from "node:os";
import { spawnCommand } from "../tools/bash.ts";
import type { ToolContext, ToolOutcome } from "../tools/tool-spec.ts";
import type { AgentHooks, HookEvent, HookGroup } from "../types.ts";
import type { ToolCall } from "./conversation.ts";
import { redactValue } from "../text/redact.ts";
import { isRecord } from "../formats/values.ts";
import {
  claudeToolInput,
  claudeToolName,
  claudeToolResponse,
  matchableNames,
  xcshToolInput,
} from "./claude-tool-shape.ts";

/** Seconds a hook runs when its entry gives no timeout (Claude Code's default). */
export const DEFAULT_HOOK_TIMEOUT_S = 60;

/** The signal a shell's exit status 128+N reports (the command it ran was killed). Pure. */
export function signalOfStatus(code: number): string | undefined {
  if (code <= 128 || code >= 128 + 65) return undefined;
  const n = code - 128;
  return Object.entries(constants.signals).find(([, v]) => v === n)?.[0] ?? `signal ${n}`;
}

/**
 * Whether a group's matcher selects `tool` (xcsh's name): Claude Code's
 * rule, case-sensitive, on Claude Code's names only (`Bash`, never `bash`;
 * `mcp__github__.*`). Pure.
 */
export function matcherSelects(matcher: string | undefined, tool: string): boolean {
  if (matcher === undefined || matcher === "" || matcher === "*") return true;
  const re = new RegExp(`^(?:${matcher})$`);
  return matchableNames(tool).some((name) => re.test(name));
}

/** What one hook's answer means. */
export interface HookVerdict {
  /** Why the call (or the prompt) is refused, or the agent must go on (Stop). */
  block?: string;
  /** Text added for the model. */
  context?: string;
  /** `continue: false`: the task ends, with this reason. */
  stop?: string;
  /** PreToolUse `updatedInput` (Claude Code's argument names). */
  updatedInput?: Record<string, unknown>;
}

/** Events whose plain stdout (exit 0, not JSON) is added for the model, as in Claude Code. */
const STDOUT_IS_CONTEXT: ReadonlySet<HookEvent> = new Set([
  "UserPromptSubmit",
  "SessionStart",
  "SubagentStart",
]);

/** What one hook's answer means; undefined: it failed (a warning). Pure. */
export function hookVerdict(
  event: HookEvent,
  r: { code: number | null; stdout: string; stderr: string },
): HookVerdict | undefined {
  if (r.code === 2) {
    // SessionStart, SubagentStart and PreCompact cannot block: exit 2 only shows stderr there.
    if (event === "SessionStart" || event === "SubagentStart" || event === "PreCompact") return {};
    return { block: r.stderr.trim() || "blocked by a hook (exit code 2)" };
  }
  if (r.code !== 0) return undefined;
  const text = r.stdout.trim();
  let doc: Record<string, unknown> | undefined;
  if (text.startsWith("{")) {
    try {
      const parsed = JSON.parse(text);
      if (isRecord(parsed)) doc = parsed;
    } catch {
      doc = undefined;
    }
  }
  if (!doc) return STDOUT_IS_CONTEXT.has(event) && text !== "" ? { context: text } : {};
  const specific = isRecord(doc.hookSpecificOutput) ? doc.hookSpecificOutput : {};
  const reason = String(specific.permissionDecisionReason ?? doc.reason ?? "").trim();
  const out: HookVerdict = {};
  if (typeof specific.additionalContext === "string" && specific.additionalContext !== "") {
    out.context = specific.additionalContext;
  }
  if (doc.continue === false) {
    out.stop = String(doc.stopReason ?? "").trim() || "a hook ended the task (continue: false)";
  }
  if (event === "PreToolUse") {
    const decision = specific.permissionDecision ?? doc.decision;
    if (decision === "deny" || decision === "block") {
      out.block = reason || "denied by a hook";
    } else if (decision === "ask") {
      out.block = `a hook asks for approval, which a run without prompts cannot give${
        reason ? `: ${reason}` : ""
      }`;
    } else if (isRecord(specific.updatedInput)) {
      out.updatedInput = specific.updatedInput;
    }
    return out;
  }
  if (doc.decision === "block") out.block = reason || "blocked by a hook";
  return out;
}

/** What the hooks say before a tool call. */
export interface BeforeCall {
  /** Why the call is refused. */
  block?: string;
  /** The input the call runs with instead (xcsh's names), from `updatedInput`. */
  input?: unknown;
  /** Text added for the model with the call's result. */
  context?: string;
  /** `continue: false`: the task ends with this reason. */
  stop?: string;
}

/** What the hooks say about starting: text for the model, or why the prompt is refused. */
export interface StartAnswer {
  context: string[];
  block?: string;
  stop?: string;
}

export interface HookRunner {
  /** SessionStart, SubagentStart, then UserPromptSubmit (the assignment). */
  start(o: { resumed: boolean; prompt: string }): Promise<StartAnswer>;
  before(call: ToolCall): Promise<BeforeCall>;
  /** Text to add to the call's result, and whether the task ends. */
  after(call: ToolCall, outcome: ToolOutcome): Promise<{ text?: string; stop?: string }>;
  /** Why the agent must go on instead of finishing, or that the task ends. */
  stop(active: boolean): Promise<{ block?: string; stop?: string }>;
  /** PreCompact, before the conversation is compacted (it cannot stop the compaction). */
  compact(trigger: "auto"): Promise<void>;
}

export interface HookRunnerOptions {
  ctx: ToolContext;
  /** The agent file the hooks come from, named in warnings. */
  file: string;
  /** One warning, naming the file and field. */
  warn: (message: string) => void;
  sessionId?: string;
  /** The session file the parent records the conversation in. */
  transcriptPath?: string;
  /** Claude Code's `permission_mode` (`plan`, or `dontAsk`: nothing is asked). */
  permissionMode: string;
  /** `agent_id` (the task's id) and `agent_type` (the agent's name). */
  agentId: string;
  agentType: string;
  projectDir: string;
  /** The run's secret values, hidden from what a hook reads. */
  secrets: readonly string[];
}

/** The name a hook reads in `hook_event_name` (a task's `Stop` is a subagent's). */
function eventName(event: HookEvent): string {
  return event === "Stop" ? "SubagentStop" : event;
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
  ): Promise<HookVerdict & { contexts: string[] }> => {
    const contexts: string[] = [];
    let updatedInput: Record<string, unknown> | undefined;
    const stdin = JSON.stringify(redactValue({
      session_id: o.sessionId ?? "",
      transcript_path: o.transcriptPath ?? "",
      cwd: o.ctx.cwd,
      permission_mode: o.permissionMode,
      hook_event_name: eventName(event),
      agent_id: o.agentId,
      agent_type: o.agentType,
      ...payload,
    }, o.secrets));
    for (const [gi, group] of groups.entries()) {
      for (const [hi, hook] of group.hooks.entries()) {
        // A settings file's group names its own file; the config's says "config".
        const own = group.from !== undefined && group.from !== "config";
        const field = `${group.from && !own ? `${group.from}: ` : ""}hooks.${event}[${gi}]` +
          `.hooks[${hi}]`;
        const timeoutS = hook.timeout ?? DEFAULT_HOOK_TIMEOUT_S;
        const r = await spawnCommand(hook.command, o.ctx, {
          timeoutMs: timeoutS * 1000,
          stdin,
          env: { CLAUDE_PROJECT_DIR: o.projectDir },
        });
        const say = (what: string) =>
          o.warn(
            `${own ? group.from : o.file}: ${field}: '${hook.command}' ${what}; the task goes on`,
          );
        if (r.error) {
          say(`could not start (${r.error.message})`);
          continue;
        }
        if (o.ctx.signal.aborted) return { contexts };
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
        if (verdict.context) contexts.push(verdict.context);
        if (verdict.updatedInput) updatedInput = verdict.updatedInput;
        if (verdict.stop !== undefined || verdict.block !== undefined) {
          return { ...verdict, contexts };
        }
      }
    }
    return { contexts, ...(updatedInput ? { updatedInput } : {}) };
  };
  const groupsFor = (event: HookEvent, tool?: string) =>
    (hooks[event] ?? []).filter((g) => tool === undefined || matcherSelects(g.matcher, tool));
  const toolPayload = (call: ToolCall) => ({
    tool_name: claudeToolName(call.name),
    tool_input: claudeToolInput(call.name, call.input),
    tool_use_id: call.id,
  });
  const joined = (parts: string[]) => (parts.length > 0 ? parts.join("\n") : undefined);
  return {
    async start({ resumed, prompt }) {
      const context: string[] = [];
      for (
        const [event, payload] of [
          ["SessionStart", { source: resumed ? "resume" : "startup" }],
          ["SubagentStart", {}],
          ["UserPromptSubmit", { prompt }],
        ] as [HookEvent, Record<string, unknown>][]
      ) {
        const groups = groupsFor(event);
        if (groups.length === 0) continue;
        const r = await run(event, groups, payload);
        context.push(...r.contexts);
        if (r.stop !== undefined) return { context, stop: r.stop };
        if (r.block !== undefined) return { context, block: r.block };
      }
      return { context };
    },
    async before(call) {
      const groups = groupsFor("PreToolUse", call.name);
      if (groups.length === 0) return {};
      const r = await run("PreToolUse", groups, toolPayload(call));
      const context = joined(r.contexts);
      return {
        ...(r.block !== undefined ? { block: r.block } : {}),
        ...(r.stop !== undefined ? { stop: r.stop } : {}),
        ...(context ? { context } : {}),
        ...(r.updatedInput ? { input: xcshToolInput(call.name, r.updatedInput) } : {}),
      };
    },
    async after(call, outcome) {
      const groups = groupsFor("PostToolUse", call.name);
      if (groups.length === 0) return {};
      const r = await run("PostToolUse", groups, {
        ...toolPayload(call),
        tool_response: claudeToolResponse(call.name, call.input, outcome),
      });
      const text = joined([
        ...(r.block !== undefined ? [`A PostToolUse hook says: ${r.block}`] : []),
        ...r.contexts,
      ]);
      return { ...(text ? { text } : {}), ...(r.stop !== undefined ? { stop: r.stop } : {}) };
    },
    async compact(trigger) {
      const groups = groupsFor("PreCompact", trigger);
      if (groups.length > 0) await run("PreCompact", groups, { trigger, custom_instructions: "" });
    },
    async stop(active) {
      const groups = groupsFor("Stop");
      if (groups.length === 0) return {};
      const r = await run("Stop", groups, { stop_hook_active: active });
      return {
        ...(r.block !== undefined ? { block: r.block } : {}),
        ...(r.stop !== undefined ? { stop: r.stop } : {}),
      };
    },
  };
}
