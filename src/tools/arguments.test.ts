// Unit tests for tool-argument checks: every tool's schema uses only the
// supported keywords, the checker agrees with Ajv on generated arguments
// (seeded, FUZZ_SEED replays), and the messages read like Ajv's.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import process from "node:process";
import AjvImport from "ajv";
import fc from "fast-check";
import { checkArguments, SUPPORTED_KEYWORDS } from "./arguments.ts";
import { TOOLS } from "./registry.ts";
import { submitResultSchema } from "./submit-result.ts";
import { isRecord } from "../formats/values.ts";

// deno-lint-ignore no-explicit-any
const Ajv: any = typeof AjvImport === "function" ? AjvImport : (AjvImport as any).default;
const ajv = new Ajv({ allErrors: true, strict: false });

const SCHEMAS: [string, Record<string, unknown>][] = [
  ...Object.values(TOOLS).map((t): [string, Record<string, unknown>] => [t.name, t.inputSchema]),
  ["submit_result", submitResultSchema],
];

function keywords(schema: unknown, into: Set<string>): Set<string> {
  if (!isRecord(schema)) return into;
  for (const [k, v] of Object.entries(schema)) {
    into.add(k);
    if (k === "properties" && isRecord(v)) Object.values(v).forEach((s) => keywords(s, into));
    if (k === "items") keywords(v, into);
  }
  return into;
}

describe("checkArguments: the tools' schemas", () => {
  for (const [name, schema] of SCHEMAS) {
    test(`${name} uses only supported keywords`, () => {
      const unsupported = [...keywords(schema, new Set())].filter((k) =>
        !SUPPORTED_KEYWORDS.has(k)
      );
      assert.deepEqual(unsupported, []);
    });
  }
});

/** Values shaped like a schema's arguments: right and wrong types, extra keys. */
function argumentsFor(schema: unknown, depth = 0): fc.Arbitrary<unknown> {
  const any = fc.oneof(
    fc.string({ maxLength: 4 }),
    fc.integer({ min: -3, max: 300 }),
    fc.double({ min: -5, max: 5, noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.constant(""),
    fc.constant([]),
    fc.constant({}),
  );
  if (!isRecord(schema) || depth > 3) return any;
  if (schema.type === "object" && isRecord(schema.properties)) {
    const props = Object.fromEntries(
      Object.entries(schema.properties).map(([k, s]) => [k, argumentsFor(s, depth + 1)]),
    );
    const shaped = fc.record({ ...props, extra: any }, { requiredKeys: [] }).map((o) => {
      const out: Record<string, unknown> = { ...o };
      if (!("extra" in o)) delete out.extra;
      return out;
    });
    return fc.oneof({ arbitrary: shaped, weight: 8 }, { arbitrary: any, weight: 1 });
  }
  if (schema.type === "array") {
    return fc.oneof(
      { arbitrary: fc.array(argumentsFor(schema.items, depth + 1), { maxLength: 3 }), weight: 4 },
      { arbitrary: any, weight: 1 },
    );
  }
  if (schema.type === "string") {
    return fc.oneof(
      { arbitrary: fc.string({ maxLength: 6, unit: "grapheme" }), weight: 4 },
      { arbitrary: any, weight: 1 },
    );
  }
  if (schema.type === "integer" || schema.type === "number") {
    return fc.oneof(
      { arbitrary: fc.integer({ min: -2, max: 2000 }), weight: 3 },
      { arbitrary: fc.double({ min: -2, max: 2000, noNaN: true }), weight: 1 },
      { arbitrary: any, weight: 1 },
    );
  }
  return any;
}

describe("checkArguments agrees with Ajv", () => {
  const seed = Number(process.env.FUZZ_SEED ?? 20261130);
  for (const [name, schema] of SCHEMAS) {
    test(`${name}: 500 generated argument sets`, () => {
      const validate = ajv.compile(schema);
      fc.assert(
        fc.property(argumentsFor(schema), (args) => {
          const problems = checkArguments(schema, args);
          const ok = validate(args) as boolean;
          assert.equal(
            problems.length === 0,
            ok,
            `${JSON.stringify(args)}: ours ${JSON.stringify(problems)}, Ajv ${
              JSON.stringify(validate.errors)
            }`,
          );
        }),
        { seed, numRuns: 500 },
      );
    });
  }
});

describe("checkArguments: messages", () => {
  const schema = {
    type: "object",
    properties: {
      path: { type: "string", minLength: 1 },
      limit: { type: "integer", minimum: 1, maximum: 10 },
      timeout: { type: "number", exclusiveMinimum: 0 },
      mode: { type: "string", enum: ["a", "b"] },
      list: { type: "array", minItems: 1, items: { type: "string" } },
      "a/b~c": { type: "boolean" },
    },
    required: ["path"],
    additionalProperties: false,
  };
  const rows: [args: unknown, problems: string[]][] = [
    [{ path: "x" }, []],
    [{ path: "x", limit: 10, timeout: 0.5, mode: "b", list: ["y"], "a/b~c": true }, []],
    ["x", ["(root): must be object"]],
    [null, ["(root): must be object"]],
    [[], ["(root): must be object"]],
    [{}, ["(root): must have required property 'path'"]],
    [{ path: "x", file: 1 }, ["(root): must NOT have additional properties: 'file'"]],
    [{ path: "" }, ["/path: must NOT have fewer than 1 characters"]],
    [{ path: 3 }, ["/path: must be string"]],
    [{ path: "x", limit: 1.5 }, ["/limit: must be integer"]],
    [{ path: "x", limit: 0 }, ["/limit: must be >= 1"]],
    [{ path: "x", limit: 11 }, ["/limit: must be <= 10"]],
    [{ path: "x", timeout: 0 }, ["/timeout: must be > 0"]],
    [{ path: "x", mode: "c" }, ['/mode: must be equal to one of the allowed values: "a", "b"']],
    [{ path: "x", list: [] }, ["/list: must NOT have fewer than 1 items"]],
    [{ path: "x", list: ["y", 2] }, ["/list/1: must be string"]],
    [{ path: "x", "a/b~c": 1 }, ["/a~1b~0c: must be boolean"]],
    [
      { file: "x", limit: "2" },
      [
        "(root): must have required property 'path'",
        "(root): must NOT have additional properties: 'file'",
        "/limit: must be integer",
      ],
    ],
  ];
  for (const [args, problems] of rows) {
    test(JSON.stringify(args), () => assert.deepEqual(checkArguments(schema, args), problems));
  }

  test("code points, not UTF-16 units, count toward lengths", () => {
    const s = { type: "string", maxLength: 1 };
    assert.deepEqual(checkArguments(s, "😀"), []);
    assert.deepEqual(checkArguments(s, "ab"), ["(root): must NOT have more than 1 characters"]);
  });

  test("a schema outside the supported part is refused, not half-checked", () => {
    assert.throws(
      () => checkArguments({ type: "object", patternProperties: {} }, {}),
      /patternProperties/,
    );
    assert.throws(() => checkArguments({ type: "tuple" }, 1), /unsupported type/);
  });
});
