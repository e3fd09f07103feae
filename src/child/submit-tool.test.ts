import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { compileOutputSchema, type OutputValidator } from "../schema/output-schema.ts";
import { evaluateSubmission, submitResultSchema } from "../tools/submit-result.ts";
import { submitTool } from "./submit-tool.ts";

function validator(schema: unknown): OutputValidator {
  const r = compileOutputSchema(schema);
  assert.ok(r.ok);
  return r.value;
}

// deno-lint-ignore no-explicit-any
const dataOf = (params: any) => params.properties.result.anyOf[0].properties.data;

describe("submitTool", () => {
  test("schemaInTool: only a JSON Schema sent as written (the plain form)", () => {
    const json = validator({ type: "object", properties: { n: { type: "integer" } } });
    assert.equal(submitTool("anthropic", json).schemaInTool, true);
    assert.equal(submitTool("openai-compatible", json).schemaInTool, true);
    // OpenAI's strict form and Gemini's subset change the schema: the prompt repeats it.
    assert.equal(submitTool("openai", json).schemaInTool, false);
    assert.equal(submitTool("google", json).schemaInTool, false);
    const jtd = validator({ properties: { n: { type: "int32" } } });
    assert.equal(submitTool("anthropic", jtd).schemaInTool, false);
    assert.equal(submitTool("anthropic", undefined).schemaInTool, false);
  });

  test("no schema: data stays open, for every provider", () => {
    for (const type of ["anthropic", "openai", "google", "openai-compatible"] as const) {
      const t = submitTool(type, undefined);
      assert.equal(t.definition.inputSchema, submitResultSchema);
      assert.equal(t.definition.strict, undefined);
    }
  });

  test("the schema sits under result.data, with data or error required", () => {
    const v = validator({
      type: "object",
      properties: { n: { type: "integer" } },
      required: ["n"],
    });
    const { definition } = submitTool("anthropic", v);
    // deno-lint-ignore no-explicit-any
    const result = (definition.inputSchema as any).properties.result;
    assert.deepEqual(result.anyOf[0].required, ["data"]);
    assert.deepEqual(result.anyOf[1].required, ["error"]);
    assert.deepEqual(dataOf(definition.inputSchema), v.schema);
  });

  test("definitions move to the root and local refs are rebased", () => {
    const v = validator({
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: { a: { $ref: "#/definitions/a" }, b: { $ref: "#/properties/a" } },
      definitions: { a: { type: "string" } },
    });
    const { definition } = submitTool("anthropic", v);
    // deno-lint-ignore no-explicit-any
    const params = definition.inputSchema as any;
    assert.deepEqual(params.definitions, { a: { type: "string" } });
    assert.equal(dataOf(params).properties.a.$ref, "#/definitions/a");
    assert.equal(
      dataOf(params).properties.b.$ref,
      "#/properties/result/anyOf/0/properties/data/properties/a",
    );
    assert.equal(dataOf(params).$schema, undefined);
  });

  test("OpenAI: strict when possible, and nulls for optional properties are dropped", () => {
    const v = validator({
      properties: { n: { type: "uint8" } },
      optionalProperties: { s: { type: "string" } },
    });
    const t = submitTool("openai", v);
    assert.equal(t.definition.strict, true);
    assert.deepEqual(dataOf(t.definition.inputSchema).required, ["n", "s"]);
    assert.deepEqual(
      evaluateSubmission({ result: { data: { n: 1, s: null } } }, t.validator, 0, 3),
      {
        kind: "accepted",
        data: { n: 1 },
      },
    );
    // Without the strict form, a null there is still an error.
    assert.equal(
      evaluateSubmission({ result: { data: { n: 1, s: null } } }, v, 0, 3).kind,
      "rejected",
    );
  });

  test("OpenAI: a schema strict mode cannot express is sent non-strict", () => {
    const t = submitTool("openai", validator({ values: { type: "string" } }));
    assert.equal(t.definition.strict, undefined);
    assert.deepEqual(dataOf(t.definition.inputSchema), {
      type: "object",
      additionalProperties: { type: "string" },
    });
  });

  test("Gemini: a JSON Schema referring to its own root is inlined once", () => {
    const v = validator({
      type: "object",
      properties: { name: { type: "string" }, next: { $ref: "#" } },
      required: ["name"],
    });
    const params = submitTool("google", v).definition.inputSchema;
    const sent = JSON.stringify(params);
    assert.ok(!sent.includes("$ref"), sent);
    const data = dataOf(params);
    assert.deepEqual(data.properties.name, { type: "string" });
    assert.deepEqual(data.properties.next.properties.name, { type: "string" }, "inlined once");
    assert.match(
      data.properties.next.properties.next.description,
      /^Any value \(a recursive use of an enclosing part of the output schema/,
    );
  });

  test("Gemini: refs inlined, recursion open, nothing Gemini refuses", () => {
    const v = validator({
      definitions: { n: { optionalProperties: { kids: { elements: { ref: "n" } } } } },
      ref: "n",
    });
    const sent = JSON.stringify(submitTool("google", v).definition.inputSchema);
    assert.ok(!sent.includes("$ref") && !sent.includes("$defs"), sent);
    assert.ok(!sent.includes("additionalProperties"), sent);
    assert.match(sent, /recursive/);
  });
});
