/**
 * A scripted model that follows tool schemas: it answers only from what a
 * request offers, the way a schema-constrained model would.
 *
 * What this module decides:
 * - {@link minimalInstance}: a small value valid against a JSON Schema (the
 *   forms providers are sent: `$ref` into `$defs`/`definitions`, `anyOf`,
 *   `oneOf`, type lists, `enum`, `const`, bounds, `format: date-time`). Only
 *   required properties are filled; a nullable value is `null` (so a strict
 *   form's optional properties come back as `null`, as a constrained model
 *   may send them); arrays get one item, or `minItems`, below a depth limit.
 * - {@link offeredTool}: a tool's parameters as one request carries them, in
 *   each wire format.
 * - {@link schemaFollower}: a `respond` for the model server that calls
 *   `submit_result` with the minimal instance of its parameters.
 *
 * @module
 */
import type { RecordedRequest, Turn } from "./model-server.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

/** The schema a local `$ref` points to (`#`, or a JSON pointer from the root). */
function resolveRef(ref: string, root: Json): Json {
  if (!ref.startsWith("#")) throw new Error(`schema-instance: external $ref ${ref}`);
  let node = root;
  for (const raw of ref.slice(1).split("/").filter((p) => p !== "")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    node = node?.[key];
  }
  if (node === undefined) throw new Error(`schema-instance: unresolved $ref ${ref}`);
  return node;
}

const isNullOnly = (s: Json) => s && typeof s === "object" && s.type === "null";

/** A minimal value valid against `schema` (`root` resolves `$ref`s). */
export function minimalInstance(schema: Json, root: Json = schema, depth = 0): unknown {
  if (schema === true || schema === undefined || schema === null) return null;
  if (typeof schema.$ref === "string") {
    return minimalInstance(resolveRef(schema.$ref, root), root, depth + 1);
  }
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum.includes(null) ? null : schema.enum[0];
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alternatives)) {
    if (alternatives.some(isNullOnly)) return null;
    return minimalInstance(alternatives[0], root, depth + 1);
  }
  let type = schema.type;
  if (Array.isArray(type)) type = type.includes("null") ? "null" : type[0];
  if (schema.nullable === true) type = "null";
  if (type === undefined && schema.properties) type = "object";
  switch (type) {
    case "null":
      return null;
    case "boolean":
      return false;
    case "integer":
    case "number": {
      if (typeof schema.minimum === "number") return schema.minimum;
      if (typeof schema.exclusiveMinimum === "number") return schema.exclusiveMinimum + 1;
      if (typeof schema.maximum === "number" && schema.maximum < 0) return schema.maximum;
      return 0;
    }
    case "string":
      if (schema.format === "date-time") return "2026-12-01T00:00:00Z";
      return "x".repeat(Math.max(1, schema.minLength ?? 1));
    case "array": {
      const min = schema.minItems ?? 0;
      const n = depth < 6 ? Math.max(min, Math.min(1, schema.maxItems ?? 1)) : min;
      return Array.from({ length: n }, () => minimalInstance(schema.items, root, depth + 1));
    }
    case "object": {
      const out: Record<string, unknown> = {};
      for (const key of schema.required ?? []) {
        out[key] = minimalInstance(schema.properties?.[key], root, depth + 1);
      }
      return out;
    }
    default:
      return {}; // any value
  }
}

/** The parameters schema of tool `name` in a recorded request, per wire format. */
export function offeredTool(req: RecordedRequest, name: string): Json | undefined {
  const tools: Json[] = req.body?.tools ?? [];
  switch (req.format) {
    case "anthropic":
      return tools.find((t) => t.name === name)?.input_schema;
    case "openai":
      return tools.find((t) => t.function?.name === name)?.function.parameters;
    case "responses":
      return tools.find((t) => t.name === name)?.parameters;
    case "google": {
      const decls = tools.flatMap((t) => t.functionDeclarations ?? []);
      const d = decls.find((x: Json) => x.name === name);
      return d ? d.parametersJsonSchema ?? d.parameters : undefined;
    }
  }
}

/**
 * The tool a recorded request forces, or undefined for none. With thinking
 * on (budget or adaptive) Anthropic refuses a forced tool choice, so xcsh
 * sends `auto` with only that tool offered, which forces it just the same.
 */
export function forcedTool(req: RecordedRequest): string | undefined {
  const b = req.body ?? {};
  switch (req.format) {
    case "anthropic":
      if (b.tool_choice?.type === "tool") return b.tool_choice.name;
      return ["enabled", "adaptive"].includes(b.thinking?.type) && b.tools?.length === 1
        ? b.tools[0].name
        : undefined;
    case "openai":
      return b.tool_choice?.type === "function" ? b.tool_choice.function?.name : undefined;
    case "responses":
      return b.tool_choice?.type === "function" ? b.tool_choice.name : undefined;
    case "google": {
      const c = b.toolConfig?.functionCallingConfig;
      return c?.mode === "ANY" && c.allowedFunctionNames?.length === 1
        ? c.allowedFunctionNames[0]
        : undefined;
    }
  }
}

/** Calls `submit_result` with the minimal instance of the parameters it is offered. */
export function schemaFollower(req: RecordedRequest): Turn {
  const params = offeredTool(req, "submit_result");
  if (!params) throw new Error("schema-follower: the request offers no submit_result");
  return { toolCalls: [{ name: "submit_result", args: minimalInstance(params) }] };
}
