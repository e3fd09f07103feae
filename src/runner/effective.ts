/**
 * What a child actually runs: the effective agent and its output schema.
 *
 * Decides plan mode (a read-only preamble, only `read grep find ls` plus
 * `submit_result` and the agent's read-only extras, no spawns), the removal of the `task` tool when the child
 * will sit at the depth limit, and the schema precedence
 * `agent.output ?? call schema ?? parent schema`. The effective agent is
 * what the child receives — never the original. Pure.
 *
 * @module
 */
import { depthExhausted } from "./guards.ts";
import { type AgentDefinition, TOOL_NAMES } from "../types.ts";

/** Tools a plan-mode child keeps. */
export const PLAN_MODE_TOOLS = ["read", "grep", "find", "ls", "submit_result"] as const;

/**
 * Read-only tools a plan-mode child also keeps when its agent lists them.
 * MCP tool patterns are kept too; the child then offers only the tools their
 * servers annotate `readOnlyHint`.
 */
export const PLAN_MODE_EXTRA_TOOLS = ["web_fetch", "web_search", "todo"] as const;

function planModeTools(agentTools: readonly string[] | undefined): string[] {
  const listed = agentTools ?? [];
  return [
    ...PLAN_MODE_TOOLS,
    ...PLAN_MODE_EXTRA_TOOLS.filter((t) => listed.includes(t)),
    ...listed.filter((t) => t.startsWith("mcp__")),
  ];
}

export const PLAN_MODE_PREAMBLE = `You are running in plan mode. Investigate and plan only:
do not create, modify or delete files, do not run commands, and do not
delegate to other agents. You can read, search and list files. Finish with a
plan another agent could carry out: the steps, the files each step touches,
the risks, and how to verify the result.`;

export interface EffectiveOptions {
  planMode: boolean;
  /** Depth of the process that will run the agent. */
  childDepth: number;
  maxDepth: number;
}

/** Builds the agent definition the child receives. */
export function effectiveAgent(agent: AgentDefinition, opts: EffectiveOptions): AgentDefinition {
  if (opts.planMode) {
    const { spawns: _dropped, ...rest } = agent;
    return {
      ...rest,
      systemPrompt: `${PLAN_MODE_PREAMBLE}\n\n${agent.systemPrompt}`,
      tools: planModeTools(agent.tools),
    };
  }
  if (depthExhausted(opts.childDepth, opts.maxDepth)) {
    const { spawns: _dropped, ...rest } = agent;
    const tools = (agent.tools ?? [...TOOL_NAMES]).filter((t) => t !== "task");
    return { ...rest, tools };
  }
  return agent;
}

/** The schema a task's result must satisfy, or `null` for free text. */
export function resolveOutputSchema(
  agentOutput: unknown,
  callSchema: unknown,
  parentSchema: unknown,
): unknown {
  for (const s of [agentOutput, callSchema, parentSchema]) {
    if (s !== undefined && s !== null) return s;
  }
  return null;
}
