/**
 * The pure steps of preparing a task call, in the order `TaskTool.prepare`
 * takes them: whether the children run in plan mode, what is said about the
 * agent's fields xcsh does not use, where a rejected output schema came
 * from, the config's hooks before the agent's, each child's limits, and
 * what the call asked of the model. Pure.
 *
 * @example
 * ```ts
 * planModeFor({ request: undefined, caller: true, agent: undefined }); // true
 * taskLimits({ maxTurns: undefined, timeoutS: 60 }); // { maxTurns: 50, timeoutMs: 60000, submitRetries: 3 }
 * ```
 *
 * @module
 */
import { mergeHooks } from "../discovery/hook-config.ts";
import { DEFAULT_LIMITS, type TaskLimits, timerMs } from "../protocol/limits.ts";
import type {
  AgentDefinition,
  AgentHooks,
  Diagnostic,
  HookEvent,
  HookGroup,
  TaskRequest,
  XcshConfig,
} from "../types.ts";

/**
 * Whether the children run in plan mode: the call asks, the calling session
 * is in it, or the agent's file says `permissionMode: plan` (which only ever
 * adds plan mode).
 */
export function planModeFor(
  o: { request: boolean | undefined; caller: boolean | undefined; agent: boolean | undefined },
): boolean {
  return o.request === true || o.caller === true || o.agent === true;
}

/** The one warning about the fields of `agent` xcsh does not use, if any. */
export function ignoredFieldsWarning(agent: AgentDefinition): Diagnostic | undefined {
  const ignored = agent.ignoredFields ?? [];
  if (ignored.length === 0) return undefined;
  return {
    level: "warning",
    file: agent.filePath,
    field: ignored[0],
    message: `${ignored.join(", ")} ${
      ignored.length === 1 ? "is" : "are"
    } not used by xcsh (xcsh agents check says why)`,
  };
}

/** Where `schema` came from, as an invalid-schema message names it. */
export function schemaOrigin(
  schema: unknown,
  o: { agentName: string; agentOutput: unknown; callSchema: unknown },
): string {
  return schema === o.agentOutput
    ? `agent '${o.agentName}' output`
    : schema === o.callSchema
    ? "the call's schema"
    : "the calling session's schema";
}

/**
 * `agent` with the hooks that apply to every task before its own: those of
 * the Claude Code settings files and plugins (`config/settings-hooks.ts`,
 * stamped with their files), then the config's.
 */
export function withConfigHooks(
  agent: AgentDefinition,
  hooks: XcshConfig["hooks"],
  settings: AgentHooks = {},
): AgentDefinition {
  const stamped: AgentHooks = {};
  for (const [event, groups] of Object.entries(hooks ?? {}) as [HookEvent, HookGroup[]][]) {
    stamped[event] = groups.map((g) => ({ ...g, from: "config" }));
  }
  const shared = mergeHooks(settings, stamped);
  if (Object.keys(shared).length === 0) return agent;
  return { ...agent, hooks: mergeHooks(shared, agent.hooks) };
}

/** A child's limits: its turns (the call's, else the agent's, else 50) and its timeout in seconds. */
export function taskLimits(o: { maxTurns: number | undefined; timeoutS: number }): TaskLimits {
  return {
    maxTurns: o.maxTurns ?? DEFAULT_LIMITS.maxTurns,
    timeoutMs: timerMs(o.timeoutS * 1000),
    submitRetries: DEFAULT_LIMITS.submitRetries,
  };
}

/** Whether every task of `req` resumes a session (and so runs on the session's model). */
export function resumesOnly(req: TaskRequest): boolean {
  return req.model === undefined && req.tasks.every((t) => t.resume !== undefined);
}

/** What the call or the agent asked of the model, for the result; null: nothing. */
export function requestedModel(o: {
  request: string | undefined;
  envModel: string | undefined;
  override: string | undefined;
  agent: AgentDefinition;
}): string | null {
  return o.request ?? o.envModel ?? o.override ?? o.agent.model?.join(", ") ?? null;
}
