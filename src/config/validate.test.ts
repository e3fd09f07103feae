import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { defaultConfig, mergeConfigs, validateConfig } from "./validate.ts";

const FILE = "/home/u/.xcsh/agent/config.yml";

describe("validateConfig", () => {
  test("a file that is no mapping is described by kind, its text never quoted", () => {
    for (const doc of ["OPENAI_API_KEY=sk-proj-SECRET0123456789", "ghp_SECRET"]) {
      const r = validateConfig(doc, FILE);
      assert.ok(!r.ok);
      assert.match(r.error.message, /must hold a mapping .*got a string of \d+ characters$/);
      assert.ok(!r.error.message.includes("SECRET"), r.error.message);
    }
    const list = validateConfig(["x"], FILE);
    assert.ok(!list.ok && /got a list$/.test(list.error.message));
  });
  test("an empty document is an empty config", () => {
    assert.deepEqual(validateConfig(null, FILE), { ok: true, value: {}, warnings: [] });
  });

  test("accepts every documented key", () => {
    const r = validateConfig({
      task: {
        maxRecursionDepth: -1,
        maxConcurrency: 4,
        timeout: 90.5,
        disabledAgents: ["designer"],
        agentModelOverrides: { explore: "ollama/qwen3" },
      },
      models: {
        default: "anthropic/claude",
        roles: { smol: "ollama/q" },
        aliases: { Opus: "x/y" },
      },
      providers: {
        local: { type: "openai-compatible", baseURL: "http://127.0.0.1:8080/v1/" },
        anthropic: { requestsPerMinute: 50, tokensPerMinute: 30000, maxConcurrentRequests: 4 },
      },
    }, FILE);
    assert.ok(r.ok);
    assert.deepEqual(r.warnings, []);
    assert.deepEqual(r.value.providers?.anthropic, {
      requestsPerMinute: 50,
      tokensPerMinute: 30000,
      maxConcurrentRequests: 4,
    });
    assert.equal(r.value.task?.maxRecursionDepth, -1);
    assert.deepEqual(r.value.models?.aliases, { opus: "x/y" });
    assert.equal(r.value.providers?.local.baseURL, "http://127.0.0.1:8080/v1");
  });

  test("hooks: Claude Code's shape, merged file after file; a broken block names the key", () => {
    const hooks = { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "a" }] }] };
    const r = validateConfig({ hooks }, FILE);
    assert.ok(r.ok);
    assert.deepEqual(r.value.hooks, {
      PreToolUse: [{ matcher: "Bash", hooks: [{ command: "a" }] }],
    });
    const merged = mergeConfigs([r.value, { hooks: { Stop: [{ hooks: [{ command: "b" }] }] } }]);
    assert.deepEqual(Object.keys(merged.hooks ?? {}), ["PreToolUse", "Stop"]);
    const bad = validateConfig({ hooks: { PreToolUse: "x" } }, FILE);
    assert.ok(!bad.ok);
    assert.equal(bad.error.field, "hooks.PreToolUse");
  });

  test("sandbox keys: modes (Codex's danger-full-access is off), network, folders", () => {
    const r = validateConfig({
      task: {
        sandbox: "danger-full-access",
        sandboxNetwork: false,
        additionalDirectories: ["/data", "~/notes"],
      },
    }, FILE);
    assert.ok(r.ok);
    assert.deepEqual(r.value.task, {
      sandbox: "off",
      sandboxNetwork: false,
      additionalDirectories: ["/data", "~/notes"],
    });
    assert.deepEqual(defaultConfig().task.sandbox, undefined, "no mode: the default");
    assert.equal(defaultConfig().task.sandboxNetwork, true);
  });

  test("sandboxNetwork: host, or an allow list of hosts; a bad entry names the key", () => {
    const host = validateConfig({ task: { sandboxNetwork: "host" } }, FILE);
    assert.ok(host.ok);
    assert.deepEqual(host.value.task?.sandboxNetwork, { host: true });
    const list = validateConfig({ task: { sandboxNetwork: { allow: ["*.github.com"] } } }, FILE);
    assert.ok(list.ok);
    assert.deepEqual(list.value.task?.sandboxNetwork, { allow: [["*.github.com"]] });
    const bad = validateConfig({ task: { sandboxNetwork: { allow: ["a b"] } } }, FILE);
    assert.ok(!bad.ok);
    assert.equal(bad.error.field, "task.sandboxNetwork");
    assert.match(bad.error.message, /"a b": not a host name/);
  });

  test("unknown keys are warnings naming the key", () => {
    const r = validateConfig({ task: { maxConcurency: 3 }, colour: "red" }, FILE);
    assert.ok(r.ok);
    assert.deepEqual(r.warnings.map((w) => [w.file, w.field, w.level]), [
      [FILE, "colour", "warning"],
      [FILE, "task.maxConcurency", "warning"],
    ]);
  });

  const bad: [string, unknown, string, RegExp][] = [
    [
      "zero concurrency",
      { task: { maxConcurrency: 0 } },
      "task.maxConcurrency",
      /positive integer, got 0/,
    ],
    ["a string depth", { task: { maxRecursionDepth: "2" } }, "task.maxRecursionDepth", /got "2"/],
    ["a negative timeout", { task: { timeout: -1 } }, "task.timeout", /positive number/],
    [
      "an unknown sandbox mode",
      { task: { sandbox: "readonly" } },
      "task.sandbox",
      /'task.sandbox' must be one of read-only, workspace-write, off .*got "readonly"/,
    ],
    [
      "a sandboxNetwork string",
      { task: { sandboxNetwork: "no" } },
      "task.sandboxNetwork",
      /true or false/,
    ],
    [
      "a relative additional folder",
      { task: { additionalDirectories: ["data"] } },
      "task.additionalDirectories",
      /absolute paths .*got "data"/,
    ],
    [
      "a URL as a web_fetch allow entry",
      { task: { webFetchAllow: ["localhost", "http://intranet/"] } },
      "task.webFetchAllow",
      /host names, \*\.domain suffixes, addresses or address\/bits ranges, got "http:\/\/intranet\/"/,
    ],
    [
      "zero retention days",
      { task: { sessionRetentionDays: 0 } },
      "task.sessionRetentionDays",
      /positive integer \(days\), got 0/,
    ],
    [
      "fractional retention days",
      { task: { sessionRetentionDays: 1.5 } },
      "task.sessionRetentionDays",
      /positive integer \(days\), got 1\.5/,
    ],
    [
      "an allowEnv pattern with * inside",
      { task: { allowEnv: ["A*B"] } },
      "task.allowEnv",
      /got "A\*B"/,
    ],
    [
      "an allowEnv entry that is no variable name",
      { task: { allowEnv: ["GITHUB_TOKEN", "MY VAR"] } },
      "task.allowEnv",
      /'task\.allowEnv' must be a list of environment variable names .*got "MY VAR"/,
    ],
    ["an allowEnv number", { task: { allowEnv: 3 } }, "task.allowEnv", /list of strings/],
    ["a bad provider type", { providers: { p: { type: "grpc" } } }, "providers.p.type", /one of/],
    [
      "a bad base URL",
      { providers: { p: { baseURL: "localhost" } } },
      "providers.p.baseURL",
      /URL/,
    ],
    [
      "a role that is a list",
      { models: { roles: { smol: ["a"] } } },
      "models.roles.smol",
      /string/,
    ],
    ["task as a list", { task: [1] }, "task", /mapping, got a list/],
    [
      "a bad key variable",
      { providers: { p: { apiKeyEnv: "MY KEY" } } },
      "providers.p.apiKeyEnv",
      /variable/,
    ],
    [
      "a context window that is not a whole number of tokens",
      { providers: { p: { contextWindow: "128k" } } },
      "providers.p.contextWindow",
      /whole number of tokens, at least 1024, or a mapping of model names.*got "128k"/,
    ],
    [
      "a model's context window that is too small",
      { providers: { p: { contextWindow: { m: 100 } } } },
      "providers.p.contextWindow.m",
      /at least 1024/,
    ],
    [
      "requests per minute of 0",
      { providers: { p: { requestsPerMinute: 0 } } },
      "providers.p.requestsPerMinute",
      /whole number, at least 1, got 0/,
    ],
    [
      "a concurrency cap that is text",
      { providers: { p: { maxConcurrentRequests: "4" } } },
      "providers.p.maxConcurrentRequests",
      /whole number, at least 1, got "4"/,
    ],
    [
      "tokens per minute that is a fraction",
      { providers: { p: { tokensPerMinute: 1.5 } } },
      "providers.p.tokensPerMinute",
      /whole number/,
    ],
    ["mcpServers as a list", { mcpServers: ["fs"] }, "mcpServers", /mapping of server names/],
    ["an MCP server with nothing to run", { mcpServers: { fs: {} } }, "mcpServers.fs", /'command'/],
    [
      "an MCP server command that is a list",
      { mcpServers: { fs: { command: ["npx"] } } },
      "mcpServers.fs.command",
      /non-empty string, got a list/,
    ],
    [
      "MCP server env that is a list",
      { mcpServers: { fs: { command: "x", env: ["A=1"] } } },
      "mcpServers.fs.env",
      /mapping/,
    ],
    [
      "an MCP server of an unknown type",
      { mcpServers: { fs: { type: "websocket", url: "ws://x" } } },
      "mcpServers.fs.type",
      /stdio or http/,
    ],
    [
      "an MCP server name with a space",
      { mcpServers: { "my server": { command: "x" } } },
      "mcpServers.my server",
      /a name may use only/,
    ],
    [
      "search without a provider",
      { search: { apiKeyEnv: "K" } },
      "search.provider",
      /one of brave, tavily/,
    ],
  ];
  for (const [what, doc, field, message] of bad) {
    test(`${what} is an error naming file and key`, () => {
      const r = validateConfig(doc, FILE);
      assert.ok(!r.ok);
      assert.equal(r.error.file, FILE);
      assert.equal(r.error.field, field);
      assert.match(r.error.message, new RegExp(`^'${field.replace(/\./g, "\\.")}' `));
      assert.match(r.error.message, message);
    });
  }

  test("mcpServers and search: checked, defaults applied, merged per name", () => {
    const r = validateConfig({
      mcpServers: {
        fs: { command: "npx", args: ["-y", "fs"], env: { N: 1 } },
        api: { type: "http", url: "https://a.test/mcp", headers: { A: "b" } },
      },
      search: { provider: "tavily" },
    }, FILE);
    assert.ok(r.ok);
    assert.deepEqual(r.value.mcpServers, {
      fs: { type: "stdio", command: "npx", args: ["-y", "fs"], env: { N: "1" } },
      api: { type: "http", url: "https://a.test/mcp", headers: { A: "b" } },
    });
    const merged = mergeConfigs([r.value, {
      mcpServers: { fs: { type: "stdio", command: "own", args: [], env: {} } },
    }]);
    assert.equal((merged.mcpServers.fs as { command: string }).command, "own");
    assert.ok(merged.mcpServers.api);
    assert.equal(merged.search?.apiKeyEnv, "TAVILY_API_KEY");
  });

  test("a document that is not a mapping is an error", () => {
    const r = validateConfig("just text", FILE);
    assert.ok(!r.ok);
    assert.match(r.error.message, /mapping/);
  });
});

describe("mergeConfigs", () => {
  test("no files give the defaults", () => {
    assert.deepEqual(mergeConfigs([]), defaultConfig());
    assert.equal(defaultConfig().task.maxRecursionDepth, 2);
    assert.equal(defaultConfig().task.maxConcurrency, 8);
    assert.equal(defaultConfig().task.timeout, 600);
  });

  test("later files override key by key", () => {
    const c = mergeConfigs([
      {
        task: { maxConcurrency: 2, agentModelOverrides: { a: "x/1", b: "x/2" } },
        models: { default: "x/d", roles: { smol: "x/s", slow: "x/l" } },
        providers: { p: { type: "openai-compatible", baseURL: "http://a/v1" } },
      },
      {
        task: { timeout: 30, agentModelOverrides: { b: "y/2" } },
        models: { roles: { smol: "y/s" } },
        providers: { p: { baseURL: "http://b/v1" } },
      },
    ]);
    assert.equal(c.task.maxConcurrency, 2);
    assert.equal(c.task.timeout, 30);
    assert.deepEqual(c.task.agentModelOverrides, { a: "x/1", b: "y/2" });
    assert.equal(c.models.default, "x/d");
    assert.deepEqual(c.models.roles, { smol: "y/s", slow: "x/l" });
    assert.deepEqual(c.providers.p, { type: "openai-compatible", baseURL: "http://b/v1" });
  });
});

describe("task.budget", () => {
  test("each limit checked, a bad one named", () => {
    const ok = validateConfig(
      { task: { budget: { usd: 2.5, deadline: "30m", requests: 10 } } },
      FILE,
    );
    assert.ok(ok.ok);
    assert.deepEqual(ok.value.task?.budget, { usd: 2.5, deadline: 1800, requests: 10 });
    for (
      const [budget, key] of [
        [{ usd: "$5" }, "task.budget.usd"],
        [{ usd: 0 }, "task.budget.usd"],
        [{ tokens: -1 }, "task.budget.tokens"],
        [{ pounds: 3 }, "task.budget.pounds"],
        ["lots", "task.budget"],
      ] as const
    ) {
      const r = validateConfig({ task: { budget } }, FILE);
      assert.ok(!r.ok, JSON.stringify(budget));
      assert.ok(r.error.message.includes(`'${key}'`), r.error.message);
    }
  });

  test("files combine limit by limit, the lower winning: a later file never raises one", () => {
    const merged = mergeConfigs([
      { task: { budget: { usd: 1, requests: 50 } } },
      { task: { budget: { usd: 5, tokens: 1000 } } },
    ]);
    assert.deepEqual(merged.task.budget, { usd: 1, requests: 50, tokens: 1000 });
  });
});
