/**
 * Which xcsh tool a tool name from any ecosystem means.
 *
 * Names are matched case-insensitively; Claude Code's and Gemini CLI's tool
 * names (and a few Codex ones) map onto ours. MCP tool names in Claude Code's
 * form are kept as written: `mcp__<server>__<tool>`, `mcp__<server>__*` and
 * `mcp__<server>` (every tool of the server). A name that maps to nothing is
 * "unknown": it grants nothing, and `xcsh agents check` reports it.
 *
 * @example
 * ```ts
 * canonicalToolName("Glob"); // "find"
 * canonicalToolName("run_shell_command"); // "bash"
 * canonicalToolName("Frob"); // undefined
 * ```
 *
 * @module
 */
import { TOOL_NAMES } from "./tool-catalogue.ts";

const CANONICAL: ReadonlySet<string> = new Set(TOOL_NAMES);

/** Lower-cased foreign name → canonical xcsh name. */
export const TOOL_ALIASES: Readonly<Record<string, string>> = {
  // Claude Code
  glob: "find",
  multiedit: "edit",
  agent: "task",
  webfetch: "web_fetch",
  websearch: "web_search",
  todowrite: "todo",
  // Gemini CLI
  read_file: "read",
  read_many_files: "read",
  grep_search: "grep",
  search_file_content: "grep",
  list_directory: "ls",
  run_shell_command: "bash",
  replace: "edit",
  write_file: "write",
  google_web_search: "web_search",
  write_todos: "todo",
  // Codex
  shell: "bash",
  apply_patch: "edit",
};

/** `mcp__<server>`, `mcp__<server>__*` or `mcp__<server>__<tool>`. */
const MCP_TOOL = /^mcp__([A-Za-z0-9][A-Za-z0-9_.-]*?)(?:__(.+))?$/;

/**
 * The server and tool an MCP tool name or pattern means (`tool` is `*` for
 * every tool), or undefined when `name` is not one.
 *
 * @example
 * ```ts
 * parseMcpToolName("mcp__github__create_issue"); // { server: "github", tool: "create_issue" }
 * parseMcpToolName("mcp__github"); // { server: "github", tool: "*" }
 * ```
 */
export function parseMcpToolName(name: string): { server: string; tool: string } | undefined {
  const m = MCP_TOOL.exec(name.trim());
  return m ? { server: m[1], tool: m[2] ?? "*" } : undefined;
}

/** Every tool of every MCP server (what Gemini's `mcp_*` means). */
export const ALL_MCP_TOOLS = "mcp__*";

const MAX_MCP_NAME = 64;

/**
 * The name a model sees for `tool` of MCP server `server`: characters model
 * APIs refuse become `_`, and a name over 64 characters is cut and ends in
 * a hash of the whole. Pure.
 */
export function mcpToolName(server: string, tool: string): string {
  const name = `mcp__${server}__${tool}`.replace(/[^A-Za-z0-9_-]/g, "_");
  if (name.length <= MAX_MCP_NAME) return name;
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return `${name.slice(0, MAX_MCP_NAME - 9)}_${hash.toString(36).padStart(8, "0").slice(0, 8)}`;
}

/** The canonical name for `name`, or `undefined` when it means no xcsh tool. */
export function canonicalToolName(name: string): string | undefined {
  if (name.trim() === ALL_MCP_TOOLS) return ALL_MCP_TOOLS;
  if (parseMcpToolName(name)) return name.trim();
  const lower = name.trim().toLowerCase();
  if (CANONICAL.has(lower)) return lower;
  // Own keys only: "constructor" or "__proto__" must not reach Object.prototype.
  return Object.hasOwn(TOOL_ALIASES, lower) ? TOOL_ALIASES[lower] : undefined;
}
