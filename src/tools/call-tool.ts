/**
 * The checked way to call a tool: arguments are validated against the
 * tool's schema and the agent's permission rules are checked before it
 * runs, so a tool only ever sees well-formed, allowed input.
 *
 * @module
 */
import { checkArguments } from "./arguments.ts";
import { permissionRefusal, rulesApply } from "./permission-check.ts";
import { type ToolContext, toolError, type ToolOutcome, type ToolSpec } from "./tool-spec.ts";

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
