/**
 * Which output schema a call's children submit against: the agent's
 * (`output:`), else the call's, else the calling session's
 * (`resolveOutputSchema`); and why it is none a child could use, said
 * before any child starts and naming where it came from. The validator is
 * loaded only for a schema.
 *
 * @module
 */
import type { AgentDefinition, TaskRequest } from "../types.ts";
import { schemaOrigin } from "./task-preparation.ts";

/** Why `schema` is no schema a child could use, or undefined (`null`: no schema). */
export async function outputSchemaProblem(
  schema: unknown,
  asked: AgentDefinition,
  req: TaskRequest,
): Promise<string | undefined> {
  if (schema === null) return undefined;
  const { compileOutputSchema } = await import("../schema/output-schema.ts");
  const compiled = compileOutputSchema(schema);
  if (compiled.ok) return undefined;
  const from = schemaOrigin(schema, {
    agentName: asked.name,
    agentOutput: asked.output,
    callSchema: req.schema,
  });
  return `Invalid output schema (${from}): ${compiled.error}`;
}
