/**
 * What `xcsh agents check` says about the MCP servers agent files use: a
 * server named in `mcpServers:` or by an `mcp__<server>__…` tool that is
 * defined nowhere, or that would not start because it is not approved, is a
 * warning naming the file and the server (the agent still loads and runs,
 * without that server).
 *
 * @module
 */
import { loadConfig } from "../config/load.ts";
import type { DiscoveryEnv } from "../discovery/config-dirs.ts";
import type { FileOutcome } from "../discovery/lint.ts";
import { neededServers, planMcpServers } from "../runner/mcp-plan.ts";
import { readProjectMcp } from "../runner/project-mcp.ts";
import type { Diagnostic } from "../types.ts";

/** Warnings about the MCP servers of the agents in `outcomes`. */
export async function checkMcpServers(
  outcomes: readonly FileOutcome[],
  env: DiscoveryEnv,
): Promise<Diagnostic[]> {
  const agents = outcomes.flatMap((o) =>
    o.agent && neededServers(o.agent).length > 0 ? [{ ...o.agent, filePath: o.path }] : []
  );
  if (agents.length === 0) return [];
  const loaded = await loadConfig(env.cwd, env.home);
  if (!loaded.ok) return [];
  const project = readProjectMcp(env.cwd, env.home);
  const out: Diagnostic[] = [...project.warnings];
  const seen = new Set<string>();
  for (const agent of agents) {
    const plan = planMcpServers(agent, { config: loaded.config, project, projectTrusted: false });
    for (const w of plan.warnings) {
      const key = `${w.file}\0${w.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ ...w, level: "warning" });
    }
  }
  return out;
}
