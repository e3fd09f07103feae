// Which siblings wait for a leader's first answer: only tasks on an Anthropic
// provider whose prefix is the same, never isolated ones; and the gate opens
// at the first sign of an answer or when the leader's run ends.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { TaskEnvelope } from "../../protocol/envelope.ts";
import { answerGate, prefixKey, prefixLeaders, providerTypeOf } from "./prefix-sharing.ts";
import { plan } from "../../../tests/support/plan.ts";

const envelope = (id: string, extra: Partial<TaskEnvelope> = {}): TaskEnvelope => ({
  ...plan({
    id,
    agent: { name: "worker", description: "w", systemPrompt: "Work." },
    assignment: `job ${id}`,
    model: "anthropic/claude-test",
    cwd: "/p",
  }),
  ...extra,
});

const anthropic = () => "anthropic" as const;

describe("prefixLeaders", () => {
  test("siblings with one prefix wait for the first", () => {
    const tasks = ["a", "b", "c"].map((id) => ({
      envelope: envelope(id, { session: `s-${id}`, artifacts: `/d/${id}`, writes: [`${id}/**`] }),
    }));
    assert.deepEqual(prefixLeaders(tasks, anthropic), [undefined, 0, 0]);
  });

  test("a different prefix leads its own group", () => {
    const tasks = [
      { envelope: envelope("a") },
      { envelope: envelope("b", { context: "other" }) },
      { envelope: envelope("c") },
      { envelope: envelope("d", { context: "other" }) },
    ];
    assert.deepEqual(prefixLeaders(tasks, anthropic), [undefined, undefined, 0, 1]);
  });

  test("other providers and isolated tasks never wait", () => {
    const tasks = [{ envelope: envelope("a") }, { envelope: envelope("b") }];
    assert.deepEqual(prefixLeaders(tasks, () => "openai"), [undefined, undefined]);
    assert.deepEqual(prefixLeaders(tasks, () => undefined), [undefined, undefined]);
    const isolated = [{ envelope: envelope("a"), isolate: {} }, {
      envelope: envelope("b"),
      isolate: {},
    }];
    assert.deepEqual(prefixLeaders(isolated, anthropic), [undefined, undefined]);
  });

  test("the key leaves out only what belongs to one task", () => {
    assert.equal(prefixKey(envelope("a")), prefixKey(envelope("b")));
    assert.notEqual(prefixKey(envelope("a")), prefixKey(envelope("a", { model: "anthropic/x" })));
    assert.notEqual(prefixKey(envelope("a")), prefixKey(envelope("a", { planMode: true })));
  });
});

describe("providerTypeOf", () => {
  test("built-in, configured and unknown providers", () => {
    const config = { providers: { claude: { type: "anthropic" as const, baseURL: "http://h" } } };
    assert.equal(providerTypeOf("anthropic/m", { providers: {} }), "anthropic");
    assert.equal(providerTypeOf("claude/m", config), "anthropic");
    assert.equal(providerTypeOf("ollama/m", config), "openai-compatible");
    assert.equal(providerTypeOf("nowhere/m", config), undefined);
    assert.equal(providerTypeOf(null, config), undefined);
    assert.equal(providerTypeOf("bare", config), undefined);
  });
});

describe("answerGate", () => {
  const settled = async (p: Promise<void>) => {
    let done = false;
    p.then(() => (done = true));
    await new Promise((r) => setTimeout(r, 0));
    return done;
  };

  test("stays shut through the start, opens at the answer", async () => {
    const g = answerGate();
    g.onEvent({ type: "start", id: "a", agent: "w", model: "m", depth: 1 });
    g.onEvent({ type: "waiting", id: "a", reason: "queued" });
    assert.equal(await settled(g.opened), false);
    g.onEvent({ type: "answering", id: "a" });
    assert.equal(await settled(g.opened), true);
  });

  test("opens when the leader ends without an answer", async () => {
    const g = answerGate();
    g.close();
    assert.equal(await settled(g.opened), true);
  });
});
