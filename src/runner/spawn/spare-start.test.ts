// Whether a call starts spare children, how many, and the environment they start with.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { defaultConfig } from "../../config/validate.ts";
import type { XcshConfig } from "../../types.ts";
import { childBaseEnvironment, spareSetting } from "./spare-start.ts";

const env = { PATH: "/usr/bin", HOME: "/home/ada", ANTHROPIC_API_KEY: "sk-ant", UNSET: undefined };

/** The default config with a custom provider keyed by MY_KEY and a launcher named `grid`. */
function config(launcher?: string): XcshConfig {
  const base = defaultConfig();
  return {
    ...base,
    providers: {
      ...base.providers,
      mine: { type: "openai-compatible", baseURL: "http://127.0.0.1:1/v1", apiKeyEnv: "MY_KEY" },
    } as XcshConfig["providers"],
    task: {
      ...base.task,
      launchers: { grid: { args: ["srun", "--"], shell: false } },
      ...(launcher !== undefined ? { launcher } : {}),
    },
  };
}

describe("childBaseEnvironment", () => {
  test("keeps the environment but the key variables the config names, and unset ones", () => {
    assert.deepEqual(childBaseEnvironment({ ...env, MY_KEY: "k", OTHER: "o" }, config()), {
      PATH: "/usr/bin",
      HOME: "/home/ada",
      OTHER: "o",
    });
  });
});

describe("spareSetting", () => {
  const one = { tasks: 1, cores: 2 };
  test("a top-level call: the base environment one level deeper", () => {
    assert.deepEqual(spareSetting({ config: config(), depth: 0, env, call: {}, ...one }), {
      env: { PATH: "/usr/bin", HOME: "/home/ada", XCSH_TASK_DEPTH: "1" },
      count: 1,
    });
  });
  test("one per task that may start at once, no more than the cores", () => {
    const count = (tasks: number, cores: number, maxConcurrency = 8) =>
      spareSetting({
        config: { ...config(), task: { ...config().task, maxConcurrency } },
        depth: 0,
        env,
        call: {},
        tasks,
        cores,
      })?.count;
    assert.equal(count(32, 2), 2, "the cores");
    assert.equal(count(3, 16), 3, "the tasks");
    assert.equal(count(32, 16, 4), 4, "the concurrency");
    assert.equal(count(32, 16, 1), 1);
    assert.equal(count(1, 0), 1, "a machine that reports no cores still gets one");
  });
  test("a child's call counts from its own depth", () => {
    assert.equal(
      spareSetting({ config: config(), depth: 2, env, call: {}, ...one })?.env.XCSH_TASK_DEPTH,
      "3",
    );
  });
  test("none for a dry run or for tasks in worktrees of their own", () => {
    assert.equal(
      spareSetting({ config: config(), depth: 0, env, call: {}, ...one, dryRun: true }),
      undefined,
    );
    assert.equal(
      spareSetting({ config: config(), depth: 0, env, call: { isolation: "worktree" }, ...one }),
      undefined,
    );
  });
  test("none when a launcher starts the tasks elsewhere: the call's or the config's", () => {
    assert.equal(
      spareSetting({ config: config(), depth: 0, env, call: { launcher: "grid" }, ...one }),
      undefined,
    );
    assert.equal(
      spareSetting({ config: config("grid"), depth: 0, env, call: {}, ...one }),
      undefined,
    );
    assert.equal(
      spareSetting({
        config: config("grid"),
        depth: 0,
        env,
        call: { launcher: "unknown" },
        ...one,
      }),
      undefined,
      "a launcher the config does not define: the call is refused later",
    );
  });
  test("a local launcher, or a child's call under a configured launcher, gets one", () => {
    assert.ok(
      spareSetting({ config: config("grid"), depth: 0, env, call: { launcher: "local" }, ...one }),
    );
    assert.ok(spareSetting({ config: config("grid"), depth: 1, env, call: {}, ...one }));
  });
});
