import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  announcingTools,
  displayFile,
  redactingTools,
  stopMessage,
  StopReason,
  toolContextFor,
} from "./child-steps.ts";
import { ModelCallError } from "./retries.ts";
import { defaultConfig } from "../config/validate.ts";
import type { ToolSpec } from "../tools/tool-spec.ts";
import type { TaskEnvelope } from "../protocol/envelope.ts";
import { plan } from "../../tests/support/plan.ts";

const envelope = (extra: Partial<TaskEnvelope> = {}): TaskEnvelope =>
  plan({
    id: "0",
    agent: { name: "a", description: "d", systemPrompt: "", source: "bundled", family: "bundled" },
    assignment: "",
    model: "local/m",
    cwd: "/p",
    limits: { maxTurns: 50, timeoutMs: 1000, submitRetries: 3 },
    ...extra,
  });

describe("redactingTools", () => {
  test("a tool's output and summary lose the secrets", async () => {
    const spec = {
      name: "t",
      description: "",
      inputSchema: {},
      run: () => Promise.resolve({ ok: true, output: "key sk-abcdefgh1", summary: "sk-abcdefgh1" }),
    } as unknown as ToolSpec;
    const tools = redactingTools(new Map([["t", spec]]), ["sk-abcdefgh1"]);
    const out = await tools.get("t")!.run({}, {} as never);
    assert.doesNotMatch(out.output, /sk-abcdefgh1/);
    assert.doesNotMatch(out.summary ?? "", /sk-abcdefgh1/);
  });
});

describe("announcingTools", () => {
  test("the hook runs before each call, and the call runs", async () => {
    const seen: string[] = [];
    const spec = {
      name: "t",
      description: "",
      inputSchema: {},
      run: () => {
        seen.push("run");
        return Promise.resolve({ ok: true, output: "done" });
      },
    } as unknown as ToolSpec;
    const tools = announcingTools(new Map([["t", spec]]), () => seen.push("before"));
    assert.equal((await tools.get("t")!.run({}, {} as never)).output, "done");
    await tools.get("t")!.run({}, {} as never);
    assert.deepEqual(seen, ["before", "run", "before", "run"]);
  });

  test("without a hook the tools are the same", () => {
    const tools = new Map<string, ToolSpec>();
    assert.equal(announcingTools(tools, undefined), tools);
  });
});

describe("toolContextFor", () => {
  const base = {
    config: defaultConfig(),
    workspace: { roots: ["/p"] },
    signal: new AbortController().signal,
    commandEnv: () => ({}),
    findings: [],
    runTask: () => Promise.resolve([]),
  };
  test("the workspace's roots and folders; skills only with the skill tool", () => {
    const e = envelope({
      memory: { dir: "/m", head: "" },
      skills: [{ name: "s", description: "", filePath: "/s/one/SKILL.md" }],
    });
    const folders = { writable: [{ path: "/p", id: { dev: 1, ino: 2 } }], readOnly: [] };
    const without = toolContextFor({
      ...base,
      workspace: { roots: ["/p", "/m"], folders },
      envelope: e,
      hasSkillTool: false,
    });
    assert.deepEqual(without.roots, ["/p", "/m"]);
    assert.equal(without.folders, folders);
    assert.equal(without.skills, undefined);
    const withSkill = toolContextFor({ ...base, envelope: e, hasSkillTool: true });
    assert.deepEqual(withSkill.readRoots, ["/s/one"]);
  });
  test("the commands' environment is not worked out before a tool reads it", () => {
    let made = 0;
    const ctx = toolContextFor({
      ...base,
      envelope: envelope(),
      hasSkillTool: false,
      commandEnv: () => (made++, { PATH: "/usr/bin" }),
    });
    assert.equal(made, 0);
    assert.deepEqual(ctx.env, { PATH: "/usr/bin" });
    assert.equal(made, 1);
  });
});

describe("stopMessage", () => {
  const target = { model: "local/m", baseURL: "http://127.0.0.1:1/v1" };
  test("a timeout names the limit, the model and its server", () => {
    assert.equal(
      stopMessage(new StopReason("timed out after 1 s"), 1000, target),
      "timed out after 1 s (limits.timeoutMs 1000; model local/m at http://127.0.0.1:1/v1)",
    );
  });
  test("other stops and model errors as they are; anything else is internal", () => {
    assert.equal(stopMessage(new StopReason("interrupted"), 1, target), "interrupted");
    assert.equal(stopMessage(new ModelCallError("503"), 1, target), "503");
    assert.equal(stopMessage(new Error("boom"), 1, target), "internal error: boom");
    assert.equal(stopMessage("odd", 1, target), "internal error: odd");
  });
  test("displayFile: the config when there is no file", () => {
    assert.equal(displayFile(undefined, "/h"), "config");
    assert.equal(displayFile("/h/.xcsh/config.yml", "/h"), "~/.xcsh/config.yml");
  });
});
