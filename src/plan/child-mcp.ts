/**
 * Which MCP servers a call's children start: none unless the agent needs
 * one (`neededServers`); then those `planMcpServers` finds defined and
 * allowed, with the project's `.mcp.json` read for the purpose. Warnings
 * (unknown or unapproved servers, an unreadable `.mcp.json`) go to the
 * caller.
 *
 * @module
 */
import type { DiscoveryEnv } from "../discovery/config-dirs.ts";
import type { AgentDefinition, Diagnostic, McpServerDef, XcshConfig } from "../types.ts";
import { neededServers, planMcpServers } from "./mcp-plan.ts";
import { readProjectMcp } from "./project-mcp.ts";

/** The MCP servers `agent`'s children start, or undefined when none. */
export function childMcpServers(
  agent: AgentDefinition,
  i: {
    config: XcshConfig;
    env: DiscoveryEnv;
    /** The agent's file is trusted (`agentFileTrusted`). */
    agentTrusted: boolean;
    onWarnings?: (warnings: Diagnostic[]) => void;
  },
): Record<string, McpServerDef> | undefined {
  if (neededServers(agent).length === 0) return undefined;
  const { config, env } = i;
  const project = readProjectMcp(env.cwd, env.home, env.env);
  const plan = planMcpServers(agent, { config, project, agentTrusted: i.agentTrusted });
  const warnings = [...project.warnings, ...plan.warnings];
  if (warnings.length > 0) i.onWarnings?.(warnings);
  return Object.keys(plan.servers).length > 0 ? plan.servers : undefined;
}
