import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { compileOutputSchema, detectSchemaKind } from "./output-schema.ts";

describe("detectSchemaKind", () => {
  const jtd: unknown[] = [
    { properties: { a: { type: "string" } } },
    { optionalProperties: { a: { type: "string" } } },
    { elements: { type: "string" } },
    { values: { type: "int32" } },
    { discriminator: "kind", mapping: {} },
    { enum: ["a", "b"] },
    { type: "timestamp" },
    { type: "uint8" },
    { ref: "thing", definitions: { thing: {} } },
  ];
  const jsonSchema: unknown[] = [
    {},
    { type: "object", properties: { a: { type: "string" } } },
    { type: "string", enum: ["a"] },
    { type: "array", items: {} },
    { $schema: "https://json-schema.org/draft/2020-12/schema", properties: {} },
    { $ref: "#/definitions/x", definitions: { x: {} } },
    { anyOf: [{ type: "string" }] },
    true,
    "not an object",
  ];
  for (const s of jtd) {
    test(`JTD: ${JSON.stringify(s)}`, () => assert.equal(detectSchemaKind(s), "jtd"));
  }
  for (const s of jsonSchema) {
    test(`JSON Schema: ${JSON.stringify(s)}`, () =>
      assert.equal(detectSchemaKind(s), "json-schema"));
  }
});

describe("compileOutputSchema", () => {
  test("JSON Schema errors name the path and the problem", () => {
    const r = compileOutputSchema({
      type: "object",
      required: ["a", "b"],
      additionalProperties: false,
      properties: { a: { type: "integer" }, b: { type: "string", enum: ["x", "y"] } },
    });
    assert.ok(r.ok);
    assert.equal(r.value.kind, "json-schema");
    assert.deepEqual(r.value.validate({ a: 1, b: "x" }), { ok: true });
    const v = r.value.validate({ a: "1", b: "z", c: 0 });
    assert.ok(!v.ok);
    assert.deepEqual(v.errors, [
      "(root): must NOT have additional properties: 'c'",
      "/a: must be integer",
      '/b: must be equal to one of the allowed values: "x", "y"',
    ]);
    const missing = r.value.validate({});
    assert.ok(!missing.ok);
    assert.deepEqual(missing.errors, [
      "(root): must have required property 'a'",
      "(root): must have required property 'b'",
    ]);
  });

  test("JTD schemas validate as JTD", () => {
    const r = compileOutputSchema({
      properties: { n: { type: "int32" } },
      optionalProperties: { s: { type: "string" } },
    });
    assert.ok(r.ok);
    assert.equal(r.value.kind, "jtd");
    assert.deepEqual(r.value.validate({ n: 3 }), { ok: true });
    const bad = r.value.validate({ n: 1.5, extra: true });
    assert.ok(!bad.ok);
    assert.ok(bad.errors.length >= 2, bad.errors.join("\n"));
  });

  test("2020-12 schemas use the 2020 dialect", () => {
    const r = compileOutputSchema({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "array",
      prefixItems: [{ type: "string" }],
    });
    assert.ok(r.ok);
    assert.ok(!r.value.validate([1]).ok);
  });

  test("a schema given as a JSON string is decoded", () => {
    const r = compileOutputSchema('{"type":"string"}');
    assert.ok(r.ok);
    assert.ok(r.value.validate("x").ok);
  });

  test("broken schemas are errors saying why", () => {
    const notJson = compileOutputSchema("{type:");
    assert.ok(!notJson.ok);
    assert.match(notJson.error, /not JSON/);
    const badJtd = compileOutputSchema({ elements: { type: "nonsense" } });
    assert.ok(!badJtd.ok);
    assert.match(badJtd.error, /not a valid JTD schema/);
    const badJson = compileOutputSchema({ type: "object", properties: { a: { type: 12 } } });
    assert.ok(!badJson.ok);
    assert.match(badJson.error, /not a valid JSON Schema/);
    assert.ok(!compileOutputSchema([1]).ok);
  });
});
