/**
 * Which dialect an output schema is written in, and what to call it.
 *
 * A schema is JTD (RFC 8927) when it uses a form JSON Schema lacks:
 * `elements`, `values`, `discriminator`, `mapping`, `optionalProperties`,
 * `ref`, a JTD-only `type` (`int32`, `float64`, `timestamp`, …), or
 * `properties` / `enum` without a `type` beside them. Anything else is JSON
 * Schema. Kept apart from the validator so that naming a dialect (the child's
 * prompt does) does not load Ajv.
 *
 * @example
 * ```ts
 * detectSchemaKind({ properties: { name: { type: "string" } } }); // "jtd"
 * kindName("json-schema"); // "JSON Schema"
 * ```
 *
 * @module
 */
import { isRecord } from "../formats/values.ts";

/** The dialect of an output schema. */
export type SchemaKind = "jtd" | "json-schema";

const JTD_ONLY_KEYS = [
  "elements",
  "values",
  "discriminator",
  "mapping",
  "optionalProperties",
  "ref",
] as const;

const JTD_ONLY_TYPES = new Set([
  "timestamp",
  "float32",
  "float64",
  "int8",
  "uint8",
  "int16",
  "uint16",
  "int32",
  "uint32",
]);

/**
 * Classifies a schema by its top-level form. Pure.
 */
export function detectSchemaKind(schema: unknown): SchemaKind {
  if (!isRecord(schema)) return "json-schema";
  if (typeof schema.$schema === "string" || typeof schema.$ref === "string") return "json-schema";
  for (const key of JTD_ONLY_KEYS) if (key in schema) return "jtd";
  if (typeof schema.type === "string" && JTD_ONLY_TYPES.has(schema.type)) return "jtd";
  if ("type" in schema) return "json-schema";
  if ("properties" in schema || "enum" in schema) return "jtd";
  return "json-schema";
}

/** A human name for a schema dialect. */
export function kindName(kind: SchemaKind): string {
  return kind === "jtd" ? "JTD schema" : "JSON Schema";
}
