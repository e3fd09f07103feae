// Whether a call starts a spare child, and the environment it starts with.
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
  test("a top-level call: the base environment one level deeper", () => {
    assert.deepEqual(spareSetting({ config: config(), depth: 0, env, call: {} }), {
      env: { PATH: "/usr/bin", HOME: "/home/ada", XCSH_TASK_DEPTH: "1" },
    });
  });
  test("a child's call counts from its own depth", () => {
    assert.equal(
      spareSetting({ config: config(), depth: 2, env, call: {} })?.env.XCSH_TASK_DEPTH,
      "3",
    );
  });
  test("none for a dry run or for tasks in worktrees of their own", () => {
    assert.equal(
      spareSetting({ config: config(), depth: 0, env, call: {}, dryRun: true }),
      undefined,
    );
    assert.equal(
      spareSetting({ config: config(), depth: 0, env, call: { isolation: "worktree" } }),
      undefined,
    );
  });
  test("none when a launcher starts the tasks elsewhere: the call's or the config's", () => {
    assert.equal(
      spareSetting({ config: config(), depth: 0, env, call: { launcher: "grid" } }),
      undefined,
    );
    assert.equal(spareSetting({ config: config("grid"), depth: 0, env, call: {} }), undefined);
    assert.equal(
      spareSetting({ config: config("grid"), depth: 0, env, call: { launcher: "unknown" } }),
      undefined,
      "a launcher the config does not define: the call is refused later",
    );
  });
  test("a local launcher, or a child's call under a configured launcher, gets one", () => {
    assert.ok(spareSetting({ config: config("grid"), depth: 0, env, call: { launcher: "local" } }));
    assert.ok(spareSetting({ config: config("grid"), depth: 1, env, call: {} }));
  });
});
