/**
 * How a result is checked against an agent's output schema.
 *
 * Decides whether a schema is JTD (RFC 8927) or JSON Schema, compiles it with
 * the matching Ajv flavour, and turns Ajv's errors into short lines a model
 * (or a person) can act on. A schema is JTD when it uses a form JSON Schema
 * lacks: `elements`, `values`, `discriminator`, `mapping`,
 * `optionalProperties`, `ref`, a JTD-only `type` (`int32`, `float64`,
 * `timestamp`, …), or `properties` / `enum` without a `type` beside them.
 * Anything else is JSON Schema (draft-07, or 2020-12 when `$schema` says so).
 *
 * @example
 * ```ts
 * detectSchemaKind({ properties: { name: { type: "string" } } }); // "jtd"
 * detectSchemaKind({ type: "object", properties: {} });           // "json-schema"
 * const v = compileOutputSchema({ type: "object", required: ["a"] });
 * v.ok && v.value.validate({}); // { ok: false, errors: ["(root): must have required property 'a'"] }
 * ```
 *
 * @module
 */
import AjvImport from "ajv";
import Ajv2020Import from "ajv/dist/2020.js";
import AjvJtdImport from "ajv/dist/jtd.js";
import { isRecord } from "../formats/values.ts";
import { detectSchemaKind, kindName, type SchemaKind } from "./kind.ts";

export { detectSchemaKind, kindName, type SchemaKind };

/** A compiled schema. */
export interface OutputValidator {
  kind: SchemaKind;
  /** The schema as given (after JSON-string decoding). */
  schema: unknown;
  validate(data: unknown): { ok: true } | { ok: false; errors: string[] };
  /** Applied to submitted data before `validate` (undoes what a provider form added). */
  normalize?: (data: unknown) => unknown;
}

export type CompileResult = { ok: true; value: OutputValidator } | { ok: false; error: string };

// The default export of these CommonJS modules is the class under one
// runtime and a namespace holding it under another.
// deno-lint-ignore no-explicit-any
function ctor(mod: any): any {
  return typeof mod === "function" ? mod : mod.default;
}

interface AjvError {
  instancePath: string;
  message?: string;
  params?: Record<string, unknown>;
}

/** Formats Ajv errors as `path: message` lines, at most `max` of them. */
export function formatAjvErrors(
  errors: readonly AjvError[] | null | undefined,
  max = 20,
): string[] {
  const lines: string[] = [];
  for (const e of errors ?? []) {
    const path = e.instancePath === "" ? "(root)" : e.instancePath;
    let msg = e.message ?? "is invalid";
    if (e.params && typeof e.params.additionalProperty === "string") {
      msg += `: '${e.params.additionalProperty}'`;
    } else if (e.params && Array.isArray(e.params.allowedValues)) {
      msg += `: ${e.params.allowedValues.map((v) => JSON.stringify(v)).join(", ")}`;
    }
    const line = `${path}: ${msg}`;
    if (!lines.includes(line)) lines.push(line);
  }
  if (lines.length > max) {
    const more = lines.length - max;
    return [...lines.slice(0, max), `… and ${more} more`];
  }
  return lines;
}

/**
 * Decodes a schema given as a JSON string; anything else is returned as is.
 */
export function decodeSchema(schema: unknown): { ok: true; value: unknown } | {
  ok: false;
  error: string;
} {
  if (typeof schema !== "string") return { ok: true, value: schema };
  try {
    return { ok: true, value: JSON.parse(schema) };
  } catch (err) {
    return {
      ok: false,
      error: `output schema is a string but not JSON: ${
        err instanceof Error ? err.message : String(err)
      }`,
    };
  }
}

/**
 * Compiles an output schema (object or JSON string). A schema Ajv rejects is
 * an error value saying why.
 */
export function compileOutputSchema(schema: unknown): CompileResult {
  const decoded = decodeSchema(schema);
  if (!decoded.ok) return decoded;
  const value = decoded.value;
  if (typeof value !== "boolean" && !isRecord(value)) {
    return { ok: false, error: "output schema must be an object (JTD or JSON Schema)" };
  }
  const kind = detectSchemaKind(value);
  // deno-lint-ignore no-explicit-any
  let validate: any;
  try {
    if (kind === "jtd") {
      const Jtd = ctor(AjvJtdImport);
      validate = new Jtd({ allErrors: true }).compile(value);
    } else {
      const is2020 = isRecord(value) && typeof value.$schema === "string" &&
        value.$schema.includes("2020-12");
      const Klass = is2020 ? ctor(Ajv2020Import) : ctor(AjvImport);
      validate = new Klass({ allErrors: true, strict: false }).compile(value);
    }
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return { ok: false, error: `output schema is not a valid ${kindName(kind)}: ${reason}` };
  }
  return {
    ok: true,
    value: {
      kind,
      schema: value,
      validate(data: unknown) {
        if (validate(data)) return { ok: true };
        return { ok: false, errors: formatAjvErrors(validate.errors) };
      },
    },
  };
}
