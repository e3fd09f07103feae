/**
 * Which tools a child gets: the one rule, run once by the parent, whose
 * answer travels in the envelope (`toolSet`); the child only maps the names
 * to tool specs (and its MCP grant is applied by `tools/mcp/mcp-grant.ts`).
 *
 * In order: the agent's `tools` (absent: every tool); in plan mode only the
 * read-only core (`read grep find ls`) and the listed tools whose declared
 * `readOnly` is true (`tool-catalogue.ts`), and for MCP only tools their
 * server annotates read-only; the `task` tool only with a spawn right (the
 * agent's `spawns`, minus `disallowedTools: Agent(x)`, none in plan mode or
 * when the child sits at the depth limit); then `disallowedTools` removes
 * names and MCP patterns from whatever is left, inherited "all tools"
 * included. `submit_result` is always there. Pure.
 *
 * @example
 * ```ts
 * decideToolSet({ agent: { tools: ["read", "bash", "submit_result"], disallowedTools: ["bash"] },
 *   planMode: false, depthAllowsSpawn: true });
 * // { tools: ["read", "submit_result"], spawns: [], mcp: { patterns: [], deny: [], declared: [], readOnlyOnly: false } }
 * ```
 *
 * @module
 */
import { ALL_MCP_TOOLS, parseMcpToolName } from "../discovery/tool-names.ts";
import {
  READ_ONLY_CORE,
  TOOL_NAMES,
  TOOL_READ_ONLY,
  type ToolName,
} from "../discovery/tool-catalogue.ts";
import type { AgentDefinition } from "../types.ts";
import type { EnvelopeToolSet } from "../protocol/envelope.ts";

/**
 * The decided tool set of one child: built-in names in canonical order
 * (`submit_result` included), what `task` may spawn (`[]`: no `task` tool),
 * and the MCP grant.
 */
export type ToolSet = EnvelopeToolSet;

export interface ToolSetInput {
  agent: Pick<
    AgentDefinition,
    "tools" | "disallowedTools" | "disallowedAgents" | "spawns" | "mcpServers"
  >;
  planMode: boolean;
  /** False when the child will sit at the depth limit (it may start no task). */
  depthAllowsSpawn: boolean;
  /** Every agent's name: `spawns: "*"` minus `disallowedTools: Agent(x)` becomes a list of these. */
  agentNames?: readonly string[];
}

const isMcp = (name: string) => name === ALL_MCP_TOOLS || parseMcpToolName(name) !== undefined;

function decideSpawns(input: ToolSetInput): "*" | string[] {
  const { agent } = input;
  if (input.planMode || !input.depthAllowsSpawn || agent.spawns === undefined) return [];
  const denied = agent.disallowedAgents ?? [];
  if (agent.spawns === "*") {
    return denied.length === 0 ? "*" : (input.agentNames ?? []).filter((n) => !denied.includes(n));
  }
  return agent.spawns.filter((n) => !denied.includes(n));
}

/** Decides the tool set of a child. */
export function decideToolSet(input: ToolSetInput): ToolSet {
  const { agent, planMode } = input;
  const listed = agent.tools && agent.tools.length > 0 ? agent.tools : undefined;
  const deny = agent.disallowedTools ?? [];
  const denyAll = deny.includes("*");
  const wanted = new Set<string>(
    planMode
      ? [...READ_ONLY_CORE, ...(listed ?? []).filter((t) => TOOL_READ_ONLY[t as ToolName])]
      : listed ?? TOOL_NAMES,
  );
  let spawns = decideSpawns(input);
  if (spawns !== "*" && spawns.length === 0) wanted.delete("task");
  for (const d of deny) wanted.delete(d);
  if (denyAll) wanted.clear();
  wanted.add("submit_result");
  const tools = TOOL_NAMES.filter((t) => wanted.has(t));
  if (!tools.includes("task")) spawns = [];
  const mcpListed = (listed ?? []).filter(isMcp);
  return {
    tools,
    spawns,
    mcp: {
      patterns: !listed || mcpListed.includes(ALL_MCP_TOOLS) ? "all" : mcpListed,
      declared: (agent.mcpServers ?? []).map((s) => s.name),
      deny: denyAll ? [ALL_MCP_TOOLS] : deny.filter(isMcp),
      readOnlyOnly: planMode,
    },
  };
}
