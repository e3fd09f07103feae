/**
 * Which MCP servers a child starts, decided by the parent before it starts
 * the child. The agent needs a server when it declares it (`mcpServers:`) or
 * lists one of its tools (`mcp__<server>__<tool>`, `mcp__<server>__*`,
 * `mcp__<server>`); no other server starts. Each needed name is looked up:
 *
 * 1. the agent file's own inline definition (a relative command or `cwd` is
 *    a path from the agent file's folder) — a user's (or plugin's) file
 *    needs no approval; a project's file is repository content and starts
 *    its servers only when `xcsh trust` recorded that file with this
 *    content (`agentFileTrusted`, `agent-file-trust.ts`): a file added or
 *    changed later needs trusting again;
 * 2. `mcpServers` in xcsh config;
 * 3. the project's `.mcp.json`, when the user approved the server (see
 *    `project-mcp.ts`: approvals live in the user's state, never in the
 *    repository's own `.claude/settings*.json`).
 *
 * A name found nowhere, or found only unapproved, is a warning naming the
 * agent and the server (with how to approve it). Since only approved
 * servers start, `${VAR}` in a definition is filled from the user's
 * environment only for a server the user approved. Pure, apart from
 * `agentFileTrusted`, which reads the file and the trust store.
 *
 * @example
 * ```ts
 * import type { AgentDefinition, XcshConfig } from "../types.ts";
 * import type { ProjectMcp } from "./project-mcp.ts";
 *
 * declare const agent: AgentDefinition; // asks for the `github` server
 * declare const config: XcshConfig;
 * declare const project: ProjectMcp;
 * planMcpServers(agent, { config, project, agentTrusted: false }).servers; // { github: {...} }
 * ```
 *
 * @module
 */
import { parseMcpToolName } from "../discovery/tool-names.ts";
import { anchorDefinition } from "../discovery/mcp-definition.ts";
import { dirname } from "node:path";
import type { AgentDefinition, Diagnostic, McpServerDef, XcshConfig } from "../types.ts";
import type { ProjectMcp } from "./project-mcp.ts";

export interface McpPlanInput {
  config: XcshConfig;
  project: ProjectMcp;
  /** Whether the agent's own file is trusted by content (`agentFileTrusted`). */
  agentTrusted: boolean;
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

/** How to approve `name`, for warnings. */
export function approvalHint(name: string, root?: string): string {
  return `run 'xcsh trust${root ? ` ${root}` : ""}' (it lists the project's servers and ` +
    `approves them), add "${name}" to "enabledMcpjsonServers" in your own ` +
    `~/.claude/settings.json for a trusted project, or define it under mcpServers in ` +
    `~/.xcsh/agent/config.yml`;
}

/** Decides the servers of one agent's child. */
export function planMcpServers(agent: AgentDefinition, input: McpPlanInput): McpPlan {
  const servers: Record<string, McpServerDef> = {};
  const warnings: Diagnostic[] = [];
  const warn = (message: string, file = agent.filePath) =>
    warnings.push({ level: "warning", ...(file ? { file } : {}), field: "mcpServers", message });
  for (const name of neededServers(agent)) {
    const declared = agent.mcpServers?.find((r) => r.name === name)?.definition;
    // A relative command is a path from the agent file's own folder.
    const inline = declared && agent.filePath
      ? anchorDefinition(declared, dirname(agent.filePath))
      : declared;
    if (inline) {
      if (agent.source !== "project" || input.agentTrusted) {
        servers[name] = inline;
        continue;
      }
      if (!input.config.mcpServers[name]) {
        warn(
          `agent '${agent.name}': MCP server '${name}' is defined in a project agent file ` +
            `that is not trusted (added or changed since 'xcsh trust'), so it does not start: ` +
            `run 'xcsh trust' after reading the file`,
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
      if (input.project.approved.has(name)) servers[name] = fromProject;
      else {
        const why = input.project.approvedByRepository.has(name)
          ? "is approved only in the project's own .claude settings, which the repository ships"
          : "is not approved";
        warn(
          `MCP server '${name}' from ${input.project.file} ${why}, so agent ` +
            `'${agent.name}' runs without it: ${approvalHint(name, input.project.root)}`,
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
