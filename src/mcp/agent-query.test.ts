import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { matchAgents, queryRank } from "./agent-query.ts";

const agents = [
  { name: "critic", description: "Reviews designs and code for flaws" },
  { name: "code-reviewer", description: "Reads a diff" },
  { name: "reviewer", description: "Code review" },
  { name: "reviewer-security", description: "Security review" },
  { name: "explore", description: "Fast read-only scout" },
];
const names = (q: string) => matchAgents(agents, q).map((a) => a.name);

describe("matchAgents", () => {
  test("exact name, then prefix, then substring, then description words", () => {
    assert.deepEqual(names("reviewer"), ["reviewer", "reviewer-security", "code-reviewer"]);
    assert.deepEqual(names("review"), [
      "reviewer",
      "reviewer-security",
      "code-reviewer",
      "critic",
    ]);
  });
  test("case does not matter; every word must be found", () => {
    assert.deepEqual(names("CODE flaws"), ["critic"]);
    assert.deepEqual(names("read-only scout"), ["explore"]);
    assert.deepEqual(names("scout flaws"), []);
  });
  test("a typo of a name still finds it", () => {
    assert.deepEqual(names("explroe"), ["explore"]);
  });
  test("typos count only when nothing holds the query", () => {
    const similar = [{ name: "agent-0991", description: "" }, {
      name: "agent-0123",
      description: "",
    }];
    assert.deepEqual(matchAgents(similar, "agent-099").map((a) => a.name), ["agent-0991"]);
    assert.deepEqual(matchAgents(similar, "agent-0124").map((a) => a.name), [
      "agent-0123",
      "agent-0991",
    ]);
  });
  test("an empty query finds all, in order", () => {
    assert.deepEqual(names("  "), agents.map((a) => a.name));
    assert.equal(queryRank("", agents[0]), 0);
  });
});
