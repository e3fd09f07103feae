// The loop's ending rules, with a scripted stand-in for the model.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { ModelMessage } from "ai";
import { sandbox } from "../../tests/support/tool-context.ts";
import { compileOutputSchema } from "../schema/output-schema.ts";
import { TOOLS } from "../tools/registry.ts";
import type { ToolSpec } from "../tools/tool-spec.ts";
import { type LoopOptions, MAX_REMINDERS, runLoop } from "./loop.ts";
import type { ToolCall } from "./conversation.ts";
import type { TurnOutput } from "./turn.ts";
import type { ChildEvent } from "../protocol/events.ts";

type Scripted = { text?: string; calls?: [string, unknown][] };

const sb = sandbox({ "a.txt": "hello\n" });
after(() => sb.remove());

function setup(script: Scripted[], extra: Partial<LoopOptions> = {}) {
  const seen: ModelMessage[][] = [];
  const events: ChildEvent[] = [];
  const forced: (string | undefined)[] = [];
  let n = 0;
  const opts: LoopOptions = {
    id: "t",
    assignment: "do it",
    tools: new Map([["read", TOOLS.read], ["report_finding", TOOLS.report_finding]]),
    limits: { maxTurns: 10, timeoutMs: 1000, submitRetries: 1 },
    ctx: { ...sb.ctx, findings: [] },
    emit: (e) => events.push(e),
    callModel: (messages, forceTool) => {
      seen.push(structuredClone(messages));
      forced.push(forceTool);
      const s = script[n++];
      if (!s) throw new Error("no more scripted turns");
      const calls: ToolCall[] = (s.calls ?? []).map(([name, input], i) => ({
        id: `c${n}-${i}`,
        name,
        input,
      }));
      const out: TurnOutput = {
        messages: [{ role: "assistant", content: s.text ?? "" }],
        toolCalls: calls,
        text: s.text ?? "",
        usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 },
        finishReason: calls.length ? "tool-calls" : "stop",
      };
      return Promise.resolve(out);
    },
    ...extra,
  };
  return { opts, seen, events, forced, calls: () => n };
}

const schema = compileOutputSchema({
  type: "object",
  required: ["n"],
  properties: { n: { type: "integer" } },
});
assert.ok(schema.ok);
const validator = schema.value;

describe("runLoop", () => {
  test("no schema: the final text is the result", async () => {
    const { opts, events, seen } = setup([{ calls: [["read", { path: "a.txt" }]] }, {
      text: " It says hello. ",
    }]);
    assert.deepEqual(await runLoop(opts), { status: "ok", text: "It says hello." });
    assert.deepEqual(events.map((e) => e.type), ["tool_start", "tool_end"]);
    // The tool's output went back to the model.
    assert.match(JSON.stringify(seen[1]), /1\\thello/);
  });

  test("no schema: findings become the data", async () => {
    const { opts } = setup([
      { calls: [["report_finding", { title: "T", body: "B" }]] },
      { text: "Done." },
    ]);
    assert.deepEqual(await runLoop(opts), {
      status: "ok",
      text: "Done.",
      data: { findings: [{ title: "T", body: "B" }] },
    });
  });

  test("a valid submission ends the loop at once, skipping later calls", async () => {
    const { opts, calls, events } = setup([
      {
        text: "Here.",
        calls: [["submit_result", { result: { data: { n: 1 } } }], ["read", { path: "a.txt" }]],
      },
    ], { validator });
    assert.deepEqual(await runLoop(opts), { status: "ok", data: { n: 1 }, text: "Here." });
    assert.equal(calls(), 1);
    assert.equal(events.filter((e) => e.type === "tool_start").length, 1);
  });

  test("a submission that ends the run is answered in the conversation, as are skipped calls", async () => {
    const { opts, events } = setup([
      {
        calls: [
          ["read", { path: "a.txt" }],
          ["submit_result", { result: { data: { n: 1 } } }],
          ["read", { path: "a.txt" }],
        ],
      },
    ], { validator, recordMessages: true });
    assert.equal((await runLoop(opts)).status, "ok");
    const messages = events.flatMap((e) => e.type === "message" ? [e.message] : []);
    // deno-lint-ignore no-explicit-any
    const last = messages.at(-1) as any;
    assert.equal(last.role, "tool", "the run's last message answers its calls");
    assert.deepEqual(last.content.map((p: { toolCallId: string }) => p.toolCallId), [
      "c1-0",
      "c1-1",
      "c1-2",
    ]);
    assert.match(last.content[0].output.value, /hello/);
    assert.equal(last.content[1].output.type, "text");
    assert.match(last.content[2].output.value, /^Not run/);
  });

  for (
    const [what, input] of [["gives up", { error: "no" }], ["is rejected", { data: { n: "x" } }]]
  ) {
    test(`a submission that ends the run because it ${what} is answered too`, async () => {
      const { opts, events } = setup([{ calls: [["submit_result", { result: input }]] }], {
        validator,
        recordMessages: true,
        limits: { maxTurns: 10, timeoutMs: 1000, submitRetries: 0 },
      });
      assert.equal((await runLoop(opts)).status, "error");
      // deno-lint-ignore no-explicit-any
      const last = events.filter((e) => e.type === "message").at(-1) as any;
      assert.equal(last.message.role, "tool");
      assert.equal(last.message.content[0].toolCallId, "c1-0");
    });
  }

  test("submitRetries invalid submissions are answered; the next one fails", async () => {
    const bad: Scripted = { calls: [["submit_result", { result: { data: { n: "x" } } }]] };
    const { opts, calls, seen } = setup([bad, bad, bad], { validator });
    const r = await runLoop(opts);
    assert.equal(r.status, "error");
    assert.equal(
      r.error,
      "submit_result was rejected 2 times; last errors: data/n: must be integer",
    );
    assert.equal(calls(), 2);
    assert.match(JSON.stringify(seen[1]), /1 attempt left/);
  });

  test("a model that stops without submitting is reminded, then fails", async () => {
    const script = Array.from({ length: MAX_REMINDERS + 2 }, (_, i) => ({ text: `stop ${i}` }));
    const { opts, calls, seen } = setup(script, { validator });
    const r = await runLoop(opts);
    assert.deepEqual(r, {
      status: "error",
      error: `the model stopped without calling submit_result (reminded ${MAX_REMINDERS} times)`,
      text: `stop ${MAX_REMINDERS}`,
    });
    assert.equal(calls(), MAX_REMINDERS + 1);
    const last = seen[MAX_REMINDERS].at(-1);
    assert.equal(last?.role, "user");
    assert.match(String(last?.content), /1 reminder left/);
  });

  test("a reminded model that then submits succeeds", async () => {
    const { opts } = setup([{ text: "done" }, {
      calls: [["submit_result", { result: { data: { n: 5 } } }]],
    }], { validator });
    assert.deepEqual(await runLoop(opts), { status: "ok", data: { n: 5 }, text: "done" });
  });

  test("only the turn right after a reminder forces submit_result", async () => {
    const script: Scripted[] = [
      { calls: [["read", { path: "a.txt" }]] },
      { text: "stop" },
      { calls: [["read", { path: "a.txt" }]] },
      { text: "stop again" },
      { calls: [["submit_result", { result: { data: { n: 1 } } }]] },
    ];
    const { opts, forced } = setup(script, { validator });
    assert.equal((await runLoop(opts)).status, "ok");
    assert.deepEqual(forced, [undefined, undefined, "submit_result", undefined, "submit_result"]);
  });

  test("without a schema nothing is forced", async () => {
    const { opts, forced } = setup([{ calls: [["read", { path: "a.txt" }]] }, { text: "done" }]);
    assert.equal((await runLoop(opts)).status, "ok");
    assert.deepEqual(forced, [undefined, undefined]);
  });

  test("unknown tools and bad arguments are answered, not run", async () => {
    const { opts, events, seen } = setup([
      { calls: [["bash", { command: "touch x" }], ["read", { nope: 1 }]] },
      { text: "ok" },
    ]);
    await runLoop(opts);
    const ends = events.filter((e) => e.type === "tool_end");
    assert.deepEqual(ends.map((e) => e.type === "tool_end" && e.ok), [false, false]);
    const sent = JSON.stringify(seen[1]);
    assert.match(sent, /unknown tool 'bash'. Available tools: read, report_finding, submit_result/);
    assert.match(sent, /invalid arguments for read/);
  });

  test("maxTurns bounds the loop", async () => {
    const turn: Scripted = { calls: [["read", { path: "a.txt" }]] };
    const { opts, calls } = setup([turn, turn, turn], {
      limits: { maxTurns: 2, timeoutMs: 1, submitRetries: 1 },
    });
    const r = await runLoop(opts);
    assert.equal(r.error, "reached the turn limit (2 model calls) without a result");
    assert.equal(calls(), 2);
  });

  test("the agent may give up", async () => {
    const { opts } = setup([{ calls: [["submit_result", { result: { error: "impossible" } }]] }], {
      validator,
    });
    assert.deepEqual(await runLoop(opts), {
      status: "error",
      error: "the agent gave up: impossible",
    });
  });
});

/**
 * A fake tool: each call records its start, waits until `gate` calls have
 * started (or 2 s, so a loop that runs calls one by one fails instead of
 * hanging), then `wait` ms, then ends.
 */
function gatedTool(name: string, readOnly: boolean, log: string[], gate: number): ToolSpec {
  let started = 0;
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return {
    name,
    description: "test tool",
    readOnly,
    inputSchema: { type: "object", properties: { tag: { type: "string" } } },
    async run(args: { tag: string; wait?: number }) {
      log.push(`start ${args.tag}`);
      if (++started >= gate) open();
      const timer = new Promise<void>((r) => setTimeout(r, 2000));
      await Promise.race([opened, timer]);
      await new Promise((r) => setTimeout(r, Number(args.wait ?? 0)));
      log.push(`end ${args.tag}`);
      return { ok: true, output: `out ${args.tag}`, summary: args.tag };
    },
  };
}

describe("runLoop: calls of one turn", () => {
  test("read-only calls run side by side; answers go back in call order", async () => {
    const log: string[] = [];
    const look = gatedTool("look", true, log, 3);
    const { opts, events, seen } = setup([
      {
        calls: [
          ["look", { tag: "a", wait: 60 }],
          ["look", { tag: "b", wait: 30 }],
          ["look", { tag: "c", wait: 0 }],
        ],
      },
      { text: "done" },
    ], { tools: new Map([["look", look]]) });
    assert.equal((await runLoop(opts)).status, "ok");
    assert.deepEqual(log.slice(0, 3), ["start a", "start b", "start c"], log.join(", "));
    assert.deepEqual(
      events.slice(0, 3).map((e) => e.type),
      ["tool_start", "tool_start", "tool_start"],
    );
    // The answers keep the order of the calls, whatever order they ended in.
    const sent = JSON.stringify(seen[1].at(-1));
    const at = (tag: string) => sent.indexOf(`out ${tag}`);
    assert.ok(at("a") >= 0 && at("a") < at("b") && at("b") < at("c"), sent);
  });

  test("a call that changes something waits for the calls before it and runs alone", async () => {
    const log: string[] = [];
    const look = gatedTool("look", true, log, 2);
    const change = gatedTool("change", false, log, 1);
    const { opts } = setup([
      {
        calls: [
          ["look", { tag: "r1", wait: 20 }],
          ["look", { tag: "r2", wait: 0 }],
          ["change", { tag: "w" }],
          ["look", { tag: "r3" }],
        ],
      },
      { text: "done" },
    ], { tools: new Map<string, ToolSpec>([["look", look], ["change", change]]) });
    assert.equal((await runLoop(opts)).status, "ok");
    const w = log.indexOf("start w");
    assert.ok(log.indexOf("end r1") < w && log.indexOf("end r2") < w, log.join(", "));
    assert.equal(log[w + 1], "end w", "nothing runs beside the change");
    assert.ok(log.indexOf("start r3") > log.indexOf("end w"), log.join(", "));
  });

  test("every tool_start pairs with one tool_end by callId", async () => {
    const log: string[] = [];
    const look = gatedTool("look", true, log, 2);
    const { opts, events } = setup([
      { calls: [["look", { tag: "a", wait: 10 }], ["look", { tag: "b" }], ["nope", {}]] },
      { text: "done" },
    ], { tools: new Map([["look", look]]) });
    await runLoop(opts);
    const starts = events.flatMap((e) => e.type === "tool_start" ? [e.callId] : []);
    const ends = events.flatMap((e) => e.type === "tool_end" ? [e.callId] : []);
    assert.deepEqual(starts, ["c1-0", "c1-1", "c1-2"]);
    assert.deepEqual([...ends].sort(), starts);
    for (const e of events) {
      if (e.type === "tool_end") {
        const start = events.find((s) => s.type === "tool_start" && s.callId === e.callId);
        assert.equal(start?.type === "tool_start" && start.tool, e.tool);
      }
    }
  });
});

describe("runLoop and the context window", () => {
  const overflow = Object.assign(new Error("prompt is too long: 9 tokens > 8 maximum"), {
    statusCode: 400,
  });
  /** A compaction that records its calls and always compacts on an overflow. */
  const recording = () => {
    const fits: boolean[] = [];
    return {
      fits,
      compaction: {
        fit: (_m: unknown, _p: unknown, over?: boolean) => {
          fits.push(over === true);
          return Promise.resolve(over === true);
        },
        sent: () => {},
      },
    };
  };

  test("an overflow error compacts and the call is tried again once", async () => {
    const { opts, calls } = setup([{ text: "done" }]);
    const { fits, compaction } = recording();
    let failed = 0;
    const call = opts.callModel;
    opts.callModel = (m, f) => failed++ === 0 ? Promise.reject(overflow) : call(m, f);
    opts.compaction = compaction;
    assert.deepEqual(await runLoop(opts), { status: "ok", text: "done" });
    assert.deepEqual(fits, [false, true]);
    assert.equal(calls(), 1);
  });

  test("a second overflow for the same call is the task's error: never a loop", async () => {
    const { opts } = setup([]);
    const { fits, compaction } = recording();
    let tries = 0;
    opts.callModel = () => {
      tries++;
      return Promise.reject(overflow);
    };
    opts.compaction = compaction;
    await assert.rejects(runLoop(opts), /prompt is too long/);
    assert.equal(tries, 2);
    assert.deepEqual(fits, [false, true]);
  });

  test("other errors are not compacted", async () => {
    const { opts } = setup([]);
    const { fits, compaction } = recording();
    opts.callModel = () =>
      Promise.reject(Object.assign(new Error("overloaded"), { statusCode: 529 }));
    opts.compaction = compaction;
    await assert.rejects(runLoop(opts), /overloaded/);
    assert.deepEqual(fits, [false]);
  });
});
