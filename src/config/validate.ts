/**
 * What a parsed config document means: which keys exist, the type each must
 * have, and which problems are warnings (unknown keys, ignored) versus errors
 * (a key of the wrong type makes the whole file unusable). Pure: the caller
 * reads and parses the YAML, this module judges the value.
 *
 * The keys are those of the configuration section of the spec: `task.*`
 * (with `task.allowEnv`, the variables commands keep: names or prefixes
 * ending in `*`),
 * `models.default`, `models.roles`, `models.aliases` and
 * `providers.<name>.{type, baseURL, apiKeyEnv}`, `mcpServers.<name>` (an MCP
 * server definition, see `discovery/mcp-definition.ts`), `search` (see
 * `search.ts`) and `hooks` (Claude Code's shape, see
 * `discovery/hook-config.ts`; a project file's wait for `xcsh trust`).
 *
 * @example
 * ```ts
 * validateConfig({ task: { maxConcurrency: 0 } }, "/home/me/.xcsh/agent/config.yml");
 * // { ok: false, error: { level: "error", file: "…", field: "task.maxConcurrency",
 * //   message: "'task.maxConcurrency' must be a positive integer, got 0" }, warnings: [] }
 * ```
 *
 * @module
 */
import type {
  AgentHooks,
  Diagnostic,
  McpServerDef,
  ProviderConfig,
  SearchConfig,
  XcshConfig,
} from "../types.ts";
import { isAbsolute } from "node:path";
import { describeKind, describeValue, isRecord } from "../formats/values.ts";
import { hideUrlCredentials } from "../text/redact.ts";
import { parseSandboxMode, SANDBOX_CHOICES } from "../sandbox/mode.ts";
import { ALLOW_ENTRY } from "../sandbox/command-env.ts";
import { parseSandboxNetwork } from "../sandbox/net-policy.ts";
import { checkMcpServerMap } from "../discovery/mcp-definition.ts";
import { checkSearchConfig, SEARCH_KEYS, SearchConfigError } from "./search.ts";
import { parseAllowEntry } from "../net/net-address.ts";
import {
  BUDGET_KEYS,
  type BudgetKey,
  type BudgetSetting,
  lowerBudget,
  parseBudgetValue,
} from "./budget-setting.ts";
import { checkLauncherKeys } from "./launchers.ts";
import { mergeHooks, parseHooks } from "../discovery/hook-config.ts";

/** The provider wire types a config may name. */
export const PROVIDER_TYPES = ["openai-compatible", "anthropic", "openai", "google"] as const;

/** A config file's contribution: only the keys it set, already checked. */
export interface PartialConfig {
  task?: Partial<XcshConfig["task"]>;
  models?: {
    default?: string;
    roles?: Record<string, string>;
    aliases?: Record<string, string>;
  };
  providers?: Record<string, Partial<ProviderConfig>>;
  mcpServers?: Record<string, McpServerDef>;
  search?: SearchConfig;
  hooks?: AgentHooks;
}

export type ConfigCheck =
  | { ok: true; value: PartialConfig; warnings: Diagnostic[] }
  | { ok: false; error: Diagnostic; warnings: Diagnostic[] };

/** The values used for keys no file sets. */
export function defaultConfig(): XcshConfig {
  return {
    task: {
      maxRecursionDepth: 2,
      maxConcurrency: 8,
      timeout: 600,
      disabledAgents: [],
      agentModelOverrides: {},
      sandboxNetwork: true,
      additionalDirectories: [],
      sessionRetentionDays: 30,
      allowEnv: [],
    },
    models: { roles: {}, aliases: {} },
    providers: {},
    mcpServers: {},
  };
}

/** Thrown inside this module only, turned into an error value at its edge. */
class KeyError extends Error {
  constructor(readonly field: string, message: string) {
    super(message);
  }
}

function fail(key: string, what: string, value: unknown): never {
  throw new KeyError(key, `'${key}' must be ${what}, got ${describeValue(value)}`);
}

function mapping(value: unknown, key: string): Record<string, unknown> {
  if (!isRecord(value)) fail(key, "a mapping", value);
  return value;
}

function str(value: unknown, key: string): string {
  if (typeof value !== "string" || value.trim() === "") fail(key, "a non-empty string", value);
  return value.trim();
}

function int(value: unknown, key: string, min: number, what: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min) fail(key, what, value);
  return value;
}

function stringMap(value: unknown, key: string): Record<string, string> {
  const m = mapping(value, key);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(m)) out[k] = str(v, `${key}.${k}`);
  return out;
}

function stringList(value: unknown, key: string): string[] {
  if (typeof value === "string") return value.split(",").map((s) => s.trim()).filter(Boolean);
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) {
    fail(key, "a list of strings", value);
  }
  return value.map((v) => v.trim()).filter(Boolean);
}

/** Warns once for each key of `m` not in `known`. */
function unknownKeys(
  m: Record<string, unknown>,
  known: readonly string[],
  prefix: string,
  file: string,
  warnings: Diagnostic[],
): void {
  for (const k of Object.keys(m)) {
    if (known.includes(k)) continue;
    const field = prefix ? `${prefix}.${k}` : k;
    warnings.push({ level: "warning", file, field, message: `unknown key '${field}' (ignored)` });
  }
}

function checkTask(
  raw: Record<string, unknown>,
  file: string,
  warnings: Diagnostic[],
): PartialConfig["task"] {
  const out: NonNullable<PartialConfig["task"]> = {};
  unknownKeys(
    raw,
    [
      "maxRecursionDepth",
      "maxConcurrency",
      "timeout",
      "budget",
      "disabledAgents",
      "agentModelOverrides",
      "sandbox",
      "sandboxNetwork",
      "additionalDirectories",
      "sessionRetentionDays",
      "allowEnv",
      "webFetchAllow",
      "launcher",
      "launchers",
      "launcherBinary",
    ],
    "task",
    file,
    warnings,
  );
  if (raw.maxRecursionDepth !== undefined) {
    out.maxRecursionDepth = int(
      raw.maxRecursionDepth,
      "task.maxRecursionDepth",
      -1,
      "an integer ≥ 0, or -1 for unlimited",
    );
  }
  if (raw.maxConcurrency !== undefined) {
    out.maxConcurrency = int(raw.maxConcurrency, "task.maxConcurrency", 1, "a positive integer");
  }
  if (raw.timeout !== undefined) {
    const t = raw.timeout;
    if (typeof t !== "number" || !Number.isFinite(t) || t <= 0) {
      fail("task.timeout", "a positive number of seconds", t);
    }
    out.timeout = t;
  }
  if (raw.budget !== undefined) out.budget = checkBudget(raw.budget);
  if (raw.disabledAgents !== undefined) {
    out.disabledAgents = stringList(raw.disabledAgents, "task.disabledAgents");
  }
  if (raw.agentModelOverrides !== undefined) {
    out.agentModelOverrides = stringMap(raw.agentModelOverrides, "task.agentModelOverrides");
  }
  checkSandboxKeys(raw, out);
  if (raw.allowEnv !== undefined) {
    const names = stringList(raw.allowEnv, "task.allowEnv");
    for (const n of names) {
      if (!ALLOW_ENTRY.test(n)) {
        fail(
          "task.allowEnv",
          "a list of environment variable names (letters, digits and _; a trailing * " +
            "matches any ending)",
          n,
        );
      }
    }
    out.allowEnv = names;
  }
  if (raw.webFetchAllow !== undefined) {
    const key = "task.webFetchAllow";
    const entries = stringList(raw.webFetchAllow, key);
    for (const e of entries) {
      const parsed = parseAllowEntry(e);
      if (typeof parsed === "string") {
        fail(key, "a list of host names, *.domain suffixes, addresses or address/bits ranges", e);
      }
    }
    out.webFetchAllow = entries;
  }
  const launch = checkLauncherKeys(raw);
  if (!launch.ok) throw new KeyError(launcherKeyOf(launch.message), launch.message);
  Object.assign(out, launch.value);
  if (raw.sessionRetentionDays !== undefined) {
    out.sessionRetentionDays = int(
      raw.sessionRetentionDays,
      "task.sessionRetentionDays",
      1,
      "a positive integer (days)",
    );
  }
  return out;
}

/** The key a launcher message names (it starts with it, quoted). */
function launcherKeyOf(message: string): string {
  return /^'([^']+)'/.exec(message)?.[1] ?? "task.launcher";
}

/** `task.sandbox`, `task.sandboxNetwork` and `task.additionalDirectories`. */
function checkSandboxKeys(
  raw: Record<string, unknown>,
  out: NonNullable<PartialConfig["task"]>,
): void {
  if (raw.sandbox !== undefined) {
    const mode = parseSandboxMode(raw.sandbox);
    if (!mode) fail("task.sandbox", `one of ${SANDBOX_CHOICES}`, raw.sandbox);
    out.sandbox = mode;
  }
  if (raw.sandboxNetwork !== undefined) {
    const network = parseSandboxNetwork(raw.sandboxNetwork);
    if (typeof network === "string") fail("task.sandboxNetwork", network, raw.sandboxNetwork);
    out.sandboxNetwork = network;
  }
  if (raw.additionalDirectories !== undefined) {
    const key = "task.additionalDirectories";
    const dirs = stringList(raw.additionalDirectories, key);
    for (const d of dirs) {
      if (!isAbsolute(d) && d !== "~" && !d.startsWith("~/")) {
        fail(key, "a list of absolute paths (or paths starting with ~/)", d);
      }
    }
    out.additionalDirectories = dirs;
  }
}

function checkModels(
  raw: Record<string, unknown>,
  file: string,
  warnings: Diagnostic[],
): PartialConfig["models"] {
  const out: NonNullable<PartialConfig["models"]> = {};
  unknownKeys(raw, ["default", "roles", "aliases"], "models", file, warnings);
  if (raw.default !== undefined) out.default = str(raw.default, "models.default");
  if (raw.roles !== undefined) out.roles = stringMap(raw.roles, "models.roles");
  if (raw.aliases !== undefined) {
    const aliases = stringMap(raw.aliases, "models.aliases");
    out.aliases = Object.fromEntries(
      Object.entries(aliases).map(([k, v]) => [k.toLowerCase(), v]),
    );
  }
  return out;
}

function checkProvider(
  name: string,
  value: unknown,
  file: string,
  warnings: Diagnostic[],
): Partial<ProviderConfig> {
  const key = `providers.${name}`;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) {
    throw new KeyError(
      key,
      `provider name '${name}' may use only letters, digits, '.', '_' and '-'`,
    );
  }
  const raw = mapping(value, key);
  unknownKeys(
    raw,
    [
      "type",
      "baseURL",
      "apiKeyEnv",
      "contextWindow",
      ...RATE_LIMIT_FIELDS,
    ],
    key,
    file,
    warnings,
  );
  const out: Partial<ProviderConfig> = {};
  if (raw.type !== undefined) {
    const t = raw.type;
    if (typeof t !== "string" || !(PROVIDER_TYPES as readonly string[]).includes(t)) {
      fail(`${key}.type`, `one of ${PROVIDER_TYPES.join(", ")}`, t);
    }
    out.type = t as ProviderConfig["type"];
  }
  if (raw.baseURL !== undefined) {
    const url = str(raw.baseURL, `${key}.baseURL`);
    if (!/^https?:\/\/[^\s]+$/.test(url)) {
      fail(`${key}.baseURL`, "an http(s) URL", hideUrlCredentials(url));
    }
    out.baseURL = url.replace(/\/+$/, "");
  }
  if (raw.apiKeyEnv !== undefined) {
    const env = str(raw.apiKeyEnv, `${key}.apiKeyEnv`);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(env)) {
      fail(`${key}.apiKeyEnv`, "the name of an environment variable", raw.apiKeyEnv);
    }
    out.apiKeyEnv = env;
  }
  if (raw.contextWindow !== undefined) out.contextWindow = windowSetting(raw.contextWindow, key);
  for (const field of RATE_LIMIT_FIELDS) {
    const v = raw[field];
    if (v === undefined) continue;
    if (typeof v !== "number" || !Number.isInteger(v) || v < 1) {
      fail(`${key}.${field}`, "a whole number, at least 1", v);
    }
    out[field] = v;
  }
  return out;
}

/** `providers.<name>` limits applied before any 429 (`model/provider-gate.ts`). */
const RATE_LIMIT_FIELDS = [
  "requestsPerMinute",
  "tokensPerMinute",
  "maxConcurrentRequests",
] as const;

/** `providers.<name>.contextWindow`: a whole number of tokens, or such numbers by model name. */
function windowSetting(value: unknown, key: string): number | Record<string, number> {
  const tokens = (v: unknown, field: string): number => {
    if (typeof v !== "number" || !Number.isInteger(v) || v < 1024) {
      fail(field, "a whole number of tokens, at least 1024", v);
    }
    return v as number;
  };
  if (typeof value === "number") return tokens(value, `${key}.contextWindow`);
  if (!isRecord(value)) {
    fail(
      `${key}.contextWindow`,
      "a whole number of tokens, at least 1024, or a mapping of model names to such numbers",
      value,
    );
  }
  const raw = value;
  // fromEntries: a model named `__proto__` stays an own key.
  return Object.fromEntries(
    Object.entries(raw).map(([model, v]) => [model, tokens(v, `${key}.contextWindow.${model}`)]),
  );
}

/**
 * Checks one parsed config document. `file` names it in every diagnostic.
 * An empty document (`null`) is a valid, empty config.
 *
 * @example
 * ```ts
 * const r = validateConfig({ models: { default: "ollama/qwen3" } }, "config.yml");
 * // r.ok && r.value.models.default === "ollama/qwen3"
 * ```
 */
export function validateConfig(doc: unknown, file: string): ConfigCheck {
  const warnings: Diagnostic[] = [];
  if (doc === null || doc === undefined) return { ok: true, value: {}, warnings };
  try {
    if (!isRecord(doc)) {
      return {
        ok: false,
        error: {
          level: "error",
          file,
          // Never quoted: a file that is no mapping is likely no config at all
          // (a key or a credentials file linked in its place).
          message: `the file must hold a mapping of keys (task, models, providers, …), got ${
            describeKind(doc)
          }`,
        },
        warnings,
      };
    }
    unknownKeys(
      doc,
      ["task", "models", "providers", "mcpServers", "search", "hooks"],
      "",
      file,
      warnings,
    );
    const value: PartialConfig = {};
    if (doc.task !== undefined && doc.task !== null) {
      value.task = checkTask(mapping(doc.task, "task"), file, warnings);
    }
    if (doc.models !== undefined && doc.models !== null) {
      value.models = checkModels(mapping(doc.models, "models"), file, warnings);
    }
    if (doc.providers !== undefined && doc.providers !== null) {
      const providers = mapping(doc.providers, "providers");
      value.providers = {};
      for (const [name, p] of Object.entries(providers)) {
        value.providers[name] = checkProvider(name, p, file, warnings);
      }
    }
    if (doc.mcpServers !== undefined && doc.mcpServers !== null) {
      const servers = checkMcpServerMap(doc.mcpServers, "mcpServers");
      if (!servers.ok) throw new KeyError(servers.field, servers.message);
      value.mcpServers = servers.value;
    }
    if (doc.hooks !== undefined && doc.hooks !== null) {
      const hooks = parseHooks(doc.hooks);
      if (!hooks.ok) throw new KeyError(hooks.field, hooks.message);
      for (const w of hooks.warnings) {
        warnings.push({ level: "warning", file, field: w.field, message: w.message });
      }
      value.hooks = hooks.hooks;
    }
    if (doc.search !== undefined && doc.search !== null) {
      try {
        value.search = checkSearchConfig(doc.search);
      } catch (err) {
        if (err instanceof SearchConfigError) throw new KeyError(err.field, err.message);
        throw err;
      }
      unknownKeys(doc.search as Record<string, unknown>, SEARCH_KEYS, "search", file, warnings);
    }
    return { ok: true, value, warnings };
  } catch (err) {
    if (!(err instanceof KeyError)) throw err;
    return {
      ok: false,
      error: { level: "error", file, field: err.field, message: err.message },
      warnings,
    };
  }
}

/** `task.budget`: a mapping of `usd`, `tokens`, `requests`, `deadline`, each valid. */
function checkBudget(raw: unknown): BudgetSetting {
  const out: BudgetSetting = {};
  for (const [k, v] of Object.entries(mapping(raw, "task.budget"))) {
    if (!(BUDGET_KEYS as readonly string[]).includes(k)) {
      fail(`task.budget.${k}`, "one of usd, tokens, requests, deadline", k);
    }
    const r = parseBudgetValue(k as BudgetKey, v);
    if (!r.ok) throw new KeyError(`task.budget.${k}`, `'task.budget.${k}': ${r.message}`);
    out[k as BudgetKey] = r.value;
  }
  return out;
}

/**
 * Lays config files over the defaults, later files winning key by key
 * (`providers.<name>` and the maps merge per entry). A provider may still
 * lack a `type` here (a built-in name such as `openai` supplies its own); the
 * loader reports the ones that do not.
 *
 * @example
 * ```ts
 * mergeConfigs([{ task: { maxConcurrency: 2 } }, { task: { timeout: 30 } }]).task;
 * // { maxRecursionDepth: 2, maxConcurrency: 2, timeout: 30, disabledAgents: [], agentModelOverrides: {} }
 * ```
 */
export function mergeConfigs(parts: readonly PartialConfig[]): XcshConfig {
  const config = defaultConfig();
  const providers: Record<string, Partial<ProviderConfig>> = {};
  for (const p of parts) {
    if (p.task) {
      const { agentModelOverrides, launchers, budget, ...rest } = p.task;
      Object.assign(config.task, rest);
      // A budget is a cap: a later file lowers a limit, never raises it.
      if (budget) config.task.budget = lowerBudget(config.task.budget ?? {}, budget);
      if (agentModelOverrides) {
        Object.assign(config.task.agentModelOverrides, agentModelOverrides);
      }
      if (launchers) config.task.launchers = { ...config.task.launchers, ...launchers };
    }
    if (p.models) {
      if (p.models.default !== undefined) config.models.default = p.models.default;
      if (p.models.roles) Object.assign(config.models.roles, p.models.roles);
      if (p.models.aliases) Object.assign(config.models.aliases, p.models.aliases);
    }
    for (const [name, prov] of Object.entries(p.providers ?? {})) {
      providers[name] = { ...providers[name], ...prov };
    }
    Object.assign(config.mcpServers, p.mcpServers);
    if (p.search) config.search = p.search;
    if (p.hooks) config.hooks = mergeHooks(config.hooks, p.hooks);
  }
  for (const [name, prov] of Object.entries(providers)) {
    config.providers[name] = prov as ProviderConfig;
  }
  return config;
}
