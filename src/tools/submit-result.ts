/**
 * The `submit_result` tool and the rules for judging a submission.
 *
 * `{result: {data}}` finishes the task with `data` when it satisfies the
 * output schema (or there is none); `{result: {error}}` finishes it as failed
 * with the agent's own reason. An invalid submission is answered with the
 * validation errors; after `submitRetries` invalid submissions have been
 * answered, the next invalid one fails the task with its errors (so the model
 * gets `submitRetries + 1` attempts). A bare `{data}` or `{error}` without the
 * `result` wrapper is accepted as if wrapped. Pure, apart from the schema's
 * own validator.
 *
 * The tool's parameters carry the output schema (as JSON Schema) under
 * `result.data`, so a model that follows tool schemas produces a valid
 * result: `{result: {data: <schema>} | {error: string}}`. Without a schema,
 * `data` is open. The schema's definitions move to the parameters' root and
 * its local references are rebased there.
 *
 * @module
 */
import type { OutputValidator } from "../schema/output-schema.ts";
import type { JsonSchemaObject } from "./tool-spec.ts";
import { isRecord } from "../formats/values.ts";

export const SUBMIT_RESULT = "submit_result";

const RESULT_DESCRIPTION = "Exactly one of `data` or `error`.";
const ERROR_SCHEMA = { type: "string", description: "Why the task cannot be done." };

export const submitResultSchema: JsonSchemaObject = {
  type: "object",
  properties: {
    result: {
      type: "object",
      description: RESULT_DESCRIPTION,
      properties: {
        data: { description: "The finished result." },
        error: ERROR_SCHEMA,
      },
    },
  },
  required: ["result"],
};

/** Where the data schema sits inside the parameters. */
const DATA_POINTER = "#/properties/result/anyOf/0/properties/data";

/** `schema` with local `$ref`s (other than into the hoisted definitions) rebased to `base`. */
function rebaseRefs(schema: unknown, base: string): unknown {
  if (Array.isArray(schema)) return schema.map((s) => rebaseRefs(s, base));
  if (!isRecord(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === "$ref" && typeof v === "string" && (v === "#" || v.startsWith("#/"))) {
      out[k] = v.startsWith("#/$defs/") || v.startsWith("#/definitions/") ? v : base + v.slice(1);
    } else out[k] = rebaseRefs(v, base);
  }
  return out;
}

/**
 * The parameters of `submit_result` for an output schema given as JSON
 * Schema (JTD converted first); without one, {@link submitResultSchema}.
 */
export function submitResultParameters(dataSchema: unknown): JsonSchemaObject {
  if (dataSchema === undefined) return submitResultSchema;
  const { $schema: _s, $id: _i, $defs, definitions, ...rest } = isRecord(dataSchema)
    ? dataSchema
    : {};
  const data = rebaseRefs(rest, DATA_POINTER) as Record<string, unknown>;
  return {
    type: "object",
    properties: {
      result: {
        description: RESULT_DESCRIPTION,
        anyOf: [
          {
            type: "object",
            properties: { data },
            required: ["data"],
            additionalProperties: false,
          },
          {
            type: "object",
            properties: { error: ERROR_SCHEMA },
            required: ["error"],
            additionalProperties: false,
          },
        ],
      },
    },
    required: ["result"],
    additionalProperties: false,
    ...($defs !== undefined ? { $defs: rebaseRefs($defs, DATA_POINTER) } : {}),
    ...(definitions !== undefined ? { definitions: rebaseRefs(definitions, DATA_POINTER) } : {}),
  };
}

export const submitResultDescription = "Finish the task with `result.data`, or give up with " +
  "`result.error`. Data that fails the output schema comes back with the errors: fix it and " +
  "submit again.";

export type SubmitVerdict =
  | { kind: "accepted"; data: unknown }
  | { kind: "agent-error"; error: string }
  /** Invalid; `reply` goes back to the model, which may try again. */
  | { kind: "rejected"; errors: string[]; reply: string }
  /** Invalid and out of attempts: the task fails with `errors`. */
  | { kind: "exhausted"; errors: string[] };

/** The `{data} | {error}` part of a submission, or why there is none. */
function unwrap(args: unknown): { data?: unknown; error?: unknown; problem?: string } {
  if (!isRecord(args)) return { problem: 'arguments must be an object: {"result": {...}}' };
  const inner = isRecord(args.result)
    ? args.result
    : ("data" in args || "error" in args)
    ? args
    : undefined;
  if (!inner) {
    return { problem: 'missing \'result\': call submit_result with {"result": {"data": ...}}' };
  }
  const hasData = "data" in inner && inner.data !== undefined;
  const hasError = "error" in inner && inner.error !== undefined && inner.error !== null;
  if (hasData && hasError) return { problem: "give exactly one of result.data or result.error" };
  if (!hasData && !hasError) return { problem: "result must contain data or error" };
  return hasData ? { data: inner.data } : { error: inner.error };
}

/**
 * Judges one submission. `invalidSoFar` counts earlier invalid submissions.
 *
 * @example
 * ```ts
 * evaluateSubmission({ result: { data: 1 } }, undefined, 0, 3); // { kind: "accepted", data: 1 }
 * evaluateSubmission({ result: {} }, undefined, 3, 3);          // { kind: "exhausted", errors: [...] }
 * ```
 */
export function evaluateSubmission(
  args: unknown,
  validator: OutputValidator | undefined,
  invalidSoFar: number,
  submitRetries: number,
): SubmitVerdict {
  const u = unwrap(args);
  let errors: string[];
  if (u.problem) {
    errors = [u.problem];
  } else if (u.error !== undefined) {
    if (typeof u.error === "string" && u.error.trim() !== "") {
      return { kind: "agent-error", error: u.error.trim() };
    }
    errors = ["result.error must be a non-empty string"];
  } else {
    if (!validator) return { kind: "accepted", data: u.data };
    const data = validator.normalize ? validator.normalize(u.data) : u.data;
    const v = validator.validate(data);
    if (v.ok) return { kind: "accepted", data };
    errors = v.errors.map((e) => `data${e.startsWith("(root)") ? e.slice(6) : e}`);
  }
  if (invalidSoFar >= submitRetries) return { kind: "exhausted", errors };
  const left = submitRetries - invalidSoFar;
  const reply = "The submission was rejected:\n" + errors.map((e) => `- ${e}`).join("\n") +
    `\nFix these and call submit_result again (${left} attempt${left === 1 ? "" : "s"} left).`;
  return { kind: "rejected", errors, reply };
}
