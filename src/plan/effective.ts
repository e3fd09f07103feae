/**
 * What a child actually runs: the effective agent and its output schema.
 *
 * Decides plan mode's preamble, the agent's spawns as the tool-set rule
 * leaves them (`tool-set-rule.ts` decides the tools: plan mode, the depth
 * limit, `disallowedTools`), and the schema precedence
 * `agent.output ?? call schema ?? parent schema`, and the deny rules a
 * child carries: its own and every one its callers had (`inheritedDeny`,
 * the calling child's own rules, which hold its callers'), so no agent a
 * task starts may do what an agent above it was refused. The effective
 * agent is what the child receives — never the original. Pure.
 *
 * @module
 */
import { depthExhausted } from "./guards.ts";
import { decideToolSet, type ToolSet } from "./tool-set-rule.ts";
import type { AgentDefinition, PermissionRule, PermissionRules } from "../types.ts";

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
  /** The deny rules of the agent that starts this one (its callers' included). */
  inheritedDeny?: readonly PermissionRule[];
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
  const permissions = withDenyRules(agent.permissions, opts.inheritedDeny ?? []);
  if (permissions) effective.permissions = permissions;
  if (opts.planMode) effective.systemPrompt = `${PLAN_MODE_PREAMBLE}\n\n${agent.systemPrompt}`;
  return { agent: effective, toolSet };
}

/**
 * `own` with `inherited` deny rules added (the same rule once), or `own`
 * when nothing is inherited. Pure.
 *
 * @example
 * ```ts
 * const rule = { text: "Read(secret.txt)", family: "read", pattern: "secret.txt" } as const;
 * withDenyRules(undefined, [rule]); // { allow: [], deny: [rule] }
 * ```
 */
export function withDenyRules(
  own: PermissionRules | undefined,
  inherited: readonly PermissionRule[],
): PermissionRules | undefined {
  if (inherited.length === 0) return own;
  const deny = [...(own?.deny ?? [])];
  const key = (r: PermissionRule) => `${r.family}\0${r.pattern}`;
  const seen = new Set(deny.map(key));
  for (const r of inherited) {
    if (!seen.has(key(r))) {
      seen.add(key(r));
      deny.push({ ...r });
    }
  }
  return { allow: [...(own?.allow ?? [])], deny };
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
