import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { compileOutputSchema, type OutputValidator } from "../schema/output-schema.ts";
import { evaluateSubmission } from "./submit-result.ts";

function validator(schema: unknown): OutputValidator {
  const r = compileOutputSchema(schema);
  assert.ok(r.ok);
  return r.value;
}

describe("evaluateSubmission", () => {
  const v = validator({ type: "object", required: ["n"], properties: { n: { type: "integer" } } });

  test("valid data is accepted", () => {
    assert.deepEqual(evaluateSubmission({ result: { data: { n: 1 } } }, v, 0, 3), {
      kind: "accepted",
      data: { n: 1 },
    });
  });

  test("without a schema any data is accepted, even null-ish values", () => {
    assert.deepEqual(evaluateSubmission({ result: { data: "text" } }, undefined, 0, 3), {
      kind: "accepted",
      data: "text",
    });
    assert.deepEqual(evaluateSubmission({ result: { data: null } }, undefined, 0, 3), {
      kind: "accepted",
      data: null,
    });
  });

  test("an unwrapped {data} is taken as if wrapped", () => {
    assert.equal(evaluateSubmission({ data: { n: 2 } }, v, 0, 3).kind, "accepted");
  });

  test("an error gives up the task", () => {
    assert.deepEqual(evaluateSubmission({ result: { error: " cannot " } }, v, 0, 3), {
      kind: "agent-error",
      error: "cannot",
    });
  });

  test("invalid data is rejected with the errors and attempts left", () => {
    const r = evaluateSubmission({ result: { data: { n: "x" } } }, v, 0, 3);
    assert.equal(r.kind, "rejected");
    if (r.kind !== "rejected") return;
    assert.deepEqual(r.errors, ["data/n: must be integer"]);
    assert.match(r.reply, /- data\/n: must be integer/);
    assert.match(r.reply, /3 attempts left/);
  });

  test("after submitRetries rejections the next invalid one exhausts", () => {
    assert.equal(evaluateSubmission({ result: { data: {} } }, v, 2, 3).kind, "rejected");
    const r = evaluateSubmission({ result: { data: {} } }, v, 3, 3);
    assert.deepEqual(r, { kind: "exhausted", errors: ["data: must have required property 'n'"] });
    assert.equal(evaluateSubmission({ result: { data: {} } }, v, 0, 0).kind, "exhausted");
  });

  test("malformed submissions count as invalid", () => {
    const shapes = [{}, { result: {} }, { result: { data: 1, error: "x" } }, {
      result: { error: "" },
    }, "str"];
    for (const s of shapes) {
      const r = evaluateSubmission(s, undefined, 0, 3);
      assert.equal(r.kind, "rejected", JSON.stringify(s));
    }
  });
});
