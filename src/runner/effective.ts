/**
 * What a child actually runs: the effective agent and its output schema.
 *
 * Decides plan mode's preamble, the agent's spawns as the tool-set rule
 * leaves them (`tool-set-rule.ts` decides the tools: plan mode, the depth
 * limit, `disallowedTools`), and the schema precedence
 * `agent.output ?? call schema ?? parent schema`. The effective agent is
 * what the child receives — never the original. Pure.
 *
 * @module
 */
import { depthExhausted } from "./guards.ts";
import { decideToolSet, type ToolSet } from "../protocol/tool-set-rule.ts";
import type { AgentDefinition } from "../types.ts";

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
  /** Every agent's name (for `spawns: "*"` minus `disallowedTools: Agent(x)`). */
  agentNames?: readonly string[];
}

/** The agent definition a child receives, and its decided tool set. */
export interface Effective {
  agent: AgentDefinition;
  toolSet: ToolSet;
}

/** Builds the agent definition the child receives. */
export function effectiveAgent(agent: AgentDefinition, opts: EffectiveOptions): Effective {
  const toolSet = decideToolSet({
    agent,
    planMode: opts.planMode,
    depthAllowsSpawn: !depthExhausted(opts.childDepth, opts.maxDepth),
    agentNames: opts.agentNames,
  });
  const { spawns: _dropped, ...rest } = agent;
  const spawns = toolSet.spawns;
  const effective: AgentDefinition = spawns === "*" || spawns.length > 0
    ? { ...rest, spawns }
    : rest;
  if (opts.planMode) effective.systemPrompt = `${PLAN_MODE_PREAMBLE}\n\n${agent.systemPrompt}`;
  return { agent: effective, toolSet };
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
