/**
 * Which form of a JSON Schema each provider is sent as tool parameters, so no
 * provider refuses the request and a model that follows tool schemas
 * produces a valid result.
 *
 * - {@link strictForm}: OpenAI's strict tool schemas. Every object lists all
 *   its properties in `required` and has `additionalProperties: false`; a
 *   property that was optional becomes nullable (a `null` there means absent:
 *   {@link dropAddedNulls} removes it before validation). Keywords strict mode
 *   refuses but that only narrow a value (`minLength`, `maxLength`, string
 *   formats other than the ones it knows, …) are left out; `oneOf` becomes
 *   `anyOf`. A schema that strict mode cannot
 *   express (an open object or map, a value of any type, `allOf`, `not`,
 *   conditionals, `patternProperties`, an array without `items`) has no strict
 *   form: the tool is then sent non-strict.
 * - {@link geminiForm}: Gemini's JSON Schema subset (what its
 *   `parametersJsonSchema` takes, the field the Google provider sends).
 *   `$ref`s are inlined; a recursive reference, which cannot be inlined,
 *   becomes a value of any type whose description names the reference (the
 *   full schema is in the system prompt and the result is still validated
 *   against it), so the request is never refused for it. A type list becomes
 *   `anyOf` of single types, and a value that may be `null` (a type list, an
 *   enum or an `anyOf` naming it) `anyOf: [<the rest>, {type: "null"}]`;
 *   `oneOf` becomes `anyOf`; `const` becomes a one-value enum; enums keep
 *   only string and number values (one holding anything else is dropped);
 *   `additionalProperties`, tuples and every other keyword outside the subset
 *   are dropped.
 * - {@link openAIForm}: OpenAI's non-strict form, without `propertyNames`.
 * Whatever is sent, results are validated against the original schema. Pure.
 *
 * @example
 * ```ts
 * strictForm({ type: "object", properties: { a: { type: "string" } } });
 * // { type: "object", properties: { a: { type: ["string", "null"] } },
 * //   required: ["a"], additionalProperties: false }
 * strictForm({ type: "object" }); // undefined: an open object has no strict form
 * ```
 *
 * @module
 */
import { isRecord } from "../formats/values.ts";

type Schema = Record<string, unknown>;

/** Keywords strict mode takes besides the structural ones handled below. */
const STRICT_KEEP = new Set([
  "type",
  "description",
  "title",
  "enum",
  "const",
  "pattern",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
]);
/** String formats strict mode takes; others are left out. */
const STRICT_FORMATS = new Set([
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "uuid",
]);
/** Keywords whose meaning strict mode cannot express. */
const STRICT_REFUSE = ["allOf", "not", "if", "then", "else", "patternProperties", "prefixItems"];

class NoStrictForm extends Error {}

/** `schema` also accepting null. */
function nullable(schema: Schema): Schema {
  const type = schema.type;
  if (typeof type === "string" && type !== "null") {
    const out: Schema = { ...schema, type: [type, "null"] };
    if (Array.isArray(schema.enum) && !schema.enum.includes(null)) {
      out.enum = [...schema.enum, null];
    }
    return out;
  }
  if (Array.isArray(type)) {
    if (type.includes("null")) return schema;
    const out: Schema = { ...schema, type: [...type, "null"] };
    if (Array.isArray(schema.enum) && !schema.enum.includes(null)) {
      out.enum = [...schema.enum, null];
    }
    return out;
  }
  return { anyOf: [schema, { type: "null" }] };
}

function strictNode(node: unknown): Schema {
  if (!isRecord(node)) throw new NoStrictForm();
  for (const k of STRICT_REFUSE) if (k in node) throw new NoStrictForm();
  if (typeof node.$ref === "string") {
    // Strict mode resolves references into the definitions; other pointers go non-strict.
    if (!/^#\/(\$defs|definitions)\//.test(node.$ref)) throw new NoStrictForm();
    const out: Schema = { $ref: node.$ref };
    if (typeof node.description === "string") out.description = node.description;
    return out;
  }
  const out: Schema = {};
  for (const [k, v] of Object.entries(node)) if (STRICT_KEEP.has(k)) out[k] = v;
  if (typeof node.format === "string" && STRICT_FORMATS.has(node.format)) out.format = node.format;
  const alternatives = node.anyOf ?? node.oneOf;
  if (Array.isArray(alternatives)) out.anyOf = alternatives.map(strictNode);
  const types = Array.isArray(node.type) ? node.type : [node.type];
  const isObject = types.includes("object") || (node.type === undefined && "properties" in node);
  if (isObject) {
    const props = isRecord(node.properties) ? node.properties : {};
    if (Object.keys(props).length === 0) throw new NoStrictForm(); // an open object or a map
    if (node.additionalProperties !== undefined && node.additionalProperties !== false) {
      throw new NoStrictForm();
    }
    const required = Array.isArray(node.required) ? node.required : [];
    const properties: Schema = {};
    for (const [k, v] of Object.entries(props)) {
      const s = strictNode(v);
      properties[k] = required.includes(k) ? s : nullable(s);
    }
    out.type = node.type ?? "object";
    out.properties = properties;
    out.required = Object.keys(props);
    out.additionalProperties = false;
  }
  if (types.includes("array")) {
    if (!isRecord(node.items)) throw new NoStrictForm();
    out.items = strictNode(node.items);
  }
  if (out.type === undefined && out.anyOf === undefined && out.enum === undefined) {
    if (out.const === undefined) throw new NoStrictForm(); // a value of any type
  }
  return out;
}

/**
 * Whether a strict schema keeps to OpenAI's size limits: at most 5000
 * object properties in all, 10 levels of object nesting, 1000 enum values.
 */
function withinStrictLimits(schema: Schema): boolean {
  let properties = 0;
  let enums = 0;
  let deepest = 0;
  const walk = (node: unknown, depth: number): void => {
    if (Array.isArray(node)) return node.forEach((n) => walk(n, depth));
    if (!isRecord(node)) return;
    if (Array.isArray(node.enum)) enums += node.enum.length;
    const props = isRecord(node.properties) ? node.properties : undefined;
    const level = props ? depth + 1 : depth;
    deepest = Math.max(deepest, level);
    if (props) properties += Object.keys(props).length;
    for (const [k, v] of Object.entries(node)) {
      if (k === "properties" && props) Object.values(props).forEach((p) => walk(p, level));
      else if (k !== "enum" && k !== "const") walk(v, level);
    }
  };
  walk(schema, 0);
  return properties <= 5000 && deepest <= 10 && enums <= 1000;
}

/**
 * The strict form of a JSON Schema whose root is an object, or undefined
 * when strict mode cannot express it (or it passes OpenAI's size limits). `$defs` / `definitions` are converted
 * too; `$ref`s stay references.
 */
export function strictForm(schema: unknown): Schema | undefined {
  try {
    const out = strictNode(schema);
    for (const key of ["$defs", "definitions"]) {
      const defs = isRecord(schema) ? schema[key] : undefined;
      if (!isRecord(defs)) continue;
      const converted: Schema = {};
      for (const [name, def] of Object.entries(defs)) converted[name] = strictNode(def);
      out[key] = converted;
    }
    return withinStrictLimits(out) ? out : undefined;
  } catch (err) {
    if (err instanceof NoStrictForm) return undefined;
    throw err;
  }
}

/**
 * OpenAI's non-strict form: the schema without `propertyNames`, which the
 * OpenAI provider refuses outright unless it is a plain string schema (and
 * drops otherwise).
 */
export function openAIForm(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(openAIForm);
  if (!isRecord(schema)) return schema;
  const out: Schema = {};
  for (const [k, v] of Object.entries(schema)) {
    // Under `properties` a key is a property name, not a keyword.
    if (k === "properties" && isRecord(v)) {
      out[k] = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, openAIForm(s)]));
    } else if (k !== "propertyNames") out[k] = openAIForm(v);
  }
  return out;
}

/** The schema a local `$ref` (`#`, or a JSON pointer such as `#/$defs/x`) points to. */
function refTarget(ref: string, root: Schema): Schema | undefined {
  if (ref !== "#" && !ref.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split("/").filter((p) => p !== "")) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    node = Array.isArray(node) ? node[Number(key)] : isRecord(node) ? node[key] : undefined;
  }
  return isRecord(node) ? node : undefined;
}

/**
 * Removes the `null`s a model sent for optional properties that the strict
 * form made nullable (the original schema does not allow null there): a
 * property left out. Walks `data` along `schema` (the original); returns a copy.
 */
export function dropAddedNulls(data: unknown, schema: unknown, root: unknown = schema): unknown {
  if (!isRecord(schema) || !isRecord(root)) return data;
  if (typeof schema.$ref === "string") {
    const target = refTarget(schema.$ref, root);
    return target ? dropAddedNulls(data, target, root) : data;
  }
  if (Array.isArray(data)) {
    return isRecord(schema.items) ? data.map((d) => dropAddedNulls(d, schema.items, root)) : data;
  }
  if (!isRecord(data)) return data;
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alternatives)) {
    // The branch whose `const` properties the data matches, else the first object branch.
    const branch = alternatives.find((b) =>
      isRecord(b) && isRecord(b.properties) &&
      Object.entries(b.properties).every(([k, p]) =>
        !isRecord(p) || p.const === undefined || data[k] === p.const
      )
    );
    return branch ? dropAddedNulls(data, branch, root) : data;
  }
  if (!isRecord(schema.properties)) return data;
  const required = Array.isArray(schema.required) ? schema.required : [];
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) {
    const prop = schema.properties[k];
    if (v === null && prop !== undefined && !required.includes(k) && !allowsNull(prop, root)) {
      continue;
    }
    out[k] = prop === undefined ? v : dropAddedNulls(v, prop, root);
  }
  return out;
}

function allowsNull(schema: unknown, root: Schema, depth = 0): boolean {
  if (schema === true || !isRecord(schema) || depth > 20) return true;
  if (typeof schema.$ref === "string") {
    const target = refTarget(schema.$ref, root);
    return target ? allowsNull(target, root, depth + 1) : true;
  }
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alternatives)) return alternatives.some((a) => allowsNull(a, root, depth + 1));
  if (Array.isArray(schema.enum)) return schema.enum.includes(null);
  if ("const" in schema) return schema.const === null;
  if (schema.type === undefined) return true;
  return schema.type === "null" || (Array.isArray(schema.type) && schema.type.includes("null"));
}

/** Keywords Gemini's function-declaration schemas take. */
const GEMINI_KEEP = new Set([
  "type",
  "title",
  "description",
  "minItems",
  "maxItems",
  "minimum",
  "maximum",
  "required",
  "propertyOrdering",
]);

/** `schema` (Gemini's form) also accepting null, as `anyOf` with a null branch. */
function orNull(schema: Schema): Schema {
  const { description, ...rest } = schema;
  const desc = typeof description === "string" ? { description } : {};
  if (Object.keys(rest).length === 0) return { ...desc, type: "null" };
  const alternatives = Object.keys(rest).length === 1 && Array.isArray(rest.anyOf)
    ? rest.anyOf
    : [rest];
  return { ...desc, anyOf: [...alternatives, { type: "null" }] };
}

/** Gemini's form of a schema: `$ref`s inlined, unknown keywords dropped. */
export function geminiForm(schema: unknown): Schema {
  const root = isRecord(schema) ? schema : {};
  const walk = (node: unknown, expanding: readonly string[]): Schema => {
    if (!isRecord(node)) return {};
    if (typeof node.$ref === "string") {
      const ref = node.$ref;
      const target = refTarget(ref, root);
      if (!target || expanding.includes(ref)) {
        const m = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(ref);
        const part = m ? `the output schema's definition '${m[1]}'` : "an enclosing part of the " +
          "output schema";
        const why = target ? "a recursive use of" : "an unresolved reference to";
        return {
          description: `Any value (${why} ${part}; see the schema in the system prompt).`,
        };
      }
      const inlined = walk(target, [...expanding, ref]);
      return typeof node.description === "string"
        ? { ...inlined, description: node.description }
        : inlined;
    }
    const out: Schema = {};
    let nullable = false;
    for (const [k, v] of Object.entries(node)) if (GEMINI_KEEP.has(k)) out[k] = v;
    if (Array.isArray(node.type)) {
      const types = node.type.filter((t) => t !== "null");
      nullable = types.length < node.type.length;
      delete out.type;
      if (types.length === 1) out.type = types[0];
      else if (types.length > 1) out.anyOf = types.map((type) => ({ type }));
    }
    if (node.type === "null") {
      delete out.type;
      nullable = true;
    }
    if (node.format === "date-time") out.format = node.format;
    const values = Array.isArray(node.enum) ? node.enum : "const" in node ? [node.const] : [];
    if (values.includes(null)) nullable = true;
    const kept = values.filter((v) => v !== null);
    if (kept.length > 0 && kept.every((v) => typeof v === "string" || typeof v === "number")) {
      out.enum = kept;
    }
    const alternatives = node.anyOf ?? node.oneOf;
    if (Array.isArray(alternatives)) {
      const isNull = (a: unknown) =>
        isRecord(a) && a.type === "null" && Object.keys(a).length === 1;
      if (alternatives.some(isNull)) nullable = true;
      const rest = alternatives.filter((a) => !isNull(a)).map((a) => walk(a, expanding));
      if (rest.length === 1 && out.anyOf === undefined) Object.assign(out, rest[0]);
      else if (rest.length > 0) out.anyOf = rest;
    }
    if (isRecord(node.properties)) {
      const props: Schema = {};
      for (const [k, v] of Object.entries(node.properties)) props[k] = walk(v, expanding);
      out.properties = props;
    }
    if (isRecord(node.items)) out.items = walk(node.items, expanding);
    return nullable ? orNull(out) : out;
  };
  return walk(root, []);
}
