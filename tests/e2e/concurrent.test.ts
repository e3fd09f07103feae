// End-to-end: the tool calls of one model turn through the real binary and
// the real re-exec chain. Three `task` calls of one turn run side by side
// (the local model server holds the sub-agents' answers until all three have
// asked, and sees them in flight at once), their results go back in call
// order, and every tool_start pairs with its tool_end by callId. No
// wall-clock thresholds: overlap is read from the server's in-flight count
// and from the order of events.
//
// Needs `npm run build` first (npm test runs it).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { runXcsh } from "../support/cli.ts";
import { modelHarness } from "../support/harness.ts";
import { agentMd, assignmentOf, isAfterTool, offeredTools, type World } from "../support/world.ts";
import { agentSetOf, planText, userConfig } from "../support/plan.ts";

const harness = modelHarness({ respond: () => ({ text: "unexpected request" }) });
const { server, respond } = harness;

// deno-lint-ignore no-explicit-any
type Msg = Record<string, any>;

/** The delays of the three sub-agents: the first call is the slowest. */
const DELAYS: Record<string, number> = { a: 800, b: 400, c: 0 };

function world(): World {
  const w = harness.world({
    agents: {
      boss: agentMd("boss", "tools: task, read\nspawns: helper\nmodel: local/mock-large\n"),
      helper: agentMd("helper", "tools: read\nmodel: local/mock-small\n"),
    },
  });
  server.script([]);
  server.requests.length = 0;
  // The boss calls `task` three times in one turn, then reports what came back;
  // each helper answers after its delay.
  respond((req) => {
    if (!offeredTools(req).includes("task")) {
      const which = assignmentOf(req).replace("job ", "");
      // Held until all three helpers have asked (a loop that ran the calls one
      // after another would leave the first alone for 10 s), then each waits
      // its delay.
      return { text: `helper ${which} done`, holdTogether: 3, delayMs: DELAYS[which] ?? 0 };
    }
    if (isAfterTool(req)) return { text: "all done" };
    return {
      toolCalls: ["a", "b", "c"].map((id) => ({
        id: `call_${id}`,
        name: "task",
        args: { agent: "helper", tasks: [{ id, assignment: `job ${id}` }] },
      })),
    };
  });
  return w;
}

/** The boss's last request: the tool results it was sent, in order. */
function resultsSent(): { id: string; text: string }[] {
  const last = server.requests.at(-1)!;
  return (last.body.messages as Msg[]).filter((m) => m.role === "tool").map((m) => ({
    id: m.tool_call_id,
    text: typeof m.content === "string" ? m.content : JSON.stringify(m.content),
  }));
}

describe("three task calls in one turn", () => {
  test("run side by side; results go back in call order; callIds pair", async () => {
    const w = world();
    const envelope = planText({
      id: "boss",
      agent: {
        name: "boss",
        description: "boss",
        systemPrompt: "You are boss.",
        tools: ["task", "read", "submit_result"],
        spawns: ["helper"],
      },
      assignment: "delegate",
      cwd: w.cwd,
      model: "local/mock-large",
      config: userConfig(w.home),
      agentSet: await agentSetOf(w.cwd, w.home),
    });
    const r = await runXcsh(["__child"], {
      cwd: w.cwd,
      home: w.home,
      stdin: envelope,
    });
    assert.equal(r.code, 0, r.stderr);
    // deno-lint-ignore no-explicit-any
    const events: any[] = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
    const tools = events.filter((e) => e.type === "tool_start" || e.type === "tool_end");
    // All three started before any ended: they overlapped.
    assert.deepEqual(
      tools.map((e) => `${e.type} ${e.callId}`).slice(0, 3),
      ["tool_start call_a", "tool_start call_b", "tool_start call_c"],
    );
    // The fastest (c) ended first, the slowest (a) last.
    assert.deepEqual(
      tools.filter((e) => e.type === "tool_end").map((e) => e.callId),
      ["call_c", "call_b", "call_a"],
    );
    for (const end of tools.filter((e) => e.type === "tool_end")) {
      const starts = tools.filter((e) => e.type === "tool_start" && e.callId === end.callId);
      assert.equal(starts.length, 1, `one start for ${end.callId}`);
      assert.equal(starts[0].tool, end.tool);
      assert.equal(end.ok, true);
    }
    // The three helpers' model requests were in flight at the same time.
    assert.ok(server.peakInFlight() >= 3, `peak in flight: ${server.peakInFlight()}`);
    // Results in call order, whatever order the calls ended in.
    const sent = resultsSent();
    assert.deepEqual(sent.map((s) => s.id), ["call_a", "call_b", "call_c"]);
    for (const [i, id] of ["a", "b", "c"].entries()) {
      assert.match(sent[i].text, new RegExp(`helper ${id} done`));
    }
    assert.equal(events.at(-1).type, "result");
    assert.equal(events.at(-1).text, "all done");
  });

  test("progress shows the calls running side by side", async () => {
    const w = world();
    const r = await runXcsh(["run", "boss", "delegate"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "all done\n");
    assert.match(
      r.stderr,
      /^xcsh: \[0-boss\] 3 tools: task helper, task helper, task helper$/m,
      r.stderr,
    );
  });

  test("concurrent task calls share one cap of task.maxConcurrency sub-agents", async () => {
    const w = harness.world({
      agents: {
        boss: agentMd("boss", "tools: task, read\nspawns: helper\nmodel: local/mock-large\n"),
        helper: agentMd("helper", "tools: read\nmodel: local/mock-small\n"),
      },
      extraConfig: "task: { maxConcurrency: 2 }\n",
    });
    server.script([]);
    server.requests.length = 0;
    // The peak of requests in flight counts from here: it covers this test only.
    server.resetPeak();
    respond((req) => {
      if (!offeredTools(req).includes("task")) return { text: "ok", delayMs: 300 };
      if (isAfterTool(req)) return { text: "all done" };
      return {
        toolCalls: ["a", "b", "c"].map((id) => ({
          name: "task",
          args: {
            agent: "helper",
            tasks: [{ id: `${id}1`, assignment: "x" }, { id: `${id}2`, assignment: "y" }],
          },
        })),
      };
    });
    const r = await runXcsh(["run", "boss", "delegate"], { cwd: w.cwd, home: w.home });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "all done\n");
    assert.equal(server.requests.length, 1 + 6 + 1, "six sub-agents ran");
    assert.ok(server.peakInFlight() <= 2, `peak in flight: ${server.peakInFlight()}`);
  });
});
