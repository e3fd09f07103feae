/**
 * What `xcsh agents check` says about what agent files need from the
 * configuration: an MCP server named in `mcpServers:` or by an
 * `mcp__<server>__…` tool that is defined nowhere, or that would not start
 * because it is not approved, and `web_search` (Claude's `WebSearch`,
 * Gemini's `google_web_search`) without a search provider configured. Each
 * is a warning naming the file: the agent still loads and runs, without it.
 *
 * @module
 */
import { sep } from "node:path";
import { loadConfig } from "../config/load.ts";
import type { DiscoveryEnv } from "../discovery/config-dirs.ts";
import type { FileOutcome } from "../discovery/lint.ts";
import { agentFileTrusted } from "../plan/agent-file-trust.ts";
import { neededServers, planMcpServers } from "../plan/mcp-plan.ts";
import { readProjectMcp } from "../plan/project-mcp.ts";
import type { Diagnostic } from "../types.ts";

/** Warnings about the MCP servers and search provider the agents in `outcomes` need. */
export async function checkAgentNeeds(
  outcomes: readonly FileOutcome[],
  env: DiscoveryEnv,
): Promise<Diagnostic[]> {
  // `agents check` reads every folder as a project's; a file in the user's
  // own folders (`~/.claude/agents`, …) is the user's and needs no approval.
  const userDirs = `${env.home.replace(/[\\/]+$/, "")}${sep}.`;
  const agents = outcomes.flatMap((o) =>
    o.agent && (neededServers(o.agent).length > 0 || o.agent.tools?.includes("web_search"))
      ? [{
        ...o.agent,
        filePath: o.path,
        source: env.home && o.path.startsWith(userDirs) ? "user" as const : o.agent.source,
      }]
      : []
  );
  if (agents.length === 0) return [];
  const loaded = await loadConfig(env.cwd, env.home);
  if (!loaded.ok) return [];
  const out: Diagnostic[] = [];
  for (const agent of agents) {
    if (agent.tools?.includes("web_search") && !loaded.config.search) {
      out.push({
        level: "warning",
        file: agent.filePath,
        field: "tools",
        message: "web_search is not offered: no search provider is configured " +
          "(set search.provider to brave or tavily in ~/.xcsh/agent/config.yml)",
      });
    }
  }
  const mcpAgents = agents.filter((a) => neededServers(a).length > 0);
  if (mcpAgents.length === 0) return out;
  const project = readProjectMcp(env.cwd, env.home, env.env);
  out.push(...project.warnings);
  const seen = new Set<string>();
  for (const agent of mcpAgents) {
    const plan = planMcpServers(agent, {
      config: loaded.config,
      project,
      agentTrusted: agentFileTrusted(agent, env),
    });
    for (const w of plan.warnings) {
      const key = `${w.file}\0${w.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ ...w, level: "warning" });
    }
  }
  return out;
}
