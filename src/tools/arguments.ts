/**
 * Checks a tool call's arguments against the tool's own input schema.
 *
 * The tools' schemas are ours and use a small part of JSON Schema: `type`,
 * `properties`, `required`, `additionalProperties: false`, `items`, `enum`,
 * the length, item-count and range bounds, and `description`. This module
 * checks exactly that part, with Ajv's wording, and refuses a schema using
 * anything else (a test runs it over every tool's schema and compares it with
 * Ajv on generated arguments). A general validator would cost every child
 * about 30 ms the first time it compiles a schema; this costs microseconds.
 *
 * @example
 * ```ts
 * checkArguments({ type: "object", properties: { path: { type: "string" } }, required: ["path"] }, {});
 * // ["(root): must have required property 'path'"]
 * ```
 *
 * @module
 */
import { isRecord } from "../formats/values.ts";

/** The keywords {@link checkArguments} understands. */
export const SUPPORTED_KEYWORDS: ReadonlySet<string> = new Set([
  "type",
  "description",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
]);

type Schema = Record<string, unknown>;

function typeOk(type: unknown, v: unknown): boolean {
  switch (type) {
    case "object":
      return isRecord(v);
    case "array":
      return Array.isArray(v);
    case "string":
      return typeof v === "string";
    case "number":
      return typeof v === "number" && Number.isFinite(v);
    case "integer":
      return typeof v === "number" && Number.isInteger(v);
    case "boolean":
      return typeof v === "boolean";
    case "null":
      return v === null;
    default:
      throw new Error(`unsupported type ${JSON.stringify(type)} in a tool schema`);
  }
}

/** Length in code points, as JSON Schema counts it. */
function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

function pointer(path: string, key: string): string {
  return `${path}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
}

function sameJson(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

function check(schema: Schema, v: unknown, path: string, out: string[]): void {
  for (const k of Object.keys(schema)) {
    if (!SUPPORTED_KEYWORDS.has(k)) throw new Error(`unsupported keyword '${k}' in a tool schema`);
  }
  const at = path === "" ? "(root)" : path;
  if (schema.type !== undefined && !typeOk(schema.type, v)) {
    out.push(`${at}: must be ${schema.type}`);
    return;
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => sameJson(e, v))) {
    out.push(
      `${at}: must be equal to one of the allowed values: ${
        schema.enum.map((e) => JSON.stringify(e)).join(", ")
      }`,
    );
  }
  if (typeof v === "string") {
    const n = typeof schema.minLength === "number" || typeof schema.maxLength === "number"
      ? codePoints(v)
      : 0;
    if (typeof schema.minLength === "number" && n < schema.minLength) {
      out.push(`${at}: must NOT have fewer than ${schema.minLength} characters`);
    }
    if (typeof schema.maxLength === "number" && n > schema.maxLength) {
      out.push(`${at}: must NOT have more than ${schema.maxLength} characters`);
    }
  } else if (typeof v === "number") {
    if (typeof schema.minimum === "number" && v < schema.minimum) {
      out.push(`${at}: must be >= ${schema.minimum}`);
    }
    if (typeof schema.maximum === "number" && v > schema.maximum) {
      out.push(`${at}: must be <= ${schema.maximum}`);
    }
    if (typeof schema.exclusiveMinimum === "number" && v <= schema.exclusiveMinimum) {
      out.push(`${at}: must be > ${schema.exclusiveMinimum}`);
    }
    if (typeof schema.exclusiveMaximum === "number" && v >= schema.exclusiveMaximum) {
      out.push(`${at}: must be < ${schema.exclusiveMaximum}`);
    }
  } else if (Array.isArray(v)) {
    if (typeof schema.minItems === "number" && v.length < schema.minItems) {
      out.push(`${at}: must NOT have fewer than ${schema.minItems} items`);
    }
    if (typeof schema.maxItems === "number" && v.length > schema.maxItems) {
      out.push(`${at}: must NOT have more than ${schema.maxItems} items`);
    }
    if (isRecord(schema.items)) {
      v.forEach((item, i) => check(schema.items as Schema, item, `${path}/${i}`, out));
    }
  } else if (isRecord(v)) {
    const props = isRecord(schema.properties) ? schema.properties : {};
    for (const name of Array.isArray(schema.required) ? schema.required : []) {
      if (typeof name === "string" && v[name] === undefined) {
        out.push(`${at}: must have required property '${name}'`);
      }
    }
    if (schema.additionalProperties === false) {
      for (const key of Object.keys(v)) {
        if (!Object.hasOwn(props, key)) {
          out.push(`${at}: must NOT have additional properties: '${key}'`);
        }
      }
    } else if (schema.additionalProperties !== undefined) {
      throw new Error("only 'additionalProperties: false' is supported in a tool schema");
    }
    for (const [key, sub] of Object.entries(props)) {
      if (Object.hasOwn(v, key) && v[key] !== undefined && isRecord(sub)) {
        check(sub, v[key], pointer(path, key), out);
      }
    }
  }
}

/**
 * The problems with `args` under `schema`, one `path: message` line each;
 * empty when the arguments are valid. Throws only for a schema using a
 * keyword outside {@link SUPPORTED_KEYWORDS} (a bug in a tool, not in input).
 */
export function checkArguments(schema: Schema, args: unknown): string[] {
  const out: string[] = [];
  check(schema, args, "", out);
  return out;
}
