/**
 * The `submit_result` tool as one provider is sent it, and how its
 * submissions are judged.
 *
 * The output schema (JTD converted to JSON Schema) goes into the tool's
 * parameters under `result.data`. OpenAI (the `openai` provider type) gets the
 * strict form when the schema has one (`strict: true`: the model's arguments
 * are constrained to it), else the plain form non-strict (without
 * `propertyNames`, which it refuses); Gemini gets its
 * schema subset; Anthropic and OpenAI-compatible servers get the plain form.
 * Submissions are always validated against the original schema; under the
 * strict form, a `null` for an optional property first means "absent".
 * `schemaInTool` says whether the parameters carry a JSON Schema as written
 * (the plain form): the system prompt then points at the tool instead of
 * repeating the schema (`child/prompt.ts`); a JTD schema or a provider form
 * that changed it is repeated there whole.
 *
 * @example
 * ```ts
 * import type { OutputValidator } from "../schema/output-schema.ts";
 *
 * declare const validator: OutputValidator;
 * const tool = submitTool("openai", validator);
 * tool.definition.strict; // true when the schema has a strict form
 * ```
 *
 * @module
 */
import type { ProviderType } from "../model/providers.ts";
import { jtdToJsonSchema } from "../schema/jtd-to-json-schema.ts";
import type { OutputValidator } from "../schema/output-schema.ts";
import { dropAddedNulls, geminiForm, openAIForm, strictForm } from "../schema/provider-forms.ts";
import {
  SUBMIT_RESULT,
  submitResultDescription,
  submitResultParameters,
} from "../tools/submit-result.ts";
import type { JsonSchemaObject } from "../tools/tool-spec.ts";
import type { ToolDefinition } from "./conversation.ts";
import { isRecord } from "../formats/values.ts";

/** The output schema as JSON Schema. */
export function dataSchemaOf(validator: OutputValidator): unknown {
  if (validator.kind === "jtd") return jtdToJsonSchema(validator.schema);
  return validator.schema === true || validator.schema === false ? {} : validator.schema;
}

/** The tool definition and the validator its submissions are judged with. */
export function submitTool(
  type: ProviderType,
  validator: OutputValidator | undefined,
): { definition: ToolDefinition; validator: OutputValidator | undefined; schemaInTool: boolean } {
  const { definition, validator: judge, params } = submitDefinition(type, validator);
  const asWritten = validator?.kind === "json-schema" && isRecord(validator.schema);
  return {
    definition,
    validator: judge,
    schemaInTool: asWritten && definition.inputSchema === params,
  };
}

/** The definition one provider is sent, its validator, and the plain parameters. */
function submitDefinition(
  type: ProviderType,
  validator: OutputValidator | undefined,
): { definition: ToolDefinition; validator: OutputValidator | undefined; params: unknown } {
  const dataSchema = validator ? dataSchemaOf(validator) : undefined;
  const params = submitResultParameters(dataSchema);
  const plain = { name: SUBMIT_RESULT, description: submitResultDescription, inputSchema: params };
  if (!validator) return { definition: plain, validator, params };
  switch (type) {
    case "openai": {
      const strict = strictForm(params);
      if (!strict) {
        const inputSchema = openAIForm(params) as JsonSchemaObject;
        return { definition: { ...plain, inputSchema }, validator, params };
      }
      const data = params;
      return {
        definition: { ...plain, inputSchema: strict as JsonSchemaObject, strict: true },
        validator: {
          ...validator,
          normalize: (value) =>
            (dropAddedNulls({ result: { data: value } }, data) as { result: { data: unknown } })
              .result.data,
        },
        params,
      };
    }
    case "google":
      return {
        definition: { ...plain, inputSchema: geminiForm(params) as JsonSchemaObject },
        validator,
        params,
      };
    default:
      return { definition: plain, validator, params };
  }
}
