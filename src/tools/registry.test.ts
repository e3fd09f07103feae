import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { sandbox } from "../../tests/support/tool-context.ts";
import { builtinTool, callTool, TOOLS } from "./registry.ts";
import { TOOL_NAMES, TOOL_READ_ONLY } from "../discovery/tool-catalogue.ts";
import { reportFindingTool } from "./report-finding.ts";
import { describeResults, taskTool } from "./task.ts";
import type { TaskRunner } from "./tool-spec.ts";

describe("callTool", () => {
  const sb = sandbox({ "a.txt": "x\n" });
  after(() => sb.remove());

  test("arguments are checked against the tool's schema first", async () => {
    const r = await callTool(TOOLS.read, { file: "a.txt" }, sb.ctx);
    assert.equal(r.ok, false);
    assert.match(r.output, /invalid arguments for read/);
    assert.match(r.output, /must have required property 'path'/);
    assert.match(r.output, /must NOT have additional properties: 'file'/);
    assert.ok((await callTool(TOOLS.read, { path: "a.txt" }, sb.ctx)).ok);
  });

  test("every tool declares readOnly as the catalogue says", () => {
    for (const [name, t] of Object.entries(TOOLS)) {
      assert.equal(t.readOnly, TOOL_READ_ONLY[name as keyof typeof TOOL_READ_ONLY], name);
    }
  });

  test("builtinTool: each catalogued tool by its own name, nothing else", () => {
    for (const name of TOOL_NAMES) {
      const spec = builtinTool(name);
      if (name === "submit_result" || name === "web_search") assert.equal(spec, undefined, name);
      else assert.equal(spec?.name, name);
    }
    for (const name of ["constructor", "toString", "__proto__", "Read", ""]) {
      assert.equal(builtinTool(name), undefined, name);
    }
  });

  test("every tool has a JSON Schema object for its input", () => {
    for (const t of Object.values(TOOLS)) {
      assert.equal(t.inputSchema.type, "object", t.name);
      assert.ok(t.description.length > 20, t.name);
    }
  });
});

describe("report_finding", () => {
  test("collects findings in the context", async () => {
    const sb = sandbox();
    const r = await callTool(
      reportFindingTool,
      { title: "Bug", body: "Off by one", priority: 1 },
      sb.ctx,
    );
    assert.equal(r.output, "Finding 1 recorded.");
    assert.deepEqual(sb.ctx.findings, [{ title: "Bug", body: "Off by one", priority: 1 }]);
    assert.equal(
      (await callTool(reportFindingTool, { title: "x", body: "y", priority: 7 }, sb.ctx)).ok,
      false,
    );
    sb.remove();
  });
});

describe("task", () => {
  test("without a runner, delegation is reported unavailable", async () => {
    const sb = sandbox();
    const r = await callTool(taskTool, {
      agent: "explore",
      tasks: [{ id: "a", assignment: "look" }],
    }, sb.ctx);
    assert.equal(r.ok, false);
    assert.match(r.output, /task delegation is unavailable/);
    sb.remove();
  });

  test("calls the injected runner with the request and the signal", async () => {
    const sb = sandbox();
    let seen: unknown;
    const runner: TaskRunner = (req, signal) => {
      seen = { req, aborted: signal.aborted };
      return Promise.resolve([{
        id: "a",
        agent: req.agent,
        status: "ok",
        data: { n: 1 },
        durationMs: 5,
      }]);
    };
    const r = await callTool(
      taskTool,
      {
        agent: "explore",
        context: "bg",
        tasks: [{ id: "a", description: "d", assignment: "look" }],
      },
      { ...sb.ctx, runTask: runner },
    );
    assert.ok(r.ok);
    assert.equal(r.summary, "explore: 1/1 ok");
    assert.deepEqual(seen, {
      req: {
        agent: "explore",
        context: "bg",
        tasks: [{ id: "a", description: "d", assignment: "look" }],
      },
      aborted: false,
    });
    assert.deepEqual(JSON.parse(r.output), [{
      id: "a",
      agent: "explore",
      status: "ok",
      data: { n: 1 },
    }]);
    sb.remove();
  });

  test("duplicate ids are refused", async () => {
    const sb = sandbox();
    const r = await callTool(taskTool, {
      agent: "x",
      tasks: [{ id: "a", assignment: "1" }, { id: "a", assignment: "2" }],
    }, sb.ctx);
    assert.match(r.output, /used twice/);
    sb.remove();
  });

  test("describeResults keeps what the model needs", () => {
    assert.deepEqual(
      JSON.parse(
        describeResults([{
          id: "b",
          agent: "x",
          status: "error",
          error: "boom",
          artifact: "/tmp/x",
        }]),
      ),
      [
        { id: "b", agent: "x", status: "error", error: "boom" },
      ],
    );
  });
});
