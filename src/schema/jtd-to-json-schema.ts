/**
 * What a JTD schema (RFC 8927) means as JSON Schema, so a model that only
 * reads tool schemas sees the shape its result must have.
 *
 * Every JTD form maps to the JSON Schema accepting the same values:
 * empty → `{}`; `type` → JSON types (`timestamp` a date-time string, integer
 * widths as `integer` with their bounds, floats as `number`); `enum` → string
 * enum; `elements` → array; `properties` / `optionalProperties` → object with
 * `required` and `additionalProperties: false` unless the schema allows extra
 * keys; `values` → object whose values match; `discriminator` / `mapping` →
 * `anyOf` of objects whose tag property is a `const`; `ref` / `definitions` →
 * `$ref` into `$defs`; `nullable` → the type list or `anyOf` gains `null`.
 * `metadata.description` becomes `description`. Pure; the input is assumed to
 * be valid JTD (Ajv has compiled it before this runs).
 *
 * @example
 * ```ts
 * jtdToJsonSchema({ properties: { n: { type: "uint8" } }, optionalProperties: { s: { type: "string" } } });
 * // { type: "object", properties: { n: { type: "integer", minimum: 0, maximum: 255 },
 * //   s: { type: "string" } }, required: ["n"], additionalProperties: false }
 * ```
 *
 * @module
 */
import { isRecord } from "../formats/values.ts";

type Schema = Record<string, unknown>;

const INTEGER_RANGES: Readonly<Record<string, [number, number]>> = {
  int8: [-128, 127],
  uint8: [0, 255],
  int16: [-32768, 32767],
  uint16: [0, 65535],
  int32: [-2147483648, 2147483647],
  uint32: [0, 4294967295],
};

/** The JSON Schema of a JTD `type`. */
function typeSchema(type: string): Schema {
  if (type in INTEGER_RANGES) {
    const [minimum, maximum] = INTEGER_RANGES[type];
    return { type: "integer", minimum, maximum };
  }
  switch (type) {
    case "boolean":
      return { type: "boolean" };
    case "string":
      return { type: "string" };
    case "timestamp":
      return { type: "string", format: "date-time" };
    default: // float32, float64
      return { type: "number" };
  }
}

/** Properties of an object form (also the body of each discriminator mapping). */
function objectSchema(jtd: Schema, extra?: { tag: string; value: string }): Schema {
  const properties: Schema = {};
  const required: string[] = [];
  if (extra) {
    properties[extra.tag] = { type: "string", const: extra.value };
    required.push(extra.tag);
  }
  for (const [k, v] of Object.entries(isRecord(jtd.properties) ? jtd.properties : {})) {
    properties[k] = convert(v);
    required.push(k);
  }
  for (
    const [k, v] of Object.entries(isRecord(jtd.optionalProperties) ? jtd.optionalProperties : {})
  ) {
    properties[k] = convert(v);
  }
  return {
    type: "object",
    properties,
    required,
    additionalProperties: jtd.additionalProperties === true,
  };
}

/** `schema` also accepting `null`. */
function withNull(schema: Schema): Schema {
  if (Object.keys(schema).length === 0) return schema; // `{}` accepts null already
  if (typeof schema.type === "string" && !("anyOf" in schema) && !("$ref" in schema)) {
    const out: Schema = { ...schema, type: [schema.type, "null"] };
    if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null];
    return out;
  }
  const { description, ...rest } = schema;
  return {
    ...(description !== undefined ? { description } : {}),
    anyOf: [rest, { type: "null" }],
  };
}

function convert(node: unknown): Schema {
  if (!isRecord(node)) return {};
  let out: Schema;
  if (typeof node.ref === "string") out = { $ref: `#/$defs/${node.ref}` };
  else if (typeof node.type === "string") out = typeSchema(node.type);
  else if (Array.isArray(node.enum)) out = { type: "string", enum: [...node.enum] };
  else if ("elements" in node) out = { type: "array", items: convert(node.elements) };
  else if ("values" in node) out = { type: "object", additionalProperties: convert(node.values) };
  else if (typeof node.discriminator === "string" && isRecord(node.mapping)) {
    const tag = node.discriminator;
    out = {
      anyOf: Object.entries(node.mapping).map(([value, body]) =>
        objectSchema(isRecord(body) ? body : {}, { tag, value })
      ),
    };
  } else if ("properties" in node || "optionalProperties" in node) out = objectSchema(node);
  else out = {};
  const meta = isRecord(node.metadata) ? node.metadata : undefined;
  if (meta && typeof meta.description === "string") out = { description: meta.description, ...out };
  return node.nullable === true ? withNull(out) : out;
}

/** The JSON Schema (draft 2020-12 vocabulary) accepting what `jtd` accepts. */
export function jtdToJsonSchema(jtd: unknown): Schema {
  const root = convert(jtd);
  if (!isRecord(jtd) || !isRecord(jtd.definitions)) return root;
  const defs: Schema = {};
  for (const [name, def] of Object.entries(jtd.definitions)) defs[name] = convert(def);
  return { ...root, $defs: defs };
}
