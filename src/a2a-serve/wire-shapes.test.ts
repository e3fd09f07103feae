import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  artifactEventJson,
  sendResultJson,
  statusEventJson,
  taskJson,
  type TaskView,
} from "./wire-shapes.ts";
import { MAX_CONTEXTS, TaskBook } from "./task-book.ts";
import { agentCard, cardShapeFor } from "./served-card.ts";
import type { AgentDefinition } from "../types.ts";

const view: TaskView = {
  id: "t1",
  contextId: "c1",
  status: {
    state: "completed",
    timestamp: "2026-01-01T00:00:00.000Z",
  },
  artifacts: [{ artifactId: "a1", name: "result", text: "[1,2]", data: [1, 2] }],
  history: [{ messageId: "m1", role: "user", text: "hi" }],
};

describe("wire shapes", () => {
  test("1.0: ProtoJSON enums, parts by field, wrapped events", () => {
    assert.deepEqual(sendResultJson(view, "1.0"), {
      task: {
        id: "t1",
        contextId: "c1",
        status: { state: "TASK_STATE_COMPLETED", timestamp: "2026-01-01T00:00:00.000Z" },
        artifacts: [{
          artifactId: "a1",
          name: "result",
          parts: [{ text: "[1,2]" }, { data: [1, 2], mediaType: "application/json" }],
        }],
        history: [{
          messageId: "m1",
          contextId: "c1",
          taskId: "t1",
          role: "ROLE_USER",
          parts: [{ text: "hi" }],
        }],
      },
    });
    assert.deepEqual(Object.keys(statusEventJson(view, "1.0")), ["statusUpdate"]);
    assert.deepEqual(Object.keys(artifactEventJson(view, view.artifacts[0], "1.0")), [
      "artifactUpdate",
    ]);
  });

  test("0.3: kinds, lower-case states, final, data wrapped in an object", () => {
    const t = sendResultJson(view, "0.3") as Record<string, unknown>;
    assert.equal(t.kind, "task");
    assert.equal((t.status as { state: string }).state, "completed");
    assert.deepEqual((t.artifacts as { parts: unknown[] }[])[0].parts, [
      { kind: "text", text: "[1,2]" },
      { kind: "data", data: { value: [1, 2] } },
    ]);
    assert.deepEqual(statusEventJson(view, "0.3"), {
      kind: "status-update",
      taskId: "t1",
      contextId: "c1",
      status: { state: "completed", timestamp: "2026-01-01T00:00:00.000Z" },
      final: true,
    });
    const working = { ...view, status: { ...view.status, state: "working" as const } };
    assert.equal(statusEventJson(working, "0.3").final, false);
  });

  test("historyLength bounds the history", () => {
    assert.equal(taskJson(view, "1.0", 0).history, undefined);
    assert.equal((taskJson(view, "1.0", 5).history as unknown[]).length, 1);
  });
});

describe("TaskBook", () => {
  test("a task is found only under its agent; a terminal state is never left", () => {
    const book = new TaskBook(() => 1000);
    const t = book.create("a", { messageId: "m", text: "x" });
    assert.equal(book.find("a", t.id), t);
    assert.equal(book.find("b", t.id), undefined);
    const seen: string[] = [];
    t.subscribe((c) => seen.push(c.kind === "status" ? t.status.state : "artifact"));
    t.setStatus("working", "started");
    t.setStatus("canceled", "stop");
    t.setStatus("completed");
    t.addArtifact({ artifactId: "z", name: "r", text: "late" });
    assert.deepEqual(seen, ["working", "canceled"]);
    assert.equal(t.artifacts.length, 0);
    assert.deepEqual(book.running(), []);
  });

  test("ended tasks go after an hour; running ones stay", () => {
    let now = 0;
    const book = new TaskBook(() => now);
    const ended = book.create("a", { messageId: "m", text: "x" });
    const running = book.create("a", { messageId: "m", text: "y" });
    ended.setStatus("completed");
    now = 2 * 60 * 60 * 1000;
    assert.equal(book.find("a", ended.id), undefined);
    assert.equal(book.find("a", running.id), running);
  });
});

describe("TaskBook sessions", () => {
  test("a context of an agent remembers its last session; others are apart", () => {
    const book = new TaskBook();
    book.keepSession("a", "c1", "s1");
    book.keepSession("a", "c1", "s2");
    assert.equal(book.sessionOf("a", "c1"), "s2");
    assert.equal(book.sessionOf("b", "c1"), undefined, "another agent's context");
    assert.equal(book.sessionOf("a", "c2"), undefined);
  });

  test("past the cap the oldest context is forgotten", () => {
    const book = new TaskBook();
    for (let i = 0; i <= MAX_CONTEXTS; i++) book.keepSession("a", `c${i}`, `s${i}`);
    assert.equal(book.sessionOf("a", "c0"), undefined);
    assert.equal(book.sessionOf("a", `c${MAX_CONTEXTS}`), `s${MAX_CONTEXTS}`);
  });
});

describe("agentCard", () => {
  const agent = {
    name: "rev/iewer",
    description: "Reviews code.",
    source: "project",
    family: "claude",
    output: { type: "object" },
  } as unknown as AgentDefinition;

  test("the 1.0 card: interfaces, bearer scheme, one skill", () => {
    const c = agentCard(agent, "http://127.0.0.1:9", "1.0");
    const url = "http://127.0.0.1:9/agents/rev%2Fiewer/";
    assert.deepEqual(c.supportedInterfaces, [
      { url, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
      { url, protocolBinding: "JSONRPC", protocolVersion: "0.3" },
    ]);
    assert.equal(c.url, undefined);
    assert.deepEqual(c.securityRequirements, [{ schemes: { bearer: { list: [] } } }]);
    assert.equal((c.skills as unknown[]).length, 1);
    assert.deepEqual(c.defaultOutputModes, ["text/plain", "application/json"]);
  });

  test("the 0.3 hybrid keeps supportedInterfaces", () => {
    const c = agentCard(agent, "http://h:1", "0.3");
    assert.equal(c.protocolVersion, "0.3.0");
    assert.equal(c.url, "http://h:1/agents/rev%2Fiewer/");
    assert.equal(c.preferredTransport, "JSONRPC");
    assert.deepEqual(c.securitySchemes, {
      bearer: { type: "http", scheme: "bearer", description: "XCSH_A2A_TOKEN" },
    });
    assert.ok(Array.isArray(c.supportedInterfaces));
  });

  test("A2A-Version picks the shape; none is 0.3", () => {
    assert.equal(cardShapeFor("1.0"), "1.0");
    assert.equal(cardShapeFor("1"), "1.0");
    assert.equal(cardShapeFor(undefined), "0.3");
    assert.equal(cardShapeFor("0.3"), "0.3");
    assert.equal(cardShapeFor("10.0"), "0.3");
  });
});
