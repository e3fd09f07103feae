/**
 * Which agents an `agents` query finds, best first: the name itself (case
 * aside), then names starting with the query, names containing it, agents
 * whose name or description holds every word of the query; only when none
 * does, names within a typo of it, nearest first (edit distance). Ties keep discovery
 * order; an empty query finds every agent in discovery order. Pure.
 *
 * @example
 * ```ts
 * import type { AgentDefinition } from "../types.ts";
 *
 * declare const agents: AgentDefinition[];
 * matchAgents(agents, "review").map((a) => a.name); // ["reviewer", "code-reviewer", "critic"]
 * ```
 *
 * @module
 */
import { nameDistance } from "../text/nearest-names.ts";

/** The rank of a name found only as a typo of the query. */
const TYPO = 4;

interface Searchable {
  name: string;
  description: string;
}

/** How well one agent matches (lower is better), or undefined when it does not. */
export function queryRank(query: string, agent: Searchable): number | undefined {
  const q = query.trim().toLowerCase();
  if (q === "") return 0;
  const name = agent.name.toLowerCase();
  if (name === q) return 0;
  if (name.startsWith(q)) return 1;
  if (name.includes(q)) return 2;
  const text = `${name} ${agent.description.toLowerCase()}`;
  if (q.split(/\s+/).every((word) => text.includes(word))) return 3;
  const typo = nameDistance(q, name);
  // Nearer typos first.
  return typo !== undefined ? TYPO + typo / 100 : undefined;
}

/** The agents `query` finds, best first. */
export function matchAgents<A extends Searchable>(agents: readonly A[], query: string): A[] {
  if (query.trim() === "") return [...agents];
  const found = agents
    .map((agent, index) => ({ agent, index, rank: queryRank(query, agent) }))
    .filter((m): m is { agent: A; index: number; rank: number } => m.rank !== undefined);
  // Typos count only when nothing holds the query itself.
  const best = found.some((m) => m.rank < TYPO) ? found.filter((m) => m.rank < TYPO) : found;
  return best.sort((x, y) => x.rank - y.rank || x.index - y.index).map((m) => m.agent);
}
