/**
 * Which MCP tools a child offers: the tool set's MCP grant (decided by the
 * parent, `plan/tool-set-rule.ts`, carried in the plan's `toolSet.mcp`)
 * applied to the tools a started server lists. Pure.
 *
 * @example
 * ```ts
 * mcpToolGranted({ patterns: "all", declared: [], deny: [], readOnlyOnly: true }, "fs", "write", false);
 * // false: plan mode offers only tools their server marks read-only
 * ```
 *
 * @module
 */
import { ALL_MCP_TOOLS, mcpToolName, parseMcpToolName } from "../../discovery/tool-names.ts";
import type { EnvelopeToolSet } from "../../protocol/envelope.ts";

/** Which MCP tools a child may offer (their servers are known only once started). */
export type McpGrant = EnvelopeToolSet["mcp"];

/** Whether `pattern` (an MCP name or pattern) covers `tool` of `server`. */
function covers(pattern: string, server: string, tool: string): boolean {
  if (pattern === ALL_MCP_TOOLS) return true;
  const p = parseMcpToolName(pattern);
  if (!p || p.server !== server) return false;
  return p.tool === "*" || p.tool === tool ||
    mcpToolName(server, p.tool) === mcpToolName(server, tool);
}

/** Whether a child with `grant` offers `tool` of `server`. Pure. */
export function mcpToolGranted(
  grant: McpGrant,
  server: string,
  tool: string,
  readOnly: boolean,
): boolean {
  if (grant.readOnlyOnly && !readOnly) return false;
  if (grant.deny.some((d) => covers(d, server, tool))) return false;
  if (grant.patterns === "all") return true;
  const mine = grant.patterns.filter((p) =>
    p === ALL_MCP_TOOLS || parseMcpToolName(p)?.server === server
  );
  if (mine.length === 0) return grant.declared.includes(server);
  return mine.some((p) => covers(p, server, tool));
}
