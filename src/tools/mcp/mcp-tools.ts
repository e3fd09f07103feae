/**
 * Which MCP tools a child offers, under which names, and the tool specs
 * that call them. A server's tools are offered when the agent has no tool
 * list, when it declares the server (`mcpServers:`) without naming any of
 * its tools, or by its `tools` patterns: `mcp__<server>__<tool>`,
 * `mcp__<server>__*` and `mcp__<server>`, minus `disallowedTools`; in plan
 * mode only tools annotated `readOnlyHint` stay, and a server's own
 * `enabled_tools`/`disabled_tools` narrow its tools further
 * (`mcp-tool-filter.ts`) (the grant is decided by
 * `protocol/tool-set-rule.ts`). Names are `mcp__<server>__<tool>`, with characters
 * model APIs refuse replaced by `_` and at most 64 characters. The server
 * checks arguments against its own schemas.
 *
 * @example
 * ```ts
 * mcpToolName("github", "create.issue"); // "mcp__github__create_issue"
 * ```
 *
 * @module
 */
import { mcpToolName, parseMcpToolName } from "../../discovery/tool-names.ts";
import type { McpServerDef } from "../../types.ts";
import { type McpGrant, mcpToolGranted } from "./mcp-grant.ts";
import { connectMcpServer, type ConnectOptions, type McpConnection } from "./mcp-client.ts";
import type { JsonSchemaObject, ToolSpec } from "../tool-spec.ts";
import { toolAllowedByServer, unknownFilterNames } from "./mcp-tool-filter.ts";

export { mcpToolName };

/** A tool spec calling `tool` on `conn`. */
export function mcpToolSpec(conn: McpConnection, tool: McpConnection["tools"][number]): ToolSpec {
  const schema = tool.inputSchema.type === "object"
    ? tool.inputSchema
    : { ...tool.inputSchema, type: "object" };
  return {
    name: mcpToolName(conn.server, tool.name),
    description: tool.description || `Tool '${tool.name}' of MCP server '${conn.server}'.`,
    inputSchema: schema as JsonSchemaObject,
    // The server's `readOnlyHint`: such calls may run side by side.
    readOnly: tool.readOnly,
    checksOwnArguments: true,
    run: (args, ctx) => conn.call(tool.name, args, ctx.signal),
  };
}

export interface McpToolSet {
  tools: ToolSpec[];
  /** One message per server that could not start, or tool listed that it lacks, naming it. */
  errors: string[];
  /** Ends every server (and its process tree). */
  close(): Promise<void>;
}

/** Starts the servers (in parallel) and builds the tools the agent gets from them. */
export async function startMcpTools(
  servers: Record<string, McpServerDef>,
  grant: McpGrant,
  listed: readonly string[] | undefined,
  opts: ConnectOptions,
): Promise<McpToolSet> {
  const names = Object.keys(servers);
  const started = await Promise.all(
    names.map((name) => connectMcpServer(name, servers[name], opts)),
  );
  const conns: McpConnection[] = [];
  const errors: string[] = [];
  const tools: ToolSpec[] = [];
  const taken = new Set<string>();
  started.forEach((r) => {
    if (!r.ok) {
      errors.push(r.error);
      return;
    }
    conns.push(r.conn);
    const filter = servers[r.conn.server] ?? {};
    errors.push(...unknownFilterNames(r.conn.server, filter, r.conn.tools.map((t) => t.name)));
    for (const t of r.conn.tools) {
      if (!toolAllowedByServer(filter, t.name)) continue;
      const allowed = mcpToolGranted(grant, r.conn.server, t.name, t.readOnly);
      const spec = mcpToolSpec(r.conn, t);
      if (!allowed || taken.has(spec.name)) continue;
      taken.add(spec.name);
      tools.push(spec);
    }
  });
  for (const conn of conns) {
    for (const name of listed ?? []) {
      const p = parseMcpToolName(name);
      if (!p || p.server !== conn.server || p.tool === "*") continue;
      const known = conn.tools.some((t) =>
        t.name === p.tool || mcpToolName(conn.server, t.name) === mcpToolName(conn.server, p.tool)
      );
      if (!known) {
        errors.push(
          `MCP server '${conn.server}' has no tool '${p.tool}' (the agent lists ${name}); ` +
            `its tools: ${conn.tools.map((t) => t.name).join(", ") || "none"}`,
        );
      }
    }
  }
  return {
    tools,
    errors,
    close: async () => {
      await Promise.all(conns.map((c) => c.close()));
    },
  };
}
