import { describe, test } from "node:test";
import assert from "node:assert/strict";
import Ajv2020Import from "ajv/dist/2020.js";
import { compileOutputSchema } from "./output-schema.ts";
import { jtdToJsonSchema } from "./jtd-to-json-schema.ts";

// deno-lint-ignore no-explicit-any
const Ajv2020: any = typeof Ajv2020Import === "function" ? Ajv2020Import : (Ajv2020Import as any)
  .default;

/** JTD (through the validator xcsh uses) and the converted JSON Schema agree on each value. */
function agrees(jtd: unknown, values: unknown[]) {
  const original = compileOutputSchema(jtd);
  assert.ok(original.ok, "the JTD schema compiles");
  const converted = new Ajv2020({ strict: false }).compile(jtdToJsonSchema(jtd));
  for (const v of values) {
    assert.equal(
      converted(v),
      original.value.validate(v).ok,
      `${JSON.stringify(v)} against ${JSON.stringify(jtd)}`,
    );
  }
}

describe("jtdToJsonSchema", () => {
  test("empty form accepts anything", () => {
    assert.deepEqual(jtdToJsonSchema({}), {});
    agrees({}, [1, "a", null, { a: [] }]);
  });

  test("type: boolean, string, floats", () => {
    assert.deepEqual(jtdToJsonSchema({ type: "boolean" }), { type: "boolean" });
    assert.deepEqual(jtdToJsonSchema({ type: "string" }), { type: "string" });
    assert.deepEqual(jtdToJsonSchema({ type: "float32" }), { type: "number" });
    assert.deepEqual(jtdToJsonSchema({ type: "float64" }), { type: "number" });
    agrees({ type: "float64" }, [1, 1.5, "1", null]);
  });

  test("type: timestamp is a date-time string", () => {
    assert.deepEqual(jtdToJsonSchema({ type: "timestamp" }), {
      type: "string",
      format: "date-time",
    });
  });

  test("type: integer widths keep their bounds", () => {
    const cases: Array<[string, number, number]> = [
      ["int8", -128, 127],
      ["uint8", 0, 255],
      ["int16", -32768, 32767],
      ["uint16", 0, 65535],
      ["int32", -2147483648, 2147483647],
      ["uint32", 0, 4294967295],
    ];
    for (const [type, minimum, maximum] of cases) {
      assert.deepEqual(jtdToJsonSchema({ type }), { type: "integer", minimum, maximum });
      agrees({ type }, [minimum, maximum, minimum - 1, maximum + 1, 1.5, "1"]);
    }
  });

  test("enum is a string enum", () => {
    assert.deepEqual(jtdToJsonSchema({ enum: ["a", "b"] }), { type: "string", enum: ["a", "b"] });
    agrees({ enum: ["a", "b"] }, ["a", "c", 1]);
  });

  test("elements is an array", () => {
    assert.deepEqual(jtdToJsonSchema({ elements: { type: "string" } }), {
      type: "array",
      items: { type: "string" },
    });
    agrees({ elements: { type: "uint8" } }, [[], [1, 2], [1, -1], "x"]);
  });

  test("properties, optionalProperties and additionalProperties", () => {
    const jtd = {
      properties: { n: { type: "uint8" } },
      optionalProperties: { s: { type: "string" } },
    };
    assert.deepEqual(jtdToJsonSchema(jtd), {
      type: "object",
      properties: { n: { type: "integer", minimum: 0, maximum: 255 }, s: { type: "string" } },
      required: ["n"],
      additionalProperties: false,
    });
    agrees(jtd, [{ n: 1 }, { n: 1, s: "x" }, { s: "x" }, { n: 1, extra: 1 }, { n: 1, s: 2 }]);
    const open = { ...jtd, additionalProperties: true };
    assert.equal(jtdToJsonSchema(open).additionalProperties, true);
    agrees(open, [{ n: 1, extra: 1 }]);
    assert.deepEqual(jtdToJsonSchema({ optionalProperties: {} }), {
      type: "object",
      properties: {},
      required: [],
      additionalProperties: false,
    });
  });

  test("values is a map", () => {
    assert.deepEqual(jtdToJsonSchema({ values: { type: "boolean" } }), {
      type: "object",
      additionalProperties: { type: "boolean" },
    });
    agrees({ values: { type: "boolean" } }, [{}, { a: true }, { a: 1 }, []]);
  });

  test("discriminator and mapping become tagged anyOf branches", () => {
    const jtd = {
      discriminator: "kind",
      mapping: {
        circle: { properties: { r: { type: "float64" } } },
        square: { properties: { side: { type: "float64" } }, optionalProperties: {} },
      },
    };
    const out = jtdToJsonSchema(jtd);
    assert.deepEqual(out.anyOf, [
      {
        type: "object",
        properties: { kind: { type: "string", const: "circle" }, r: { type: "number" } },
        required: ["kind", "r"],
        additionalProperties: false,
      },
      {
        type: "object",
        properties: { kind: { type: "string", const: "square" }, side: { type: "number" } },
        required: ["kind", "side"],
        additionalProperties: false,
      },
    ]);
    agrees(jtd, [
      { kind: "circle", r: 1 },
      { kind: "square", side: 2 },
      { kind: "circle", side: 2 },
      { kind: "oval", r: 1 },
      { r: 1 },
    ]);
  });

  test("ref and definitions become $ref and $defs, recursion included", () => {
    const jtd = {
      definitions: {
        node: {
          properties: { name: { type: "string" } },
          optionalProperties: { children: { elements: { ref: "node" } } },
        },
      },
      ref: "node",
    };
    const out = jtdToJsonSchema(jtd);
    assert.equal(out.$ref, "#/$defs/node");
    assert.deepEqual(Object.keys(out.$defs as object), ["node"]);
    agrees(jtd, [
      { name: "a" },
      { name: "a", children: [{ name: "b", children: [] }] },
      { name: "a", children: [{ nom: "b" }] },
    ]);
  });

  test("nullable adds null to each form", () => {
    assert.deepEqual(jtdToJsonSchema({ type: "string", nullable: true }), {
      type: ["string", "null"],
    });
    assert.deepEqual(jtdToJsonSchema({ enum: ["a"], nullable: true }), {
      type: ["string", "null"],
      enum: ["a", null],
    });
    const ref = jtdToJsonSchema({
      definitions: { a: { type: "string" } },
      ref: "a",
      nullable: true,
    });
    assert.deepEqual(ref.anyOf, [{ $ref: "#/$defs/a" }, { type: "null" }]);
    agrees({ type: "string", nullable: true }, ["x", null, 1]);
    agrees({ enum: ["a"], nullable: true }, ["a", null, "b"]);
    agrees({ elements: { type: "string" }, nullable: true }, [[], null, 1]);
    agrees({
      discriminator: "k",
      mapping: { a: { properties: {} } },
      nullable: true,
    }, [null, { k: "a" }, { k: "b" }]);
    agrees({ properties: { a: { type: "string" } }, nullable: true }, [null, { a: "x" }, {}]);
  });

  test("metadata.description is kept", () => {
    assert.deepEqual(
      jtdToJsonSchema({ type: "string", metadata: { description: "a name" } }),
      { description: "a name", type: "string" },
    );
    assert.deepEqual(
      jtdToJsonSchema({ elements: {}, nullable: true, metadata: { description: "any list" } }),
      { description: "any list", type: ["array", "null"], items: {} },
    );
  });
});
