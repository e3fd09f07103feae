import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { AgentDefinition } from "../types.ts";
import {
  agentsAnswer,
  type AgentsInput,
  DEFAULT_AGENTS_LIMIT,
  MAX_AGENTS_CHARS,
  readAgentsInput,
} from "./agents-tool.ts";
import { CursorSigner } from "./cursor.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

const LONG = "Use this agent when you need help with a thing. ".repeat(40) +
  "Examples: <example>user: do it</example>";

function agents(n: number): AgentDefinition[] {
  return Array.from({ length: n }, (_, i) => ({
    name: `agent-${String(i).padStart(4, "0")}`,
    description: i === 500 ? "Audits the billing code" : LONG,
    systemPrompt: "x",
    source: "project",
    family: "claude",
    tools: ["read", "submit_result"],
  }));
}

const cursors = new CursorSigner();
const ask = (all: AgentDefinition[], input: Partial<AgentsInput>) =>
  agentsAnswer(all, { limit: DEFAULT_AGENTS_LIMIT, ...input }, cursors);

describe("readAgentsInput", () => {
  test("defaults and given values", () => {
    assert.deepEqual(readAgentsInput({}), { limit: DEFAULT_AGENTS_LIMIT });
    assert.deepEqual(readAgentsInput({ query: "x", limit: 3, cursor: "c" }), {
      query: "x",
      limit: 3,
      cursor: "c",
    });
  });
  const bad: [unknown, RegExp][] = [
    [[], /arguments must be an object/],
    [{ query: 3 }, /'query' must be a string/],
    [{ limit: 0 }, /'limit' must be a whole number from 1 to/],
    [{ limit: 2.5 }, /'limit' must be a whole number/],
    [{ cursor: {} }, /'cursor' must be a string/],
    [{ name: "a", query: "b" }, /'name' shows one agent/],
  ];
  for (const [args, message] of bad) {
    test(`refuses ${JSON.stringify(args)}`, () => {
      const r = readAgentsInput(args);
      assert.equal(typeof r, "string");
      assert.match(r as string, message);
    });
  }
});

describe("agentsAnswer", () => {
  const all = agents(1000);

  test("a default page stays within the budget, entries in one line", () => {
    const r = ask(all, {});
    assert.ok(r.ok);
    const size = r.text.length + JSON.stringify(r.structured).length;
    assert.ok(size <= MAX_AGENTS_CHARS, String(size));
    const page = r.structured as Any;
    assert.ok(page.agents.length > 10, String(page.agents.length));
    assert.deepEqual(Object.keys(page.agents[0]), ["name", "source", "description"]);
    assert.ok(page.agents[0].description.length <= 160);
    assert.doesNotMatch(page.agents[0].description, /example/i);
    assert.equal(page.total, 1000);
    assert.equal(typeof page.nextCursor, "string");
    assert.match(r.text, /^Agents: 1–\d+ of 1000\.\n- agent-0000 \(project\): Use this agent/);
  });

  test("following the cursors visits every agent once, in order", () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 100; pages++) {
      const r = ask(all, { limit: 300, ...(cursor ? { cursor } : {}) });
      assert.ok(r.ok, !r.ok ? r.message : "");
      const page = r.structured as Any;
      seen.push(...page.agents.map((a: Any) => a.name));
      cursor = page.nextCursor;
      if (!cursor) break;
    }
    assert.deepEqual(seen, all.map((a) => a.name));
  });

  test("limit bounds the page; a query finds by description and by name", () => {
    const r = ask(all, { limit: 5 });
    assert.ok(r.ok);
    assert.equal((r.structured as Any).agents.length, 5);
    const billing = ask(all, { query: "billing" });
    assert.ok(billing.ok);
    assert.deepEqual((billing.structured as Any).agents.map((a: Any) => a.name), ["agent-0500"]);
    assert.equal((billing.structured as Any).nextCursor, undefined);
    const named = ask(all, { query: "agent-099" });
    assert.ok(named.ok);
    assert.equal((named.structured as Any).total, 10);
  });

  test("the cursor keeps its query; another query with it is refused", () => {
    const first = ask(all, { query: "agent-0", limit: 10 });
    assert.ok(first.ok);
    const cursor = (first.structured as Any).nextCursor;
    const second = ask(all, { cursor });
    assert.ok(second.ok);
    assert.equal((second.structured as Any).agents[0].name, "agent-0010");
    const mixed = ask(all, { cursor, query: "other" });
    assert.equal(mixed.ok, false);
    assert.match(!mixed.ok ? mixed.message : "", /^'query' differs/);
  });

  test("a cursor of another server or changed by hand is a clear error", () => {
    const foreign = new CursorSigner().issue({ query: "", offset: 100 });
    for (const cursor of [foreign, "abc", foreign.replace(/.$/, "A")]) {
      const r = ask(all, { cursor });
      assert.equal(r.ok, false);
      assert.match(!r.ok ? r.message : "", /^'cursor' is not one this server issued/);
    }
  });

  test("nothing found says so", () => {
    const r = ask(all, { query: "zzzz qqqq" });
    assert.ok(r.ok);
    assert.equal(r.text, 'No agents matching "zzzz qqqq".');
  });

  test("name: one agent in full; an unknown one, the nearest names", () => {
    const r = ask(all, { name: "agent-0500" });
    assert.ok(r.ok);
    assert.equal((r.structured as Any).agent.description, "Audits the billing code");
    assert.deepEqual((r.structured as Any).agent.tools, ["read", "submit_result"]);
    const big = { ...all[0], name: "big", output: { enum: Array.from({ length: 5000 }, String) } };
    const cut = ask([big], { name: "big" });
    assert.ok(cut.ok);
    assert.equal((cut.structured as Any).agent.output, undefined);
    assert.match((cut.structured as Any).agent.outputNote, /^an output schema of \d+ characters/);
    assert.ok(JSON.stringify(cut.structured).length <= MAX_AGENTS_CHARS);
    const u = ask(all, { name: "agent-05000" });
    assert.equal(u.ok, false);
    const message = !u.ok ? u.message : "";
    assert.ok(message.length <= 1024, String(message.length));
    assert.match(message, /^Unknown agent "agent-05000"\. Nearest: agent-0500, /);
  });
});
