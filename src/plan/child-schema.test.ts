// Unit tests for the output schema check made before any child starts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { outputSchemaProblem } from "./child-schema.ts";
import type { AgentDefinition } from "../types.ts";

const asked: AgentDefinition = {
  name: "rev",
  description: "d",
  systemPrompt: "",
  source: "user",
  family: "xcsh",
  filePath: "/u/rev.md",
};

test("no schema and a valid schema are no problem", async () => {
  assert.equal(await outputSchemaProblem(null, asked, { agent: "rev", tasks: [] }), undefined);
  const ok = { type: "object", properties: { a: { type: "string" } } };
  assert.equal(await outputSchemaProblem(ok, asked, { agent: "rev", tasks: [] }), undefined);
});

test("an invalid schema is one line naming where it came from", async () => {
  const bad = { type: "no-such-type" };
  const own = await outputSchemaProblem(bad, { ...asked, output: bad }, {
    agent: "rev",
    tasks: [],
  });
  assert.match(own ?? "", /^Invalid output schema \(agent 'rev' output\): /);
  assert.doesNotMatch(own ?? "", /\n/);
  const call = await outputSchemaProblem(bad, asked, { agent: "rev", tasks: [], schema: bad });
  assert.match(call ?? "", /^Invalid output schema \(the call's schema\): /);
});
