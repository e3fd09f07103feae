/**
 * The tools one child offers its model, each module loaded only when the
 * plan names it: the built-in tools the plan's
 * tool set names (decided by the parent, `plan/tool-set-rule.ts`; `skill` only when
 * the envelope brings skills), `web_search` when `search:` is configured and
 * its key variable is set, and the tools of the MCP servers the parent
 * approved for it (`envelope.mcpServers`, their tools as the tool set's MCP
 * grant allows), which start here, once, and end
 * with {@link ChildTools.close}. A server that cannot start is reported once
 * by name (a warning on stderr and a failed `tool_end` event named after
 * the server), and the task goes on without it.
 *
 * @module
 */
import { loadBuiltinTool } from "../tools/tool-loaders.ts";
import { mcpTimeoutMs } from "../protocol/variables.ts";
import { MCP_CALL_TIMEOUT_MS, MCP_START_TIMEOUT_MS } from "../tools/mcp/mcp-limits.ts";
import { SUBMIT_RESULT } from "../tools/submit-result.ts";
import type { ToolSpec } from "../tools/tool-spec.ts";
import type { XcshConfig } from "../types.ts";
import type { TaskEnvelope } from "../protocol/envelope.ts";
import { commandSettings } from "../process/git-config-rule.ts";

export interface ChildTools {
  tools: Map<string, ToolSpec>;
  /** Ends the MCP servers started for this child. */
  close(): Promise<void>;
}

/** Builds the child's tools; `warn` receives one line per server that failed. */
export async function childTools(
  envelope: TaskEnvelope,
  config: XcshConfig,
  env: Record<string, string | undefined>,
  warn: (server: string, message: string) => void,
): Promise<ChildTools> {
  const set = envelope.toolSet;
  const names = set.tools;
  const tools = new Map<string, ToolSpec>();
  // Each tool's module loads only when the plan names it; `skill` is
  // offered only when there are skills to load.
  const noSkills = !envelope.skills || envelope.skills.length === 0;
  const wanted = names.filter((n) => n !== SUBMIT_RESULT && !(n === "skill" && noSkills));
  const specs = await Promise.all(wanted.map(loadBuiltinTool));
  wanted.forEach((name, i) => {
    const spec = specs[i];
    if (spec) tools.set(name, spec);
  });
  const search = config.search;
  if (names.includes("web_search") && search) {
    const key = env[search.apiKeyEnv];
    if (key) {
      const { webSearchTool } = await import("../tools/web/web-search.ts");
      tools.set("web_search", webSearchTool(search, key));
    } else if (envelope.agent.tools?.includes("web_search")) {
      // Said only to an agent that asked for it, not to every all-tools agent.
      warn("web_search", `web_search is not offered: ${search.apiKeyEnv} is not set`);
    }
  }
  const servers = envelope.mcpServers ?? {};
  if (Object.keys(servers).length === 0) return { tools, close: () => Promise.resolve() };
  // Loaded only here: the MCP client builds the protocol's schemas when it
  // loads, a cost every child without servers would pay otherwise.
  const { startMcpTools } = await import("../tools/mcp/mcp-tools.ts");
  const mcp = await startMcpTools(servers, set.mcp, envelope.agent.tools, {
    cwd: envelope.cwd,
    env,
    gitSettings: commandSettings(envelope.commandGitSettings),
    startTimeoutMs: mcpTimeoutMs(env, MCP_START_TIMEOUT_MS),
    callTimeoutMs: mcpTimeoutMs(env, MCP_CALL_TIMEOUT_MS),
  });
  for (const e of mcp.errors) warn(/'([^']+)'/.exec(e)?.[1] ?? "mcp", e);
  for (const t of mcp.tools) if (!tools.has(t.name)) tools.set(t.name, t);
  return { tools, close: mcp.close };
}
