/**
 * Merges agent lists by precedence: the first definition of a name wins.
 *
 * Names match exactly and case-sensitively (`Task` and `task` are two
 * agents). The losers are kept, each with the winner that hides it, so
 * `xcsh agents --all` can explain every shadowing. Pure.
 *
 * @example
 * ```ts
 * import type { AgentDefinition } from "../types.ts";
 *
 * declare const projectAgents: AgentDefinition[];
 * declare const userAgents: AgentDefinition[];
 * declare const bundled: AgentDefinition[];
 * const { agents, shadowed } = mergeAgents([projectAgents, userAgents, bundled]);
 * ```
 *
 * @module
 */
import type { AgentDefinition } from "../types.ts";

export interface Shadowed<T> {
  agent: T;
  shadowedBy: T;
}
export type ShadowedAgent = Shadowed<AgentDefinition>;

export interface Merged<T> {
  agents: T[];
  shadowed: Shadowed<T>[];
}

/**
 * Merges `groups` in order; earlier groups (and earlier entries) win. Works
 * for anything named: agents and workflow commands alike.
 */
export function mergeAgents<T extends { name: string }>(
  groups: readonly (readonly T[])[],
): Merged<T> {
  const winners = new Map<string, T>();
  const agents: T[] = [];
  const shadowed: Shadowed<T>[] = [];
  for (const group of groups) {
    for (const agent of group) {
      const winner = winners.get(agent.name);
      if (winner) {
        shadowed.push({ agent, shadowedBy: winner });
      } else {
        winners.set(agent.name, agent);
        agents.push(agent);
      }
    }
  }
  return { agents, shadowed };
}

/** The agent named exactly `name`, or `undefined`. */
export function getAgent(
  agents: readonly AgentDefinition[],
  name: string,
): AgentDefinition | undefined {
  return agents.find((a) => a.name === name);
}
