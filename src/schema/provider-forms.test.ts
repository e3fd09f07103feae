import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { dropAddedNulls, geminiForm, openAIForm, strictForm } from "./provider-forms.ts";
import { jtdToJsonSchema } from "./jtd-to-json-schema.ts";

/** Every object in `schema` (nested anywhere). */
function objects(schema: unknown, out: Record<string, unknown>[] = []) {
  if (Array.isArray(schema)) { for (const s of schema) objects(s, out); }
  else if (schema && typeof schema === "object") {
    const s = schema as Record<string, unknown>;
    if (s.properties) out.push(s);
    for (const v of Object.values(s)) objects(v, out);
  }
  return out;
}

describe("strictForm", () => {
  test("every property required, optional ones nullable, no extra keys", () => {
    const out = strictForm({
      type: "object",
      properties: {
        a: { type: "string", minLength: 1, format: "uri" },
        t: { type: "string", format: "date-time" },
        b: { type: "integer", minimum: 1 },
        c: { type: "string", enum: ["x", "y"] },
        d: { type: "array", items: { type: "object", properties: { e: { type: "boolean" } } } },
      },
      required: ["a"],
    });
    assert.deepEqual(out, {
      type: "object",
      properties: {
        a: { type: "string" },
        t: { type: ["string", "null"], format: "date-time" },
        b: { type: ["integer", "null"], minimum: 1 },
        c: { type: ["string", "null"], enum: ["x", "y", null] },
        d: {
          type: ["array", "null"],
          items: {
            type: "object",
            properties: { e: { type: ["boolean", "null"] } },
            required: ["e"],
            additionalProperties: false,
          },
        },
      },
      required: ["a", "t", "b", "c", "d"],
      additionalProperties: false,
    });
  });

  test("oneOf becomes anyOf; $ref and $defs stay references", () => {
    const out = strictForm({
      type: "object",
      properties: {
        v: { oneOf: [{ type: "string" }, { $ref: "#/$defs/n" }] },
      },
      required: ["v"],
      $defs: { n: { type: "object", properties: { n: { $ref: "#/$defs/n" } }, required: ["n"] } },
    });
    assert.deepEqual(out?.properties, {
      v: { anyOf: [{ type: "string" }, { $ref: "#/$defs/n" }] },
    });
    assert.deepEqual(out?.$defs, {
      n: {
        type: "object",
        properties: { n: { $ref: "#/$defs/n" } },
        required: ["n"],
        additionalProperties: false,
      },
    });
  });

  test("the bundled-style JSON Schema and converted JTD keep a strict form", () => {
    const jtd = jtdToJsonSchema({
      properties: { n: { type: "uint8" }, tags: { elements: { enum: ["a", "b"] } } },
      optionalProperties: { when: { type: "timestamp" } },
    });
    const out = strictForm(jtd);
    assert.ok(out);
    for (const o of objects(out)) {
      assert.equal(o.additionalProperties, false);
      assert.deepEqual(o.required, Object.keys(o.properties as object));
    }
  });

  test("schemas strict mode cannot express have no strict form", () => {
    const cases: unknown[] = [
      { type: "object" }, // open object
      { type: "object", properties: { a: {} } }, // a value of any type
      {
        type: "object",
        properties: { m: { type: "object", additionalProperties: { type: "string" } } },
      },
      { type: "object", properties: { a: { type: "string" } }, additionalProperties: true },
      { type: "object", properties: { a: { allOf: [{ type: "string" }] } } },
      { type: "object", properties: { a: { not: { type: "string" } } } },
      { type: "object", properties: { a: { type: "array" } } }, // no items
      { type: "object", properties: { a: { type: "string" } }, if: {} },
      { type: "object", properties: { next: { $ref: "#" } }, required: ["next"] },
      jtdToJsonSchema({ values: { type: "string" } }),
      jtdToJsonSchema({ properties: { a: {} } }),
      jtdToJsonSchema({ properties: { a: { type: "string" } }, additionalProperties: true }),
      "not a schema",
    ];
    for (const c of cases) assert.equal(strictForm(c), undefined, JSON.stringify(c));
  });
});

describe("dropAddedNulls", () => {
  const schema = {
    type: "object",
    properties: {
      a: { type: "string" },
      b: { type: ["string", "null"] },
      c: { type: "object", properties: { d: { type: "integer" } } },
      list: { type: "array", items: { $ref: "#/$defs/item" } },
    },
    required: ["a"],
    $defs: { item: { type: "object", properties: { x: { type: "string" } } } },
  };

  test("null for an optional property that does not allow null means absent", () => {
    assert.deepEqual(
      dropAddedNulls({ a: "1", b: null, c: { d: null }, list: [{ x: null }, { x: "y" }] }, schema),
      { a: "1", b: null, c: {}, list: [{}, { x: "y" }] },
    );
  });

  test("required properties and values of other shapes are left alone", () => {
    assert.deepEqual(dropAddedNulls({ a: null }, schema), { a: null });
    assert.deepEqual(dropAddedNulls("text", schema), "text");
    assert.deepEqual(dropAddedNulls({ a: "1", extra: null }, schema), { a: "1", extra: null });
  });

  test("tagged anyOf branches are followed by their const tag", () => {
    const tagged = jtdToJsonSchema({
      discriminator: "k",
      mapping: {
        a: { optionalProperties: { x: { type: "string" } } },
        b: { optionalProperties: { x: { type: "string", nullable: true } } },
      },
    });
    assert.deepEqual(dropAddedNulls({ k: "a", x: null }, tagged), { k: "a" });
    assert.deepEqual(dropAddedNulls({ k: "b", x: null }, tagged), { k: "b", x: null });
  });
});

describe("openAIForm", () => {
  test("propertyNames is dropped everywhere, a property of that name kept", () => {
    assert.deepEqual(
      openAIForm({
        type: "object",
        propertyNames: { pattern: "^a" },
        properties: { propertyNames: { type: "object", propertyNames: { maxLength: 2 } } },
        anyOf: [{ propertyNames: { enum: ["a"] } }],
      }),
      {
        type: "object",
        properties: { propertyNames: { type: "object" } },
        anyOf: [{}],
      },
    );
  });
});

describe("geminiForm", () => {
  test("refs are inlined and keywords outside the subset dropped", () => {
    const out = geminiForm({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        p: { $ref: "#/$defs/point" },
        s: { type: "string", minLength: 1, pattern: "^a", format: "uri", default: "a" },
        t: { type: "string", format: "date-time" },
      },
      required: ["p"],
      additionalProperties: false,
      $defs: { point: { type: "object", properties: { x: { type: "number", minimum: 0 } } } },
    });
    assert.deepEqual(out, {
      type: "object",
      properties: {
        p: { type: "object", properties: { x: { type: "number", minimum: 0 } } },
        s: { type: "string" },
        t: { type: "string", format: "date-time" },
      },
      required: ["p"],
    });
  });

  test("null is an anyOf branch; type lists are anyOf; const is an enum; oneOf is anyOf", () => {
    const orNull = (s: object) => ({ anyOf: [s, { type: "null" }] });
    assert.deepEqual(geminiForm({ type: ["string", "null"] }), orNull({ type: "string" }));
    assert.deepEqual(
      geminiForm({ type: ["string", "null"], enum: ["a", null] }),
      orNull({
        type: "string",
        enum: ["a"],
      }),
    );
    assert.deepEqual(geminiForm({ type: ["string", "integer", "null"], description: "d" }), {
      description: "d",
      anyOf: [{ type: "string" }, { type: "integer" }, { type: "null" }],
    });
    assert.deepEqual(geminiForm({ type: "null" }), { type: "null" });
    assert.deepEqual(geminiForm({ type: "string", const: "k" }), { type: "string", enum: ["k"] });
    assert.deepEqual(geminiForm({ type: "integer", enum: [1, 2] }), {
      type: "integer",
      enum: [1, 2],
    });
    assert.deepEqual(geminiForm({ enum: [true, "a"] }), {});
    assert.deepEqual(
      geminiForm({ anyOf: [{ type: "string" }, { type: "null" }] }),
      orNull({ type: "string" }),
    );
    assert.deepEqual(geminiForm({ oneOf: [{ type: "string" }, { type: "number" }] }), {
      anyOf: [{ type: "string" }, { type: "number" }],
    });
  });

  test("a recursive reference becomes an open value naming it, one level down", () => {
    const jtd = jtdToJsonSchema({
      definitions: {
        node: {
          properties: { name: { type: "string" } },
          optionalProperties: { children: { elements: { ref: "node" } } },
        },
      },
      ref: "node",
    });
    const out = geminiForm(jtd) as { properties: { children: { items: unknown } } };
    assert.deepEqual(out.properties.children.items, {
      description: "Any value (a recursive use of the output schema's definition 'node'; see " +
        "the schema in the system prompt).",
    });
    assert.ok(!JSON.stringify(out).includes("$ref"), "no $ref is left");
  });
});

describe("strictForm within OpenAI's size limits", () => {
  const nested = (levels: number): Record<string, unknown> =>
    levels === 0 ? { type: "string" } : {
      type: "object",
      properties: { a: nested(levels - 1) },
      required: ["a"],
    };
  test("ten levels of objects have a strict form, eleven do not", () => {
    assert.ok(strictForm(nested(10)));
    assert.equal(strictForm(nested(11)), undefined);
  });
  test("more than 1000 enum values have none", () => {
    const values = (n: number) => Array.from({ length: n }, (_, i) => `v${i}`);
    const schema = (n: number) => ({
      type: "object",
      properties: { e: { type: "string", enum: values(n) } },
      required: ["e"],
    });
    assert.ok(strictForm(schema(1000)));
    assert.equal(strictForm(schema(1001)), undefined);
  });
});
