/**
 * Which tools of one MCP server its definition lets through: with
 * `enabled_tools` only those listed, never those in `disabled_tools` (as
 * Codex reads them), and which listed names the server does not have (each
 * named in a warning, so a misspelt name is not silently a tool lost or
 * kept). Pure.
 *
 * @example
 * ```ts
 * toolAllowedByServer({ enabledTools: ["read"] }, "write"); // false
 * unknownFilterNames("fs", { disabledTools: ["wrte"] }, ["read", "write"]);
 * // ["MCP server 'fs': disabled_tools names 'wrte', which it does not have; its tools: read, write"]
 * ```
 *
 * @module
 */
import type { McpToolFilter } from "../../types.ts";

/** True when `tool` of a server defined with `filter` is registered. */
export function toolAllowedByServer(filter: McpToolFilter, tool: string): boolean {
  if (filter.enabledTools && !filter.enabledTools.includes(tool)) return false;
  return !(filter.disabledTools ?? []).includes(tool);
}

/** A warning for each name of `filter` that none of `tools` (the server's) carries. */
export function unknownFilterNames(
  server: string,
  filter: McpToolFilter,
  tools: readonly string[],
): string[] {
  const out: string[] = [];
  for (
    const [key, names] of [
      ["enabled_tools", filter.enabledTools],
      ["disabled_tools", filter.disabledTools],
    ] as const
  ) {
    for (const name of names ?? []) {
      if (!tools.includes(name)) {
        out.push(
          `MCP server '${server}': ${key} names '${name}', which it does not have; its tools: ` +
            (tools.join(", ") || "none"),
        );
      }
    }
  }
  return out;
}
