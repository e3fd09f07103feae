/**
 * The built-in tool specs by name, all loaded (a child loads only those its
 * plan names, through `tool-loaders.ts`), and the checked way to call one
 * (`call-tool.ts`). Which tools a child gets is decided by
 * `plan/tool-set-rule.ts`.
 *
 * @module
 */
import { bashTool } from "./bash.ts";
import { editTool } from "./edit.ts";
import { findTool } from "./search/find.ts";
import { grepTool } from "./search/grep.ts";
import { lsTool } from "./ls.ts";
import { readTool } from "./read.ts";
import { reportFindingTool } from "./report-finding.ts";
import { skillTool } from "./skill.ts";
import { taskTool } from "./task.ts";
import { todoTool } from "./todo.ts";
import type { ToolName } from "../discovery/tool-catalogue.ts";
import type { ToolSpec } from "./tool-spec.ts";
import { webFetchTool } from "./web/web-fetch.ts";
import { writeTool } from "./write.ts";

/**
 * Every tool except `submit_result` (which the child loop handles itself),
 * `web_search` (built from its configuration, see `web-search.ts`) and MCP
 * servers' tools (see `mcp-tools.ts`).
 */
export const TOOLS: Readonly<Record<Exclude<ToolName, "submit_result" | "web_search">, ToolSpec>> =
  {
    read: readTool,
    grep: grepTool,
    find: findTool,
    ls: lsTool,
    bash: bashTool,
    edit: editTool,
    write: writeTool,
    task: taskTool,
    report_finding: reportFindingTool,
    web_fetch: webFetchTool,
    todo: todoTool,
    skill: skillTool,
  };

/** The built-in spec named `name`, if there is one (never an inherited property). */
export function builtinTool(name: string): ToolSpec | undefined {
  return Object.hasOwn(TOOLS, name) ? TOOLS[name as keyof typeof TOOLS] : undefined;
}

export { callTool } from "./call-tool.ts";
