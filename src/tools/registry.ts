/**
 * Which tools a child offers its model, and the checked way to call one.
 *
 * The agent's `tools` list (absent: all tools) minus `task` when the child may
 * spawn nothing (`XCSH_SPAWNS` set to `""`), minus `edit`, `write`, `bash` and
 * `task` in plan mode; `submit_result` is always offered. Names that mean no
 * tool are dropped. Arguments are validated against the tool's schema before
 * it runs, so a tool only ever sees well-formed input.
 *
 * @example
 * ```ts
 * selectToolNames(["read", "bash", "submit_result"], { planMode: true, spawns: undefined });
 * // ["read", "submit_result"]
 * ```
 *
 * @module
 */
import { TOOL_NAMES } from "../types.ts";
import { checkArguments } from "./arguments.ts";
import { bashTool } from "./bash.ts";
import { editTool } from "./edit.ts";
import { findTool } from "./find.ts";
import { grepTool } from "./grep.ts";
import { lsTool } from "./ls.ts";
import { readTool } from "./read.ts";
import { reportFindingTool } from "./report-finding.ts";
import { SUBMIT_RESULT } from "./submit-result.ts";
import { taskTool } from "./task.ts";
import { todoTool } from "./todo.ts";
import { type ToolContext, toolError, type ToolOutcome, type ToolSpec } from "./types.ts";
import { webFetchTool } from "./web-fetch.ts";
import { writeTool } from "./write.ts";

/**
 * Every tool except `submit_result` (which the child loop handles itself),
 * `web_search` (built from its configuration, see `web-search.ts`) and MCP
 * servers' tools (see `mcp-tools.ts`).
 */
export const TOOLS: Readonly<Record<string, ToolSpec>> = {
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
};

/** Tools a plan-mode child never gets. */
export const PLAN_MODE_DENIED: readonly string[] = ["edit", "write", "bash", "task"];

/**
 * The tool names to offer, in canonical order. `spawns` is the value of
 * `XCSH_SPAWNS` (undefined when unset).
 */
export function selectToolNames(
  agentTools: readonly string[] | undefined,
  opts: { planMode: boolean; spawns: string | undefined },
): string[] {
  const wanted = new Set(agentTools && agentTools.length > 0 ? agentTools : TOOL_NAMES);
  wanted.add(SUBMIT_RESULT);
  return TOOL_NAMES.filter((name) => {
    if (!wanted.has(name)) return false;
    if (name === "task" && opts.spawns !== undefined && opts.spawns.trim() === "") return false;
    if (opts.planMode && PLAN_MODE_DENIED.includes(name)) return false;
    return true;
  });
}

/** At most this many argument problems go back to the model. */
const MAX_ARGUMENT_ERRORS = 20;

/** Validates `args` against the tool's schema, then runs it. Never throws. */
export async function callTool(
  spec: ToolSpec,
  args: unknown,
  ctx: ToolContext,
): Promise<ToolOutcome> {
  const problems = spec.checksOwnArguments ? [] : checkArguments(spec.inputSchema, args);
  if (problems.length > 0) {
    const shown = problems.slice(0, MAX_ARGUMENT_ERRORS);
    if (problems.length > shown.length) {
      shown.push(`… and ${problems.length - shown.length} more`);
    }
    return toolError(
      `invalid arguments for ${spec.name}:\n${shown.map((e) => `- ${e}`).join("\n")}`,
    );
  }
  try {
    return await spec.run(args, ctx);
  } catch (err) {
    return toolError(`${spec.name} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}
