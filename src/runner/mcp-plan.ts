/**
 * Which MCP servers a child starts, decided by the parent before it starts
 * the child. The agent needs a server when it declares it (`mcpServers:`) or
 * lists one of its tools (`mcp__<server>__<tool>`, `mcp__<server>__*`,
 * `mcp__<server>`); no other server starts. Each needed name is looked up:
 *
 * 1. the agent file's own inline definition — a user's (or plugin's) file
 *    needs no approval; a project's file is repository content and needs the
 *    project trusted (`xcsh trust`) or the name approved as for `.mcp.json`;
 * 2. `mcpServers` in xcsh config;
 * 3. the project's `.mcp.json`, approved the way Claude Code records it
 *    (`enableAllProjectMcpServers: true` or `enabledMcpjsonServers` in
 *    `.claude/settings.json` / `.claude/settings.local.json`).
 *
 * A name found nowhere, or found only unapproved, is a warning naming the
 * agent and the server (with how to approve it). Pure, apart from
 * {@link agentFileTrusted}, which reads the trust store.
 *
 * @example
 * ```ts
 * planMcpServers(agent, { config, project, projectTrusted: false }).servers; // { github: {...} }
 * ```
 *
 * @module
 */
import { isInsideTrustedProject, trustStoreFor } from "../config/trust.ts";
import type { DiscoveryEnv } from "../discovery/config-dirs.ts";
import { parseMcpToolName } from "../discovery/tool-names.ts";
import type { AgentDefinition, Diagnostic, McpServerDef, XcshConfig } from "../types.ts";
import type { ProjectMcp } from "./project-mcp.ts";

export interface McpPlanInput {
  config: XcshConfig;
  project: ProjectMcp;
  /** Whether the agent's project is trusted (`xcsh trust`). */
  projectTrusted: boolean;
}

export interface McpPlan {
  servers: Record<string, McpServerDef>;
  warnings: Diagnostic[];
}

/** The server names an agent needs, in first-mention order. Pure. */
export function neededServers(agent: AgentDefinition): string[] {
  const out: string[] = [];
  for (const ref of agent.mcpServers ?? []) if (!out.includes(ref.name)) out.push(ref.name);
  for (const t of agent.tools ?? []) {
    const p = parseMcpToolName(t);
    if (p && !out.includes(p.server)) out.push(p.server);
  }
  return out;
}

function approvedInProject(project: ProjectMcp, name: string): boolean {
  if (project.disabled.has(name)) return false;
  return project.approved === "all" || project.approved.has(name);
}

/**
 * Whether a project agent file lies in a project the user trusted with
 * `xcsh trust` (its own MCP server definitions may then start). Reads the
 * trust store of `env`; never throws.
 */
export function agentFileTrusted(agent: AgentDefinition, env: DiscoveryEnv): boolean {
  if (agent.source !== "project" || !agent.filePath) return false;
  return isInsideTrustedProject(agent.filePath, trustStoreFor(env.env, env.home));
}

/** How to approve `name`, for warnings. */
export function approvalHint(name: string): string {
  return `add "${name}" to "enabledMcpjsonServers" in .claude/settings.local.json ` +
    `(or set "enableAllProjectMcpServers": true), define it under mcpServers in ` +
    `~/.xcsh/agent/config.yml, or run 'xcsh trust'`;
}

/** Decides the servers of one agent's child. */
export function planMcpServers(agent: AgentDefinition, input: McpPlanInput): McpPlan {
  const servers: Record<string, McpServerDef> = {};
  const warnings: Diagnostic[] = [];
  const warn = (message: string, file = agent.filePath) =>
    warnings.push({ level: "warning", ...(file ? { file } : {}), field: "mcpServers", message });
  for (const name of neededServers(agent)) {
    const inline = agent.mcpServers?.find((r) => r.name === name)?.definition;
    if (inline) {
      const needsApproval = agent.source === "project";
      if (!needsApproval || input.projectTrusted || approvedInProject(input.project, name)) {
        servers[name] = inline;
        continue;
      }
      if (!input.config.mcpServers[name]) {
        warn(
          `agent '${agent.name}': MCP server '${name}' is defined in a project agent file and ` +
            `is not approved, so it does not start: ${approvalHint(name)}`,
        );
        continue;
      }
    }
    const configured = input.config.mcpServers[name];
    if (configured) {
      servers[name] = configured;
      continue;
    }
    const fromProject = input.project.servers[name];
    if (fromProject) {
      if (approvedInProject(input.project, name)) servers[name] = fromProject;
      else {
        warn(
          `MCP server '${name}' from ${input.project.file} is not approved, so agent ` +
            `'${agent.name}' runs without it: ${approvalHint(name)}`,
          input.project.file,
        );
      }
      continue;
    }
    warn(
      `agent '${agent.name}' uses MCP server '${name}', which is not defined (in the agent ` +
        `file, mcpServers of xcsh config, or the project's .mcp.json)`,
    );
  }
  return { servers, warnings };
}
