/**
 * How long an MCP server may take: to start and list its tools, and to
 * answer one call. Its own module so that a child without MCP servers can
 * know them without loading the MCP client (and the protocol schemas it
 * builds at load time).
 *
 * @module
 */

/** Start-up and tool listing of one server. */
export const MCP_START_TIMEOUT_MS = 30_000;
/** One tool call. */
export const MCP_CALL_TIMEOUT_MS = 300_000;
