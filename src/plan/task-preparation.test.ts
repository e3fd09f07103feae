import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  ignoredFieldsWarning,
  planModeFor,
  requestedModel,
  resumesOnly,
  schemaOrigin,
  taskLimits,
  withConfigHooks,
} from "./task-preparation.ts";
import type { AgentDefinition } from "../types.ts";

const agent = (extra: Partial<AgentDefinition> = {}): AgentDefinition => ({
  name: "a",
  description: "d",
  systemPrompt: "",
  source: "project",
  family: "xcsh",
  ...extra,
});

describe("planModeFor", () => {
  test("any of the three turns it on; none leaves it off", () => {
    const none = { request: undefined, caller: undefined, agent: undefined };
    assert.equal(planModeFor(none), false);
    assert.equal(planModeFor({ ...none, request: true }), true);
    assert.equal(planModeFor({ ...none, caller: true }), true);
    assert.equal(planModeFor({ ...none, agent: true }), true);
    assert.equal(planModeFor({ request: false, caller: false, agent: false }), false);
  });
});

describe("ignoredFieldsWarning", () => {
  test("none for an agent without ignored fields", () => {
    assert.equal(ignoredFieldsWarning(agent()), undefined);
    assert.equal(ignoredFieldsWarning(agent({ ignoredFields: [] })), undefined);
  });
  test("one warning naming the file, the first field and all of them", () => {
    assert.deepEqual(
      ignoredFieldsWarning(agent({ filePath: "/p/a.md", ignoredFields: ["color"] })),
      {
        level: "warning",
        file: "/p/a.md",
        field: "color",
        message: "color is not used by xcsh (xcsh agents check says why)",
      },
    );
    assert.match(
      ignoredFieldsWarning(agent({ ignoredFields: ["color", "x"] }))!.message,
      /^color, x are not used/,
    );
  });
});

describe("schemaOrigin", () => {
  const agentOutput = { type: "object" };
  const callSchema = { type: "string" };
  const o = { agentName: "a", agentOutput, callSchema };
  test("the agent's, the call's, else the calling session's", () => {
    assert.equal(schemaOrigin(agentOutput, o), "agent 'a' output");
    assert.equal(schemaOrigin(callSchema, o), "the call's schema");
    assert.equal(schemaOrigin({ other: 1 }, o), "the calling session's schema");
  });
});

describe("withConfigHooks", () => {
  test("no config hooks: the agent unchanged", () => {
    const a = agent();
    assert.equal(withConfigHooks(a, undefined), a);
    assert.equal(withConfigHooks(a, {}), a);
  });
  test("config hooks come first, stamped as the config's", () => {
    const a = agent({ hooks: { PreToolUse: [{ hooks: [{ command: "b" }] }] } });
    const out = withConfigHooks(a, {
      PreToolUse: [{ hooks: [{ command: "c" }] }],
    });
    const groups = out.hooks?.PreToolUse ?? [];
    assert.equal(groups.length, 2);
    assert.equal(groups[0].from, "config");
    assert.equal(groups[0].hooks[0].command, "c");
  });
});

describe("taskLimits", () => {
  test("turns default to 50, seconds become a timer's milliseconds", () => {
    assert.deepEqual(taskLimits({ maxTurns: undefined, timeoutS: 60 }), {
      maxTurns: 50,
      timeoutMs: 60_000,
      submitRetries: 3,
    });
    assert.equal(taskLimits({ maxTurns: 7, timeoutS: 1e9 }).timeoutMs, 2 ** 31 - 1);
    assert.equal(taskLimits({ maxTurns: 7, timeoutS: 1 }).maxTurns, 7);
  });
});

describe("resumesOnly and requestedModel", () => {
  test("only when every task resumes and no model is asked for", () => {
    const t = (resume?: string) => ({ id: "x", assignment: "", ...(resume ? { resume } : {}) });
    assert.equal(resumesOnly({ agent: "a", tasks: [t("s1"), t("s2")] }), true);
    assert.equal(resumesOnly({ agent: "a", tasks: [t("s1"), t()] }), false);
    assert.equal(resumesOnly({ agent: "a", model: "m", tasks: [t("s1")] }), false);
  });
  test("the call's, the user's, the override, the agent's list, else null", () => {
    const base = { request: undefined, envModel: undefined, override: undefined };
    assert.equal(requestedModel({ ...base, agent: agent() }), null);
    assert.equal(requestedModel({ ...base, agent: agent({ model: ["x", "y"] }) }), "x, y");
    assert.equal(requestedModel({ ...base, override: "o", agent: agent({ model: ["x"] }) }), "o");
    assert.equal(requestedModel({ ...base, envModel: "e", override: "o", agent: agent() }), "e");
    assert.equal(requestedModel({ ...base, request: "r", envModel: "e", agent: agent() }), "r");
  });
});
