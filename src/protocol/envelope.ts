/**
 * What a task envelope is ({@link TaskEnvelope}, protocol version 1: its type
 * lives here), whether the text on a child's stdin is a usable one, and the
 * envelope with defaults applied.
 *
 * Required: `version` (1), `id`, `agent` (`name`, `description`,
 * `systemPrompt`), `assignment`, `cwd` (absolute). Optional, with defaults:
 * `context`, `outputSchema` (null), `model` (null: the child resolves it),
 * `thinkingLevel`, `planMode` (false), `limits` (`maxTurns` 50, `timeoutMs`
 * 600 000, `submitRetries` 3), `config` (absent: the child loads the config
 * files), `promptContext` (instruction files and environment facts; absent:
 * none), `keys` (provider keys by variable name), `agentSet` (the agents the
 * top-level run started with), `sandbox` (`mode`, `network` true, `reach` absent, `required`
 * false; absent: the agent's and the config's choice), `mcpServers` (the MCP
 * servers the child starts, by name), `toolSet` (the tools the parent decided:
 * `tools`, `spawns`, `mcp`; absent: the child decides with the same rule),
 * `blockedAgent` (the agent the child may not start; absent: the
 * environment's `PI_BLOCKED_AGENT`), `writes` (the task's write lane; absent: none), `session` (the session id:
 * the child then reports each message), `history` (a resumed conversation), `remote` (a
 * remote agent's card and credential headers: the child runs it over A2A). Every
 * problem names the field. Pure.
 *
 * @example
 * ```ts
 * parseEnvelope('{"version":1}');
 * // { ok: false, id: "", error: "invalid envelope: 'id' must be a non-empty string" }
 * ```
 *
 * @module
 */
import { isAbsolute } from "node:path";
import { DEFAULT_LIMITS, type TaskLimits, timerMs } from "./limits.ts";
import {
  type AgentDefinition,
  type AgentHooks,
  type McpServerDef,
  type McpServerRef,
  type NetReach,
  type PermissionRule,
  type PermissionRules,
  SANDBOX_MODES,
  type SandboxSetting,
  type SkillRef,
  THINKING_LEVELS,
  type ThinkingLevel,
  type XcshConfig,
} from "../types.ts";
import { isRecord } from "../formats/values.ts";
import { mergeConfigs, validateConfig } from "../config/validate.ts";
import { untypedProvider, untypedProviderMessage } from "../config/load.ts";
import { parsePromptContext, type PromptContext, PromptContextError } from "./prompt-context.ts";
import { checkMcpDefinition, checkMcpServerMap } from "../discovery/mcp-definition.ts";
import { parseHooks } from "../discovery/hook-config.ts";
import { laneProblem } from "../fs/write-lane.ts";

export const ENVELOPE_VERSION = 1;

export { DEFAULT_LIMITS };

/**
 * What the parent writes to a child's stdin (protocol version 1). The agent is
 * the *effective* agent: plan mode and depth limits are already applied.
 */
export interface TaskEnvelope {
  version: 1;
  id: string;
  agent: AgentDefinition;
  assignment: string;
  context?: string;
  /** The output schema the result must satisfy, or null. */
  outputSchema: unknown;
  /**
   * The run has a budget: before each model call the child asks its parent
   * over the control channel (`control.ts`) and makes the call only when
   * granted. Absent: no question is asked (no round trip).
   */
  budget?: true;
  /**
   * The parent paces the child's model requests: before each one the child
   * asks over the control channel (`pace_request`) and reports what the
   * answer said of the provider's limits (`pace_done`), so one view admits
   * every request of the run's tree. Absent: the child's own view alone.
   */
  pace?: true;
  /** Resolved `provider/model`, or null to let the child resolve it. */
  model: string | null;
  /** Why `model` is not the agent's own (a fallback to `models.default`), for the `start` event. */
  modelNote?: string;
  thinkingLevel?: ThinkingLevel;
  /** Sampling settings from the agent file, sent as the model call's own settings. */
  temperature?: number;
  topP?: number;
  topK?: number;
  cwd: string;
  planMode: boolean;
  /**
   * The tools the child offers, as the parent decided them
   * (`protocol/tool-set-rule.ts`); absent (an envelope written by hand): the
   * child decides with the same rule.
   */
  toolSet?: EnvelopeToolSet;
  /**
   * The agent this child may not start (recursion prevention): the parent's
   * `PI_BLOCKED_AGENT` for it. Travels here so that no launcher's command
   * line carries a name; absent: the environment's, if any.
   */
  blockedAgent?: string;
  limits: TaskLimits;
  /**
   * The parent's merged configuration, so the child uses exactly what the
   * parent resolved with; absent: the child loads the config files for `cwd`.
   */
  config?: XcshConfig;
  /** Instruction files and environment facts the parent gathered for the prompt. */
  promptContext?: PromptContext;
  /**
   * Provider keys by variable name (`ANTHROPIC_API_KEY`: value). Keys travel
   * here, never in the child's environment, so no process of xcsh below the
   * top one holds a key where its tools could read it.
   */
  keys?: Record<string, string>;
  /**
   * Fingerprints (by agent name) of the agents the top-level run discovered:
   * a `task` call refuses an agent added or changed since.
   */
  agentSet?: Record<string, string>;
  /** How `bash` commands are sandboxed; absent: the default (see {@link SandboxSetting}). */
  sandbox?: SandboxSetting;
  /**
   * Git settings (`[key, value]`) every git a command runs gets, after the
   * fixed ones (`process/git-config-rule.ts`): the programs the repository's
   * own config names, blanked, as the parent found them; absent: none.
   */
  commandGitSettings?: [string, string][];
  /**
   * The MCP servers this child starts (resolved and approved by the parent),
   * by name; the agent's `tools` patterns say which of their tools it gets.
   */
  mcpServers?: Record<string, McpServerDef>;
  /** The agent's memory folder (writable by its file tools) and the head of its `MEMORY.md`. */
  memory?: { dir: string; head: string };
  /** The skills the child may load (`skill` tool); their names and descriptions go in the prompt. */
  skills?: SkillRef[];
  /** The characters the prompt's skill listing may take (`protocol/skill-listing.ts`). */
  skillBudget?: number;
  /** Skills the agent preloads (`skills:`): their instructions go in the prompt. */
  preloadedSkills?: { name: string; body: string }[];
  /**
   * The task's write lane, as the parent decided it: globs relative to the
   * project root (`fs/write-lane.ts`). The file tools write only paths that
   * match one; the sandbox binds only their literal prefixes writable.
   * Absent: no lane (the whole workspace, as before).
   */
  writes?: string[];
  /** The session this task is recorded in: the child then reports each `message`. */
  session?: string;
  /** The session's file (a hook's `transcript_path`). */
  transcriptPath?: string;
  /**
   * The task's artifacts folder as the parent named it (an absolute path
   * under the user's data folder, `runner/artifacts.ts`): the child makes it
   * 0700 when a tool result is too long to send whole, keeps the result
   * there and lets `read` look in it. Absent: long results are cut only.
   */
  artifacts?: string;
  /**
   * The hooks of the user's Claude Code settings and plugins (and of a
   * trusted project's) as the parent read them, each group with its file in
   * `from`: they are in `agent.hooks` already; this copy is for the child's
   * own `task` calls, whose children get them too. The child reads no
   * settings file itself.
   */
  settingsHooks?: AgentHooks;
  /** A resumed session's conversation so far (the child's messages, in order). */
  history?: unknown[];
  /**
   * The agent is remote (`kind: remote`): the child runs the task over A2A
   * (`child/remote-task.ts`) instead of a model loop. Absent: a local agent.
   */
  remote?: RemoteTarget;
}

/** Where a remote agent's card is, and the user's credentials as the headers it is sent. */
export interface RemoteTarget {
  cardUrl?: string;
  /** The inline card (a JSON string or an object). */
  cardJson?: unknown;
  headers: Record<string, string>;
}

/** `remote`: a card URL or inline card, and string headers. */
function parseRemote(v: unknown): RemoteTarget {
  if (!isRecord(v)) bad("remote", "must be an object {cardUrl | cardJson, headers}");
  const cardUrl = optString(v, "cardUrl", "remote.cardUrl");
  const cardJson = v.cardJson ?? undefined;
  if (cardUrl === undefined && cardJson === undefined) {
    bad("remote", "must name a card: cardUrl or cardJson");
  }
  const headers = v.headers ?? {};
  if (!isRecord(headers) || !Object.values(headers).every((h) => typeof h === "string")) {
    bad("remote.headers", "must map header names to strings");
  }
  return {
    ...(cardUrl !== undefined ? { cardUrl } : {}),
    ...(cardJson !== undefined ? { cardJson } : {}),
    headers: { ...headers } as Record<string, string>,
  };
}

/** A decided tool set (see `protocol/tool-set-rule.ts`, which owns the rule). */
export interface EnvelopeToolSet {
  tools: string[];
  spawns: "*" | string[];
  mcp: { patterns: string[] | "all"; declared: string[]; deny: string[]; readOnlyOnly: boolean };
}

export type EnvelopeResult =
  | { ok: true; value: TaskEnvelope }
  | { ok: false; id: string; error: string };

class FieldError extends Error {}

function bad(field: string, what: string): never {
  throw new FieldError(`'${field}' ${what}`);
}

function reqString(o: Record<string, unknown>, key: string, field = key): string {
  const v = o[key];
  if (typeof v !== "string" || v.trim() === "") bad(field, "must be a non-empty string");
  return v;
}

function optString(o: Record<string, unknown>, key: string, field = key): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") bad(field, "must be a string");
  return v;
}

function optStringList(
  o: Record<string, unknown>,
  key: string,
  field: string,
): string[] | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || !v.every((x) => typeof x === "string")) {
    bad(field, "must be a list of strings");
  }
  return v;
}

function optLevel(v: unknown, field: string): ThinkingLevel | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string" || !(THINKING_LEVELS as readonly string[]).includes(v)) {
    bad(field, `must be one of ${THINKING_LEVELS.join(", ")}`);
  }
  return v as ThinkingLevel;
}

function posInt(v: unknown, field: string, min: number): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v < min) {
    bad(field, min === 0 ? "must be an integer ≥ 0" : "must be a positive integer");
  }
  return v;
}

/** `agent.mcpServers`: `[{name, definition?}]` as the parent resolved them. */
function parseServerRefs(v: unknown): McpServerRef[] {
  if (!Array.isArray(v)) bad("agent.mcpServers", "must be a list of {name, definition?}");
  return v.map((r, i) => {
    const at = `agent.mcpServers[${i}]`;
    if (!isRecord(r)) bad(at, "must be an object {name, definition?}");
    const name = reqString(r, "name", `${at}.name`);
    if (r.definition === undefined || r.definition === null) return { name };
    const def = checkMcpDefinition(r.definition, `${at}.definition`);
    if (!def.ok) bad(def.field, def.message.replace(/^'[^']*' /, ""));
    return { name, definition: def.value };
  });
}

function parseAgent(v: unknown): AgentDefinition {
  if (!isRecord(v)) bad("agent", "must be an object (the effective agent definition)");
  const agent: AgentDefinition = {
    ...(v as unknown as AgentDefinition),
    name: reqString(v, "name", "agent.name"),
    description: reqString(v, "description", "agent.description"),
    systemPrompt: typeof v.systemPrompt === "string"
      ? v.systemPrompt
      : bad("agent.systemPrompt", "must be a string"),
    source: (v.source as AgentDefinition["source"]) ?? "bundled",
    family: (v.family as AgentDefinition["family"]) ?? "xcsh",
  };
  agent.tools = optStringList(v, "tools", "agent.tools");
  agent.model = optStringList(v, "model", "agent.model");
  agent.thinkingLevel = optLevel(v.thinkingLevel, "agent.thinkingLevel");
  if (v.sandbox !== undefined && v.sandbox !== null) {
    agent.sandbox = mode(v.sandbox, "agent.sandbox");
  } else delete agent.sandbox;
  if (v.mcpServers !== undefined && v.mcpServers !== null) {
    agent.mcpServers = parseServerRefs(v.mcpServers);
  } else delete agent.mcpServers;
  if (v.hooks !== undefined && v.hooks !== null) {
    const hooks = parseHooks(v.hooks);
    if (!hooks.ok) bad(`agent.${hooks.field}`, hooks.message.replace(/^'[^']*' /, ""));
    agent.hooks = hooks.hooks;
  } else delete agent.hooks;
  if (v.permissions !== undefined && v.permissions !== null) {
    agent.permissions = parsePermissions(v.permissions);
  } else delete agent.permissions;
  return agent;
}

const RULE_FAMILIES = ["bash", "read", "edit", "web_fetch"];

/** `agent.permissions`: `{allow, deny}` lists of `{text, family, tool?, pattern}`. */
function parsePermissions(v: unknown): PermissionRules {
  if (!isRecord(v)) bad("agent.permissions", "must be an object {allow, deny}");
  const rules = (key: "allow" | "deny"): PermissionRule[] => {
    const list = v[key] ?? [];
    if (!Array.isArray(list)) bad(`agent.permissions.${key}`, "must be a list of rules");
    return list.map((r, i) => {
      const at = `agent.permissions.${key}[${i}]`;
      if (
        !isRecord(r) || typeof r.text !== "string" || typeof r.pattern !== "string" ||
        !RULE_FAMILIES.includes(r.family as string) ||
        (r.tool !== undefined && typeof r.tool !== "string")
      ) bad(at, "must be {text, family, tool?, pattern}");
      return r as unknown as PermissionRule;
    });
  };
  return { allow: rules("allow"), deny: rules("deny") };
}

function mode(v: unknown, field: string): SandboxSetting["mode"] {
  if (typeof v !== "string" || !(SANDBOX_MODES as readonly string[]).includes(v)) {
    bad(field, `must be one of ${SANDBOX_MODES.join(", ")}`);
  }
  return v as SandboxSetting["mode"];
}

function optBool(o: Record<string, unknown>, key: string, field: string, dflt: boolean): boolean {
  const v = o[key];
  if (v === undefined || v === null) return dflt;
  if (typeof v !== "boolean") bad(field, "must be true or false");
  return v;
}

function parseSandbox(v: unknown): SandboxSetting | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isRecord(v)) bad("sandbox", "must be an object");
  const reach = parseReach(v.reach);
  return {
    mode: mode(v.mode, "sandbox.mode"),
    network: optBool(v, "network", "sandbox.network", true),
    ...(reach ? { reach } : {}),
    required: optBool(v, "required", "sandbox.required", false),
  };
}

function parseReach(v: unknown): NetReach | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isRecord(v)) bad("sandbox.reach", "must be an object {host?, allow?, publicOnly?}");
  const lists = v.allow;
  if (
    lists !== undefined &&
    !(Array.isArray(lists) &&
      lists.every((l) => Array.isArray(l) && l.every((e) => typeof e === "string")))
  ) bad("sandbox.reach.allow", "must be a list of lists of hosts");
  const host = optBool(v, "host", "sandbox.reach.host", false);
  const pub = optBool(v, "publicOnly", "sandbox.reach.publicOnly", false);
  return {
    ...(host ? { host } : {}),
    ...(lists ? { allow: lists as string[][] } : {}),
    ...(pub ? { publicOnly: pub } : {}),
  };
}

function parseLimits(v: unknown): TaskLimits {
  if (v === undefined || v === null) return { ...DEFAULT_LIMITS };
  if (!isRecord(v)) bad("limits", "must be an object");
  return {
    maxTurns: v.maxTurns === undefined
      ? DEFAULT_LIMITS.maxTurns
      : posInt(v.maxTurns, "limits.maxTurns", 1),
    timeoutMs: v.timeoutMs === undefined
      ? DEFAULT_LIMITS.timeoutMs
      : timerMs(posInt(v.timeoutMs, "limits.timeoutMs", 1)),
    submitRetries: v.submitRetries === undefined
      ? DEFAULT_LIMITS.submitRetries
      : posInt(v.submitRetries, "limits.submitRetries", 0),
  };
}

/** The parent's configuration, checked like a config file (unknown keys too). */
function parseConfig(v: unknown): XcshConfig | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isRecord(v)) bad("config", "must be an object");
  const checked = validateConfig(v, "config");
  if (!checked.ok) bad("config", `is invalid: ${checked.error.message}`);
  if (checked.warnings.length > 0) bad("config", `is invalid: ${checked.warnings[0].message}`);
  const config = mergeConfigs([checked.value]);
  const untyped = untypedProvider(config);
  if (untyped !== undefined) bad("config", `is invalid: ${untypedProviderMessage(untyped)}`);
  return config;
}

/** Provider keys: an object of variable names to string values. */
function parseKeys(v: unknown): Record<string, string> | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isRecord(v)) bad("keys", "must be an object of variable names to key values");
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(v)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || typeof value !== "string") {
      bad("keys", "must be an object of variable names to key values");
    }
    out[name] = value;
  }
  return out;
}

/** Agent fingerprints: an object of agent names to strings. */
function parseAgentSet(v: unknown): Record<string, string> | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isRecord(v) || !Object.values(v).every((x) => typeof x === "string")) {
    bad("agentSet", "must be an object of agent names to fingerprints");
  }
  return { ...v } as Record<string, string>;
}

/** The parent's decided tool set: `{tools, spawns, mcp}`. */
function parseToolSet(v: unknown): EnvelopeToolSet | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isRecord(v)) bad("toolSet", "must be an object {tools, spawns, mcp}");
  const tools = optStringList(v, "tools", "toolSet.tools") ?? bad("toolSet.tools", "is required");
  const spawns = v.spawns === "*" ? "*" : optStringList(v, "spawns", "toolSet.spawns") ?? [];
  const m = v.mcp;
  if (!isRecord(m)) {
    bad("toolSet.mcp", "must be an object {patterns, declared, deny, readOnlyOnly}");
  }
  const patterns = m.patterns === "all"
    ? "all"
    : optStringList(m, "patterns", "toolSet.mcp.patterns") ?? [];
  return {
    tools,
    spawns,
    mcp: {
      patterns,
      declared: optStringList(m, "declared", "toolSet.mcp.declared") ?? [],
      deny: optStringList(m, "deny", "toolSet.mcp.deny") ?? [],
      readOnlyOnly: optBool(m, "readOnlyOnly", "toolSet.mcp.readOnlyOnly", false),
    },
  };
}

function isMessage(m: unknown): boolean {
  return isRecord(m) && (m.role === "user" || m.role === "assistant" || m.role === "tool");
}

/** Parses and checks an envelope from its JSON text. */
export function parseEnvelope(text: string): EnvelopeResult {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    const what = text.trim() === "" ? "stdin was empty" : `not valid JSON (${reason})`;
    return { ok: false, id: "", error: `invalid envelope: ${what}` };
  }
  const id = isRecord(doc) && typeof doc.id === "string" ? doc.id : "";
  try {
    if (!isRecord(doc)) bad("(root)", "must be a JSON object");
    if (doc.version !== ENVELOPE_VERSION) {
      bad(
        "version",
        `must be ${ENVELOPE_VERSION} (this xcsh speaks envelope version ${ENVELOPE_VERSION}), got ${
          JSON.stringify(doc.version) ?? "nothing"
        }`,
      );
    }
    reqString(doc, "id");
    const agent = parseAgent(doc.agent);
    if (typeof doc.assignment !== "string" || doc.assignment.trim() === "") {
      bad("assignment", "must be a non-empty string");
    }
    const cwd = reqString(doc, "cwd");
    if (!isAbsolute(cwd)) bad("cwd", "must be an absolute path");
    const model = doc.model === undefined || doc.model === null
      ? null
      : typeof doc.model === "string" && doc.model.trim() !== ""
      ? doc.model.trim()
      : bad("model", "must be a non-empty string or null");
    if (doc.planMode !== undefined && typeof doc.planMode !== "boolean") {
      bad("planMode", "must be true or false");
    }
    if (doc.budget !== undefined && doc.budget !== true) bad("budget", "must be true when set");
    if (doc.pace !== undefined && doc.pace !== true) bad("pace", "must be true when set");
    const envelope: TaskEnvelope = {
      version: 1,
      id,
      agent,
      assignment: doc.assignment,
      context: optString(doc, "context"),
      outputSchema: doc.outputSchema ?? null,
      model,
      thinkingLevel: optLevel(doc.thinkingLevel, "thinkingLevel"),
      cwd,
      planMode: doc.planMode === true,
      limits: parseLimits(doc.limits),
    };
    if (doc.budget === true) envelope.budget = true;
    if (doc.pace === true) envelope.pace = true;
    const modelNote = optString(doc, "modelNote");
    if (modelNote !== undefined) envelope.modelNote = modelNote;
    const config = parseConfig(doc.config);
    if (config) envelope.config = config;
    const promptContext = parsePromptContext(doc.promptContext);
    if (promptContext) envelope.promptContext = promptContext;
    const keys = parseKeys(doc.keys);
    if (keys) envelope.keys = keys;
    const agentSet = parseAgentSet(doc.agentSet);
    if (agentSet) envelope.agentSet = agentSet;
    const sandbox = parseSandbox(doc.sandbox);
    if (sandbox) envelope.sandbox = sandbox;
    if (doc.commandGitSettings !== undefined && doc.commandGitSettings !== null) {
      const list = doc.commandGitSettings;
      const pair = (p: unknown): p is [string, string] =>
        Array.isArray(p) && p.length === 2 && typeof p[0] === "string" &&
        typeof p[1] === "string" && p[0] !== "";
      if (!Array.isArray(list) || !list.every(pair)) {
        bad("commandGitSettings", "must be a list of [key, value] string pairs");
      }
      envelope.commandGitSettings = list.map(([k, v]) => [k, v]);
    }
    if (doc.mcpServers !== undefined && doc.mcpServers !== null) {
      const servers = checkMcpServerMap(doc.mcpServers, "mcpServers");
      if (!servers.ok) bad(servers.field, servers.message.replace(/^'[^']*' /, ""));
      envelope.mcpServers = servers.value;
    }
    for (const [key, max] of [["temperature", 2], ["topP", 1], ["topK", 1000]] as const) {
      const v = doc[key];
      if (v === undefined || v === null) continue;
      if (typeof v !== "number" || !Number.isFinite(v) || v < 0 || v > max) {
        bad(key, `must be a number from 0 to ${max}`);
      }
      envelope[key] = v;
    }
    if (doc.memory !== undefined && doc.memory !== null) {
      const m = doc.memory;
      if (!isRecord(m) || typeof m.head !== "string") bad("memory", "must be {dir, head}");
      const dir = reqString(m, "dir", "memory.dir");
      if (!isAbsolute(dir)) bad("memory.dir", "must be an absolute path");
      envelope.memory = { dir, head: m.head };
    }
    if (doc.skills !== undefined && doc.skills !== null) {
      if (!Array.isArray(doc.skills)) {
        bad("skills", "must be a list of {name, description, filePath}");
      }
      envelope.skills = doc.skills.map((s, i) => {
        if (!isRecord(s)) bad(`skills[${i}]`, "must be an object {name, description, filePath}");
        const filePath = reqString(s, "filePath", `skills[${i}].filePath`);
        if (!isAbsolute(filePath)) bad(`skills[${i}].filePath`, "must be an absolute path");
        return {
          name: reqString(s, "name", `skills[${i}].name`),
          description: reqString(s, "description", `skills[${i}].description`),
          filePath,
        };
      });
    }
    if (doc.skillBudget !== undefined && doc.skillBudget !== null) {
      if (
        typeof doc.skillBudget !== "number" || !Number.isInteger(doc.skillBudget) ||
        doc.skillBudget <= 0
      ) bad("skillBudget", "must be a positive whole number of characters");
      envelope.skillBudget = doc.skillBudget;
    }
    if (doc.preloadedSkills !== undefined && doc.preloadedSkills !== null) {
      if (!Array.isArray(doc.preloadedSkills)) {
        bad("preloadedSkills", "must be a list of {name, body}");
      }
      envelope.preloadedSkills = doc.preloadedSkills.map((s, i) => {
        if (!isRecord(s) || typeof s.body !== "string") {
          bad(`preloadedSkills[${i}]`, "must be an object {name, body}");
        }
        return { name: reqString(s, "name", `preloadedSkills[${i}].name`), body: s.body };
      });
    }
    const writes = optStringList(doc, "writes", "writes");
    if (writes !== undefined) {
      const problem = laneProblem(writes, "'writes'");
      if (problem) throw new FieldError(problem);
      envelope.writes = writes;
    }
    const toolSet = parseToolSet(doc.toolSet);
    if (toolSet) envelope.toolSet = toolSet;
    const blockedAgent = optString(doc, "blockedAgent");
    if (blockedAgent !== undefined) envelope.blockedAgent = blockedAgent;
    const session = optString(doc, "session");
    if (session) envelope.session = session;
    const transcript = optString(doc, "transcriptPath");
    if (transcript) envelope.transcriptPath = transcript;
    const artifacts = optString(doc, "artifacts");
    if (artifacts !== undefined) {
      if (!isAbsolute(artifacts)) bad("artifacts", "must be an absolute path");
      envelope.artifacts = artifacts;
    }
    if (doc.settingsHooks !== undefined && doc.settingsHooks !== null) {
      const read = parseHooks(doc.settingsHooks);
      if (!read.ok) {
        bad(read.field.replace(/^hooks/, "settingsHooks"), read.message.replace(/^'[^']*' /, ""));
      }
      envelope.settingsHooks = read.hooks;
    }
    if (doc.history !== undefined && doc.history !== null) {
      if (!Array.isArray(doc.history) || !doc.history.every(isMessage)) {
        bad("history", "must be a list of messages (objects with a role)");
      }
      envelope.history = doc.history;
    }
    if (doc.remote !== undefined && doc.remote !== null) envelope.remote = parseRemote(doc.remote);
    return { ok: true, value: envelope };
  } catch (err) {
    if (!(err instanceof FieldError) && !(err instanceof PromptContextError)) throw err;
    return { ok: false, id, error: `invalid envelope: ${err.message}` };
  }
}
