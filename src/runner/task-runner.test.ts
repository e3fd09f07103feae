import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { taskToolDescription, validateRequest } from "./task-runner.ts";
import { loadBundledAgents } from "../discovery/bundled.ts";

describe("validateRequest", () => {
  const t = (id: string, assignment = "do it") => ({ id, assignment });
  const cases: [string, Parameters<typeof validateRequest>[0], RegExp | undefined][] = [
    ["one task", { agent: "x", tasks: [t("a")] }, undefined],
    ["no tasks", { agent: "x", tasks: [] }, /no task/],
    [
      "too many tasks",
      { agent: "x", tasks: Array.from({ length: 65 }, (_, i) => t(`t${i}`)) },
      /^65 tasks in one call: at most 64 are allowed/,
    ],
    [
      "64 tasks",
      { agent: "x", tasks: Array.from({ length: 64 }, (_, i) => t(`t${i}`)) },
      undefined,
    ],
    ["empty id", { agent: "x", tasks: [t(" ")] }, /id is empty/],
    [
      "duplicate ids ignoring case",
      { agent: "x", tasks: [t("Auth"), t("auth")] },
      /unique.*"Auth" and "auth"/,
    ],
    ["empty assignment", { agent: "x", tasks: [t("a", "  ")] }, /"a" has an empty assignment/],
    ["long id", { agent: "x", tasks: [t("x".repeat(65))] }, /longer than 64/],
    ["bad timeout", { agent: "x", tasks: [t("a")], timeout: 0 }, /timeout/],
  ];
  for (const [name, req, expected] of cases) {
    test(name, () => {
      const r = validateRequest(req);
      if (expected) assert.match(r ?? "", expected);
      else assert.equal(r, undefined);
    });
  }
});

test("the description names every agent with its tools", async () => {
  const d = taskToolDescription(await loadBundledAgents());
  for (const name of ["explore", "plan", "designer", "reviewer", "task", "quick_task"]) {
    assert.match(d, new RegExp(`^- ${name}: `, "m"));
  }
  assert.match(d, /- explore: .*tools: read, grep, find, ls, bash; returns structured data/);
});

describe("TaskTool", () => {
  test("an agent file added after create() is runnable though absent from the description", async () => {
    const { mkdtempSync, mkdirSync, writeFileSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const { TaskTool } = await import("./task-runner.ts");
    const { defaultConfig } = await import("../config/validate.ts");
    const root = mkdtempSync(join(tmpdir(), "xcsh-tool-"));
    try {
      const cwd = join(root, "project");
      const home = join(root, "home");
      mkdirSync(join(cwd, ".xcsh", "agents"), { recursive: true });
      mkdirSync(home);
      const tool = await TaskTool.create({
        env: { cwd, home, env: {} },
        config: { ...defaultConfig(), models: { default: "ollama/qwen3", roles: {}, aliases: {} } },
        caller: { depth: 0, spawns: "*" },
        runId: "test",
      });
      assert.doesNotMatch(tool.description, /latecomer/);
      writeFileSync(
        join(cwd, ".xcsh", "agents", "latecomer.md"),
        "---\nname: latecomer\ndescription: Arrived late\n---\nHello.\n",
      );
      const prepared = await tool.prepare({
        agent: "latecomer",
        tasks: [{ id: "a", assignment: "hi" }],
      });
      assert.ok(prepared.ok, prepared.ok ? "" : prepared.message);
      assert.equal(prepared.ok && prepared.tasks[0].envelope.agent.name, "latecomer");
      assert.doesNotMatch(tool.description, /latecomer/, "the description is not rebuilt");
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
