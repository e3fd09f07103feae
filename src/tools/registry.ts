/**
 * The built-in tool specs by name, and the checked way to call one: arguments
 * are validated against the tool's schema before it runs, so a tool only
 * ever sees well-formed input. Which tools a child gets is decided by
 * `protocol/tool-set-rule.ts`.
 *
 * @module
 */
import { checkArguments } from "./arguments.ts";
import { permissionRefusal, rulesApply } from "./permission-check.ts";
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
import { type ToolContext, toolError, type ToolOutcome, type ToolSpec } from "./tool-spec.ts";
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

/** At most this many argument problems go back to the model. */
const MAX_ARGUMENT_ERRORS = 20;

/**
 * Validates `args` against the tool's schema, checks the agent's permission
 * rules (`permission-check.ts`), then runs it. Never throws.
 */
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
  if (rulesApply(ctx.permissions, spec.name)) {
    const input = (args ?? {}) as Record<string, unknown>;
    const refused = await permissionRefusal(ctx.permissions!, spec.name, input, ctx);
    if (refused) return toolError(`${spec.name} refused: ${refused}`);
  }
  try {
    return await spec.run(args, ctx);
  } catch (err) {
    return toolError(`${spec.name} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}
