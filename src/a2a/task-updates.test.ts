import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { partsContent, readUpdate, stateName } from "./task-updates.ts";
import { taskTracker } from "./task-tracker.ts";
import { taskOutcome } from "./task-outcome.ts";

describe("readUpdate", () => {
  test("1.0 and 0.3 shapes of the same updates read alike", () => {
    const pairs: [unknown, unknown][] = [
      [
        { task: { id: "t", contextId: "c", status: { state: "TASK_STATE_SUBMITTED" } } },
        { kind: "task", id: "t", contextId: "c", status: { state: "submitted" } },
      ],
      [
        {
          statusUpdate: {
            taskId: "t",
            contextId: "c",
            status: {
              state: "TASK_STATE_INPUT_REQUIRED",
              message: { parts: [{ text: "which?" }] },
            },
          },
        },
        {
          kind: "status-update",
          taskId: "t",
          contextId: "c",
          status: {
            state: "input-required",
            message: { kind: "message", parts: [{ kind: "text", text: "which?" }] },
          },
          final: true,
        },
      ],
      [
        {
          artifactUpdate: {
            taskId: "t",
            contextId: "c",
            artifact: { artifactId: "a", parts: [{ text: "x" }] },
            append: true,
          },
        },
        {
          kind: "artifact-update",
          taskId: "t",
          contextId: "c",
          artifact: { artifactId: "a", parts: [{ kind: "text", text: "x" }] },
          append: true,
        },
      ],
      [
        { message: { contextId: "c", parts: [{ data: { n: 1 } }] } },
        { kind: "message", contextId: "c", parts: [{ kind: "data", data: { n: 1 } }] },
      ],
    ];
    for (const [v1, v03] of pairs) {
      assert.ok(readUpdate(v1), JSON.stringify(v1));
      assert.deepEqual(readUpdate(v1), readUpdate(v03));
    }
  });

  test("an answer of no known shape is none", () => {
    assert.equal(readUpdate({ something: 1 }), undefined);
    assert.equal(readUpdate("text"), undefined);
  });

  test("states read as lower-case words; files are named", () => {
    assert.equal(stateName("TASK_STATE_AUTH_REQUIRED"), "auth-required");
    assert.equal(stateName("cancelled"), "canceled");
    assert.equal(stateName(undefined), "unknown");
    assert.deepEqual(
      partsContent([{ kind: "file", file: { name: "r.pdf" } }, { url: "https://f" }]),
      {
        text: "[file: r.pdf]\n[file: https://f]",
      },
    );
  });
});

describe("taskTracker and taskOutcome", () => {
  test("artifacts append by id; the result is them in order", () => {
    const t = taskTracker();
    t.apply({
      kind: "task",
      taskId: "t",
      contextId: "c",
      state: "working",
      text: "",
      artifacts: [],
    });
    const art = (id: string, text: string, append: boolean) =>
      t.apply({ kind: "artifact", taskId: "t", contextId: "c", id, append, content: { text } });
    art("a", "hel", false);
    art("a", "lo", true);
    art("b", "world", false);
    assert.equal(t.settled(), false);
    t.apply({ kind: "status", taskId: "t", contextId: "c", state: "completed", text: "" });
    assert.equal(t.settled(), true);
    assert.deepEqual(taskOutcome(t, "peer"), { status: "ok", text: "hello\nworld" });
  });

  test("a failed or waiting task is an error naming its state and words", () => {
    const t = taskTracker();
    t.apply({ kind: "status", taskId: "t", contextId: "c", state: "failed", text: "no disk" });
    assert.deepEqual(taskOutcome(t, "peer"), {
      status: "error",
      error: "remote agent 'peer' ended the task as failed: no disk",
    });
    const w = taskTracker();
    w.apply({
      kind: "status",
      taskId: "t",
      contextId: "c",
      state: "input-required",
      text: "which?",
    });
    const o = taskOutcome(w, "peer");
    assert.equal(o.status, "error");
    assert.match(
      o.status === "error" ? o.error : "",
      /waits for input \(input-required\): which\?/,
    );
  });

  test("with a schema: a data part, or the text as JSON, must satisfy it", () => {
    const check = {
      validate: (d: unknown) =>
        typeof (d as { n?: unknown })?.n === "number"
          ? { ok: true as const }
          : { ok: false as const, errors: ["(root): must have required property 'n'"] },
    };
    const fromData = taskTracker();
    fromData.apply({
      kind: "message",
      taskId: "",
      contextId: "c",
      content: { text: "", data: { n: 1 } },
    });
    assert.deepEqual(taskOutcome(fromData, "p", check), { status: "ok", text: "", data: { n: 1 } });
    const fenced = taskTracker();
    fenced.apply({
      kind: "message",
      taskId: "",
      contextId: "c",
      content: { text: '```json\n{"n":2}\n```' },
    });
    assert.equal(taskOutcome(fenced, "p", check).status, "ok");
    const wrong = taskTracker();
    wrong.apply({ kind: "message", taskId: "", contextId: "c", content: { text: '{"m":2}' } });
    assert.match(
      JSON.stringify(taskOutcome(wrong, "p", check)),
      /does not match the output schema: \(root\): must have required property 'n'/,
    );
  });
});
