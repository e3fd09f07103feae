import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { checkGuards, depthExhausted, unknownAgentMessage } from "./guards.ts";
import type { AgentDefinition } from "../types.ts";
import { MAX_LISTED_NAMES } from "../text/nearest-names.ts";

const agent = (name: string, extra: Partial<AgentDefinition> = {}): AgentDefinition => ({
  name,
  description: `${name} agent`,
  systemPrompt: "",
  source: "bundled",
  family: "bundled",
  ...extra,
});
const AGENTS = [
  agent("explore"),
  agent("plan", { spawns: ["explore"] }),
  agent("task", { spawns: "*" }),
];
const LIMITS = { maxDepth: 2, disabled: [] as string[] };

describe("checkGuards", () => {
  const top = { depth: 0, spawns: "*" as const };
  test("unknown agent lists the available ones", () => {
    assert.deepEqual(checkGuards("nope", AGENTS, top, LIMITS), {
      ok: false,
      kind: "unknown",
      message: 'Unknown agent "nope". Available: explore, plan, task',
    });
  });
  test("many agents: the nearest few and how to see all, not the whole list", () => {
    const many = Array.from({ length: 1000 }, (_, i) => agent(`agent-${i}-${"x".repeat(40)}`));
    const r = checkGuards("revewer", [...many, agent("reviewer")], top, {
      ...LIMITS,
      listHint: "the `agents` tool lists them all",
    });
    assert.equal(
      !r.ok && r.message,
      'Unknown agent "revewer". Nearest: reviewer (of 1001 agents; the `agents` tool lists them all)',
    );
  });
  test("names match exactly", () => {
    assert.equal(checkGuards("Explore", AGENTS, top, LIMITS).ok, false);
  });
  test("disabled agents are refused and not listed", () => {
    const limits = { maxDepth: 2, disabled: ["plan"] };
    const r = checkGuards("plan", AGENTS, top, limits);
    assert.equal(!r.ok && r.kind, "disabled");
    const u = checkGuards("zzz", AGENTS, top, limits);
    assert.equal(!u.ok && u.message, 'Unknown agent "zzz". Available: explore, task');
  });
  test("spawn policy: CSV allows one name and refuses another", () => {
    const caller = { depth: 1, spawns: ["explore"] };
    assert.equal(checkGuards("explore", AGENTS, caller, LIMITS).ok, true);
    const r = checkGuards("plan", AGENTS, caller, LIMITS);
    assert.deepEqual(r, {
      ok: false,
      kind: "spawn",
      message: "Cannot spawn 'plan'. Allowed: explore",
    });
  });
  test("spawn policy: a long list of allowed names is cut to the nearest", () => {
    const spawns = Array.from({ length: 300 }, (_, i) => `helper-${i}`);
    const r = checkGuards("helper-3000", [...AGENTS, agent("helper-3000")], {
      depth: 1,
      spawns,
    }, LIMITS);
    assert.equal(
      !r.ok && r.message,
      "Cannot spawn 'helper-3000'. Nearest: helper-3, helper-30, helper-100, helper-200, helper-0 " +
        "(of 300 allowed agents; the calling agent's spawns field names them)",
    );
  });
  test("spawn policy: empty allows none", () => {
    const r = checkGuards("explore", AGENTS, { depth: 1, spawns: [] }, LIMITS);
    assert.equal(!r.ok && r.message, "Cannot spawn 'explore'. Allowed: none");
  });
  test("blocked agent: recursion prevention", () => {
    const r = checkGuards("explore", AGENTS, { depth: 1, spawns: "*", blocked: "explore" }, LIMITS);
    assert.equal(!r.ok && r.kind, "blocked");
    assert.match(!r.ok ? r.message : "", /recursion prevention/);
    assert.equal(
      checkGuards("plan", AGENTS, { depth: 1, spawns: "*", blocked: "explore" }, LIMITS).ok,
      true,
    );
  });
  test("depth: refuses at the limit, allows below, -1 unlimited", () => {
    assert.equal(checkGuards("explore", AGENTS, { depth: 1, spawns: "*" }, LIMITS).ok, true);
    const r = checkGuards("explore", AGENTS, { depth: 2, spawns: "*" }, LIMITS);
    assert.equal(!r.ok && r.kind, "depth");
    assert.equal(
      checkGuards("explore", AGENTS, { depth: 50, spawns: "*" }, { maxDepth: -1, disabled: [] }).ok,
      true,
    );
  });
  test("order: spawn policy is checked before recursion and depth", () => {
    const r = checkGuards(
      "plan",
      AGENTS,
      { depth: 9, spawns: ["explore"], blocked: "plan" },
      LIMITS,
    );
    assert.equal(!r.ok && r.kind, "spawn");
  });
});

describe("depthExhausted", () => {
  test("depthExhausted", () => {
    assert.deepEqual([0, 1, 2, 3].map((d) => depthExhausted(d, 2)), [false, false, true, true]);
    assert.equal(depthExhausted(0, 0), true);
  });
});

describe("unknownAgentMessage", () => {
  const names = (n: number) => Array.from({ length: n }, (_, i) => `agent-${i}`);
  test(`up to ${MAX_LISTED_NAMES} names are all listed, in order`, () => {
    assert.equal(
      unknownAgentMessage("x", names(MAX_LISTED_NAMES)),
      `Unknown agent "x". Available: ${names(MAX_LISTED_NAMES).join(", ")}`,
    );
    assert.equal(unknownAgentMessage("x", []), 'Unknown agent "x". Available: none');
  });
  test("more: at most five nearest, and the command that lists them", () => {
    assert.equal(
      unknownAgentMessage("agent-7", names(MAX_LISTED_NAMES + 1)),
      'Unknown agent "agent-7". Nearest: agent-7, agent-0, agent-1, agent-2, agent-3 ' +
        "(of 13 agents; `xcsh agents` lists them all)",
    );
    assert.equal(
      unknownAgentMessage("zzzzzz", names(100)),
      'Unknown agent "zzzzzz". No similar name among 100 agents; `xcsh agents` lists them all',
    );
  });
  test("short whatever the names' lengths", () => {
    const long = Array.from({ length: 1000 }, (_, i) => `${"n".repeat(500)}${i}`);
    const m = unknownAgentMessage(`${"n".repeat(500)}1`, long);
    assert.ok(m.length <= 1024, String(m.length));
    assert.match(m, /^Unknown agent "n{79}…"\. Nearest: (n{79}…, ){4}n{79}… \(of 1000 agents/);
    const huge = unknownAgentMessage("n".repeat(100_000), long);
    assert.ok(huge.length <= 1024, String(huge.length));
  });
});
