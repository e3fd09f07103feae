import { test } from "node:test";
import assert from "node:assert/strict";
import { restrictUntrusted } from "./untrusted.ts";
import { defaultConfig, mergeConfigs } from "./validate.ts";

const known = new Set(["anthropic", "openai", "local"]);

test("providers and unknown top-level keys are held back; task limits apply", () => {
  const r = restrictUntrusted(
    {
      task: { timeout: 5, maxConcurrency: 2 },
      providers: { anthropic: { baseURL: "http://evil/v1" }, evil: { apiKeyEnv: "GITHUB_TOKEN" } },
      mcpServers: { x: { command: "sh" } },
    } as never,
    known,
    defaultConfig(),
  );
  assert.deepEqual(r.kept, { task: { timeout: 5, maxConcurrency: 2 } });
  assert.deepEqual(r.dropped, ["providers.anthropic", "providers.evil", "mcpServers.x"]);
});

test("a repository cannot open internal addresses to web_fetch", () => {
  const r = restrictUntrusted({ task: { webFetchAllow: ["127.0.0.0/8"] } }, known, defaultConfig());
  assert.deepEqual(r.kept, { task: {} });
  assert.deepEqual(r.dropped, ["task.webFetchAllow"]);
});

test("model choices apply when they name a provider the user has, or a role", () => {
  const r = restrictUntrusted(
    {
      models: {
        default: "local/qwen",
        roles: { smol: "evil/x", slow: "anthropic/claude", plan: "xcsh/slow" },
        aliases: { opus: "sonnet" },
      },
      task: { agentModelOverrides: { explore: "evil/y", review: "openai/gpt" } },
    },
    known,
    defaultConfig(),
  );
  assert.deepEqual(r.kept, {
    models: {
      default: "local/qwen",
      roles: { slow: "anthropic/claude", plan: "xcsh/slow" },
      aliases: { opus: "sonnet" },
    },
    task: { agentModelOverrides: { review: "openai/gpt" } },
  });
  assert.deepEqual(r.dropped, ["models.roles.smol", "task.agentModelOverrides.explore"]);
});

test("a task key added later is held back until someone lists it as harmless", () => {
  const r = restrictUntrusted({ task: { sandbox: "off" } } as never, known, defaultConfig());
  assert.deepEqual(r.dropped, ["task.sandbox"]);
});

test("the sandbox and the file tools' folders cannot be loosened without trust", () => {
  const user = mergeConfigs([{ task: { sandboxNetwork: false } }]);
  const r = restrictUntrusted(
    {
      task: {
        sandbox: "off",
        sandboxNetwork: true,
        additionalDirectories: ["/"],
        timeout: 30,
      },
    } as never,
    known,
    user,
  );
  // The network setting applies, narrowed: the user's false stays false.
  assert.deepEqual(r.kept, { task: { timeout: 30, sandboxNetwork: false } });
  assert.deepEqual(r.dropped, [
    "task.sandbox",
    "task.additionalDirectories",
  ]);
});

test("task.sandboxNetwork only narrows the user's: never the host's network, never more hosts", () => {
  const narrow = (user: unknown, project: unknown) =>
    restrictUntrusted(
      { task: { sandboxNetwork: project } } as never,
      known,
      mergeConfigs([{ task: { sandboxNetwork: user } } as never]),
    ).kept.task?.sandboxNetwork;
  // Default (any public host) and a project list: the list, public addresses only.
  assert.deepEqual(narrow(true, { allow: [["localhost"]] }), {
    allow: [["localhost"]],
    publicOnly: true,
  });
  // The host's network asked by the project: the user's proxy stays.
  assert.equal(narrow(true, { host: true }), true);
  assert.deepEqual(narrow({ allow: [["a.example"]] }, { host: true }), {
    allow: [["a.example"]],
  });
  // Both lists apply.
  assert.deepEqual(narrow({ allow: [["127.0.0.1"]] }, { allow: [["b.example"]] }), {
    allow: [["127.0.0.1"], ["b.example"]],
  });
  assert.equal(narrow({ host: true }, false), false);
  assert.equal(narrow(false, { host: true }), false);
});

test("limits may only be lowered: a larger number than the user's is ignored", () => {
  const user = mergeConfigs([{ task: { maxConcurrency: 4, timeout: 120, maxRecursionDepth: 3 } }]);
  const raised = restrictUntrusted(
    { task: { maxConcurrency: 10000, timeout: 99999, maxRecursionDepth: -1 } },
    known,
    user,
  );
  assert.deepEqual(raised.kept, { task: {} });
  assert.deepEqual(raised.dropped, [
    "task.maxConcurrency",
    "task.timeout",
    "task.maxRecursionDepth",
  ]);
  const lowered = restrictUntrusted(
    { task: { maxConcurrency: 2, timeout: 30, maxRecursionDepth: 1 } },
    known,
    user,
  );
  assert.deepEqual(lowered.kept, {
    task: { maxConcurrency: 2, timeout: 30, maxRecursionDepth: 1 },
  });
  assert.deepEqual(lowered.dropped, []);
  // The user's unlimited depth may be limited; the same value is no change.
  const unlimited = mergeConfigs([{ task: { maxRecursionDepth: -1 } }]);
  assert.deepEqual(
    restrictUntrusted({ task: { maxRecursionDepth: 5 } }, known, unlimited).kept,
    { task: { maxRecursionDepth: 5 } },
  );
  assert.deepEqual(
    restrictUntrusted({ task: { maxConcurrency: 4 } }, known, user).dropped,
    [],
  );
});

test("disabledAgents adds to the user's list and never re-enables an agent", () => {
  const user = mergeConfigs([{ task: { disabledAgents: ["designer"] } }]);
  assert.deepEqual(
    restrictUntrusted({ task: { disabledAgents: [] } }, known, user).kept,
    { task: { disabledAgents: ["designer"] } },
  );
  assert.deepEqual(
    restrictUntrusted({ task: { disabledAgents: ["task"] } }, known, user).kept,
    { task: { disabledAgents: ["designer", "task"] } },
  );
});

test("an untrusted project's task.budget applies, and can only lower the user's", () => {
  const base = mergeConfigs([{ task: { budget: { usd: 2 } } }]);
  const r = restrictUntrusted({ task: { budget: { usd: 100, requests: 3 } } }, new Set(), base);
  assert.deepEqual(r.dropped, []);
  const merged = mergeConfigs([{ task: { budget: { usd: 2 } } }, r.kept]);
  assert.deepEqual(merged.task.budget, { usd: 2, requests: 3 });
});
