import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { agentFingerprint, agentFingerprints, canonicalJson, changedSince } from "./agent-set.ts";
import type { AgentDefinition } from "../types.ts";

const explore: AgentDefinition = {
  name: "explore",
  description: "Finds things",
  systemPrompt: "Look.",
  tools: ["read", "submit_result"],
  source: "bundled",
  family: "bundled",
};

test("the same definition, keys in another order or undefined fields, matches", () => {
  // The same fields, written in reverse order, plus one left undefined.
  const reordered = Object.fromEntries(Object.entries(explore).reverse()) as AgentDefinition;
  reordered.model = undefined;
  assert.deepEqual(Object.keys(reordered)[0], "family");
  assert.equal(agentFingerprint(reordered), agentFingerprint(explore));
  assert.equal(changedSince(agentFingerprints([explore]), explore), undefined);
});

test("a changed or added agent is named with its file", () => {
  const set = agentFingerprints([explore]);
  const wider: AgentDefinition = {
    ...explore,
    tools: undefined,
    source: "project",
    filePath: "/p/.xcsh/agents/explore.md",
  };
  assert.equal(
    changedSince(set, wider),
    'Agent "explore" changed during this run (/p/.xcsh/agents/explore.md)',
  );
  assert.equal(
    changedSince(set, { ...explore, name: "evil", filePath: "/p/evil.md" }),
    'Agent "evil" was added during this run (/p/evil.md)',
  );
});

test("canonical JSON: sorted keys, undefined fields left out, else what JSON.stringify writes", () => {
  // The rule written the plain way, to compare with.
  const plain = (v: unknown): string => {
    if (Array.isArray(v)) return `[${v.map(plain).join(",")}]`;
    if (typeof v === "object" && v !== null) {
      const entries = Object.entries(v).filter(([, x]) => x !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${plain(x)}`).join(",")}}`;
    }
    return JSON.stringify(v) ?? "null";
  };
  assert.equal(
    canonicalJson({ b: [1, undefined, "x"], a: { d: null, c: undefined } }),
    '{"a":{"d":null},"b":[1,null,"x"]}',
  );
  fc.assert(
    fc.property(
      fc.oneof(
        fc.anything({ withNullPrototype: true }),
        // Objects and arrays holding undefined, which the rule leaves out or writes as null.
        fc.dictionary(fc.string(), fc.oneof(fc.constant(undefined), fc.anything())),
        fc.array(fc.oneof(fc.constant(undefined), fc.anything())),
      ),
      (v) => {
        assert.equal(canonicalJson(v), plain(v));
      },
    ),
    { numRuns: 300 },
  );
});
