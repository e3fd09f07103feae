// What a compaction keeps and when it runs.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { ChildEvent } from "../protocol/events.ts";
import type { Message } from "./conversation.ts";
import {
  compactionBudget,
  conversationTokens,
  createCompaction,
  planCompaction,
  SUMMARY_REQUEST,
  summaryInput,
  tooSmallWindow,
} from "./compaction.ts";

const user = (text: string): Message => ({ role: "user", content: text });
const callTurn = (id: string, size = 40): Message[] => [
  {
    role: "assistant",
    content: [{ type: "tool-call", toolCallId: id, toolName: "read", input: { path: "f" } }],
  },
  {
    role: "tool",
    content: [{
      type: "tool-result",
      toolCallId: id,
      toolName: "read",
      output: { type: "text", value: "x".repeat(size) },
    }],
  },
];

/** Every tool result in `messages` follows the assistant message that made its call. */
function paired(messages: readonly Message[]): boolean {
  return messages.every((m, i) => {
    if (m.role !== "tool") return true;
    const prev = messages[i - 1];
    return prev?.role === "assistant" && typeof prev.content !== "string" &&
      m.content.every((r) =>
        (prev.content as { toolCallId?: string }[]).some((p) => p.toolCallId === r.toolCallId)
      );
  });
}

describe("planCompaction", () => {
  const task = user("the assignment");
  const turns = [task, ...callTurn("a"), ...callTurn("b"), ...callTurn("c"), ...callTurn("d")];

  test("keeps the assignment first, the latest turns whole, and summarises the rest", () => {
    const plan = planCompaction(turns, new Set([task]), conversationTokens(turns.slice(5)));
    assert.ok(plan);
    assert.deepEqual(plan.pinned, [task]);
    assert.deepEqual(plan.recent, turns.slice(5));
    assert.deepEqual(plan.older, turns.slice(1, 5));
    assert.deepEqual(plan.before, turns.slice(0, 5));
  });

  test("never parts a tool call from its result, whatever the budget", () => {
    for (let keep = 0; keep < conversationTokens(turns); keep += 7) {
      const plan = planCompaction(turns, new Set([task]), keep);
      if (!plan) continue;
      assert.notEqual(plan.recent[0].role, "tool", `keep ${keep}`);
      assert.ok(paired([...plan.pinned, user("summary"), ...plan.recent]), `keep ${keep}`);
    }
  });

  test("keeps at least the last turn, even one larger than the budget", () => {
    const big = [task, ...callTurn("a"), ...callTurn("b", 10_000)];
    const plan = planCompaction(big, new Set([task]), 10);
    assert.ok(plan);
    assert.deepEqual(plan.recent, big.slice(3));
  });

  test("nothing to compact: only pinned messages before the last turn", () => {
    const short = [task, ...callTurn("a")];
    assert.equal(planCompaction(short, new Set([task]), 0), undefined);
  });

  test("a pinned message in the older part moves to the front (a resume's new assignment)", () => {
    const again = user("and now this");
    const resumed = [task, ...callTurn("a"), again, ...callTurn("b"), ...callTurn("c")];
    const plan = planCompaction(
      resumed,
      new Set([task, again]),
      conversationTokens(resumed.slice(6)),
    );
    assert.ok(plan);
    assert.deepEqual(plan.pinned, [task, again]);
    assert.deepEqual(plan.older, [...resumed.slice(1, 3), ...resumed.slice(4, 6)]);
  });
});

describe("budget and window", () => {
  test("80 % of the window less the output reserved", () => {
    assert.equal(compactionBudget(200_000, 16_384), 146_892);
    // The reserve takes at most a quarter of a small window.
    assert.equal(compactionBudget(16_384, 16_384), 9_830);
  });
  test("a window the fixed prompt does not fit names the model and both sizes", () => {
    assert.equal(tooSmallWindow("local/m", 200_000, 16_384, 5_000), undefined);
    const why = tooSmallWindow("local/m", 8_000, 1_000, 6_000);
    assert.match(
      why ?? "",
      /local\/m: its context window \(8000 tokens.*fixed prompt \(6000 tokens/,
    );
  });
});

describe("createCompaction", () => {
  const setup = (summarise: (m: Message[]) => Promise<string>) => {
    const events: ChildEvent[] = [];
    const lines: string[] = [];
    const hooks: string[] = [];
    const c = createCompaction({
      id: "t",
      model: "p/m",
      window: 1_000,
      reserve: 100,
      fixed: 50,
      summarise,
      preCompact: (trigger) => {
        hooks.push(trigger);
        return Promise.resolve();
      },
      emit: (e) => events.push(e),
      log: (l) => lines.push(l),
    });
    return { c, events, lines, hooks };
  };
  const task = user("the assignment");
  const long = () => [task, ...callTurn("a", 1200), ...callTurn("b", 1200), ...callTurn("c", 400)];

  test("under the budget nothing happens; past it a summary replaces the older part", async () => {
    let asked: Message[] = [];
    const { c, events, hooks } = setup((m) => {
      asked = m;
      return Promise.resolve("did a and b");
    });
    const small = [task, ...callTurn("a", 100)];
    assert.equal(await c.fit(small, new Set([task])), false);
    const messages = long();
    const before = messages.slice();
    assert.equal(await c.fit(messages, new Set([task])), true);
    assert.deepEqual(asked.at(-1), { role: "user", content: SUMMARY_REQUEST });
    // The summary reads what fits its budget: the oldest turn is left out.
    assert.deepEqual(asked.slice(0, -1), [task, ...before.slice(3, 5)]);
    assert.equal(messages[0], task);
    assert.match(String(messages[1].content), /replaced by this summary[^]*did a and b/);
    assert.deepEqual(messages.slice(2), before.slice(5));
    assert.deepEqual(hooks, ["auto"]);
    assert.equal(events.length, 1);
    const e = events[0] as Extract<ChildEvent, { type: "compact" }>;
    assert.equal(e.type, "compact");
    assert.equal(e.method, "summary");
    assert.equal(e.trigger, "auto");
    assert.ok(e.tokensAfter < e.tokensBefore, JSON.stringify(e));
  });

  test("a failed summary cuts the older part instead, said once", async () => {
    const { c, events, lines } = setup(() => Promise.reject(new Error("503 overloaded\nmore")));
    const first = long();
    await c.fit(first, new Set([task]));
    assert.match(String(first[1].content), /removed to fit the context window/);
    const second = long();
    await c.fit(second, new Set([task]));
    assert.deepEqual(lines, [
      "xcsh: p/m: the summary of the older turns failed (503 overloaded); they were cut instead",
    ]);
    assert.deepEqual(events.map((e) => (e as { method?: string }).method), ["cut", "cut"]);
  });

  test("an overflow compacts under the budget too; the provider's count is used when larger", async () => {
    const { c, events } = setup(() => Promise.resolve("s"));
    const messages = [task, ...callTurn("a", 200), ...callTurn("b", 200)];
    assert.equal(await c.fit(messages, new Set([task])), false);
    c.sent(messages.length, 900);
    assert.equal(await c.fit(messages, new Set([task])), true, "the reported 900 passes 720");
    const again = [task, ...callTurn("a", 200), ...callTurn("b", 200)];
    assert.equal(await c.fit(again, new Set([task]), true), true);
    assert.equal((events[1] as { trigger?: string }).trigger, "overflow");
  });
});

describe("summaryInput", () => {
  test("leaves the oldest unpinned messages out until it fits, never starting at a result", () => {
    const task = user("the assignment");
    const all = [task, ...callTurn("a", 400), ...callTurn("b", 400), ...callTurn("c", 40)];
    const plan = planCompaction(all, new Set([task]), 0)!;
    assert.deepEqual(summaryInput(plan, 10_000), plan.before);
    const room = conversationTokens([task, ...all.slice(3, 5)]);
    const input = summaryInput(plan, room);
    assert.deepEqual(input, [task, ...all.slice(3, 5)]);
    for (let r = 0; r < room; r += 5) {
      const cut = summaryInput(plan, r);
      assert.equal(cut[0], task);
      assert.ok(paired(cut), `room ${r}`);
    }
  });
});
