/**
 * What a task envelope is ({@link TaskEnvelope}, protocol version 3): the
 * complete plan of one child, as the parent decided it, and whether the text
 * on a child's stdin is one.
 *
 * Every field of version 3 is present on the wire ({@link ENVELOPE_FIELDS},
 * in protocol order); a field that has nothing to say holds `null` (or an
 * empty list or object), never "absent: the child decides". A missing
 * field, an unknown one, and a plan of another version are refused, each
 * with one line naming the field (or both versions). The parts whose formats
 * other folders own (the parent's config, MCP server definitions, hooks) are
 * checked by the {@link PlanReaders} the caller passes: this folder imports
 * nothing of `config/` or `discovery/`. Pure.
 *
 * @example
 * ```ts
 * declare const readers: PlanReaders;
 * parseEnvelope('{"version":1}', readers);
 * // { ok: false, id: "", error: "invalid envelope: the plan is task envelope version 1; this xcsh speaks version 3 …" }
 * ```
 *
 * @module
 */
import { isAbsolute } from "node:path";
import { type TaskLimits, timerMs } from "./limits.ts";
import type {
  AgentDefinition,
  AgentHooks,
  McpServerDef,
  McpServerRef,
  NetReach,
  PermissionRule,
  PermissionRules,
  SandboxSetting,
  SkillRef,
  ThinkingLevel,
  Verbosity,
  XcshConfig,
} from "../types.ts";
import { SANDBOX_MODES, THINKING_LEVELS, VERBOSITY_LEVELS } from "../types.ts";
import { isRecord } from "../formats/values.ts";
import { parsePromptContext, type PromptContext, PromptContextError } from "./prompt-context.ts";
import { laneProblem } from "../fs/write-lane.ts";

export const ENVELOPE_VERSION = 3;

/**
 * What the parent writes to a child's stdin (protocol version 3): the
 * child's complete plan. The agent is the *effective* agent: plan mode and
 * depth limits are already applied, its spawn right is `toolSet.spawns`
 * alone. An optional property here is one whose "none" travels as `null`
 * (or `[]`, `{}`): see `envelopeText` (`envelope-builder.ts`).
 */
export interface TaskEnvelope {
  version: 3;
  id: string;
  agent: AgentDefinition;
  assignment: string;
  /** Extra context for the prompt; none: null. */
  context?: string;
  /** The output schema the result must satisfy, or null. */
  outputSchema: unknown;
  /**
   * The run has a budget: before each model call the child asks its parent
   * over the control channel (`control.ts`) and makes the call only when
   * granted. On the wire `false` when there is none.
   */
  budget?: true;
  /**
   * The parent paces the child's model requests: before each one the child
   * asks over the control channel (`pace_request`) and reports what the
   * answer said of the provider's limits (`pace_done`), so one view admits
   * every request of the run's tree. On the wire `false` for a child paced
   * by its own view alone.
   */
  pace?: true;
  /**
   * The resolved `provider/model` the child runs. Null only in the parent,
   * before a resumed session's model is known or in a dry run: a child
   * refuses a plan without one.
   */
  model: string | null;
  /** Why `model` is not the agent's own (a fallback to `models.default`), for the `start` event. */
  modelNote?: string;
  /**
   * What every model call is sent, as the parent decided it for `model`
   * (`plan/child-model-settings.ts`); none: each setting `null` on the wire.
   * These settings travel here alone, never in `agent`.
   */
  modelSettings?: ModelSettings;
  cwd: string;
  planMode: boolean;
  /** The tools the child offers, as the parent decided them (`plan/tool-set-rule.ts`). */
  toolSet: EnvelopeToolSet;
  /**
   * The agent this child may not start (recursion prevention); none: null.
   * The child gives it to its `task` tool and its commands as
   * `PI_BLOCKED_AGENT`; no launcher's command line carries it.
   */
  blockedAgent?: string;
  limits: TaskLimits;
  /** The parent's merged configuration: the child reads no config file. */
  config: XcshConfig;
  /** Instruction files and environment facts the parent gathered for the prompt. */
  promptContext: PromptContext;
  /**
   * Provider keys by variable name (`ANTHROPIC_API_KEY`: value). Keys travel
   * here, never in the child's environment, so no process of xcsh below the
   * top one holds a key where its tools could read it.
   */
  keys: Record<string, string>;
  /**
   * Fingerprints (by agent name) of the agents the top-level run discovered:
   * a `task` call refuses an agent added or changed since.
   */
  agentSet: Record<string, string>;
  /**
   * How `bash` commands (and hooks) are sandboxed. `required`: a sandbox
   * that cannot start where the child runs fails the task; otherwise the
   * commands run unsandboxed with a warning (the parent decided which,
   * `plan/sandbox-choice.ts`).
   */
  sandbox: SandboxSetting;
  /**
   * Git settings (`[key, value]`) every git a command runs gets, after the
   * fixed ones (`process/git-config-rule.ts`): the programs the repository's
   * own config names, blanked, as the parent found them; none: `[]`.
   */
  commandGitSettings?: [string, string][];
  /**
   * The MCP servers this child starts (resolved and approved by the parent),
   * by name; the tool set's MCP grant says which of their tools it gets.
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
   * None (null): the whole workspace.
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
   * there and lets `read` look in it. None: long results are cut only.
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
   * (`child/remote-task.ts`) instead of a model loop. On the wire `null` for a local agent.
   */
  remote?: RemoteTarget;
}

/**
 * The settings of the task's model calls, each named as the agent field it
 * is decided from; an absent one is not sent (the provider's default).
 * On the wire every key is present, `null` for none.
 */
export interface ModelSettings {
  /** The thinking level. */
  thinkingLevel?: ThinkingLevel;
  /** Sampling settings, sent as the call's own where the model takes them (`model/capabilities.ts`). */
  temperature?: number;
  topP?: number;
  topK?: number;
  /** OpenAI's `text.verbosity`: only ever for a model that takes it. */
  verbosity?: Verbosity;
}

/** How each model setting is read from a plan (`null`: none), in wire order: one entry each. */
const MODEL_SETTING_READERS: {
  [K in keyof Required<ModelSettings>]: (v: unknown, field: string) => ModelSettings[K];
} = {
  thinkingLevel: optLevel,
  temperature: (v, field) => optNumber(v, field, 2),
  topP: (v, field) => optNumber(v, field, 1),
  topK: (v, field) => optNumber(v, field, 1000),
  verbosity: (v, field) => {
    if (v === null) return undefined;
    if (typeof v !== "string" || !(VERBOSITY_LEVELS as readonly string[]).includes(v)) {
      bad(field, `must be one of ${VERBOSITY_LEVELS.join(", ")}, or null`);
    }
    return v as Verbosity;
  },
};

/** The keys of `modelSettings`, in wire order. */
export const MODEL_SETTING_KEYS = Object.keys(MODEL_SETTING_READERS) as (keyof ModelSettings)[];

/** `modelSettings`: every key present, each checked by its reader; the ones set. */
function parseModelSettings(v: unknown): ModelSettings {
  const o = reqRecord(v, "modelSettings", `an object {${MODEL_SETTING_KEYS.join(", ")}}`);
  exactKeys(o, "modelSettings", MODEL_SETTING_KEYS);
  const settings: Record<string, unknown> = {};
  for (const key of MODEL_SETTING_KEYS) {
    const value = MODEL_SETTING_READERS[key](o[key], `modelSettings.${key}`);
    if (value !== undefined) settings[key] = value;
  }
  return settings as ModelSettings;
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
  const cardUrl = v.cardUrl === undefined ? undefined : nullString(v, "cardUrl", "remote.cardUrl");
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

/**
 * The fields of envelope version 3, in protocol order: every one is on the
 * wire, and no other.
 */
export const ENVELOPE_FIELDS = [
  "version",
  "id",
  "agent",
  "assignment",
  "context",
  "outputSchema",
  "budget",
  "pace",
  "model",
  "modelNote",
  "modelSettings",
  "cwd",
  "planMode",
  "toolSet",
  "blockedAgent",
  "limits",
  "config",
  "promptContext",
  "keys",
  "agentSet",
  "sandbox",
  "commandGitSettings",
  "mcpServers",
  "memory",
  "skills",
  "skillBudget",
  "preloadedSkills",
  "writes",
  "session",
  "transcriptPath",
  "artifacts",
  "settingsHooks",
  "history",
  "remote",
] as const;

/** A field of the protocol, by name. */
export type EnvelopeField = (typeof ENVELOPE_FIELDS)[number];

/** The fields of {@link TaskEnvelope} an envelope may leave out (its optional properties). */
export type OptionalEnvelopeField = {
  [K in keyof TaskEnvelope]-?: Partial<Pick<TaskEnvelope, K>> extends Pick<TaskEnvelope, K> ? K
    : never;
}[keyof TaskEnvelope];

/**
 * What "none" is on the wire for each field an envelope may leave out,
 * and so which fields those are: every optional property of
 * {@link TaskEnvelope} is named (the type refuses one missing or one
 * required). `modelSettings` is written key by key (`envelopeText`).
 */
export const ENVELOPE_NONE: {
  readonly [K in OptionalEnvelopeField]: null | false | readonly [] | Record<string, never>;
} = {
  context: null,
  budget: false,
  pace: false,
  modelNote: null,
  modelSettings: {},
  blockedAgent: null,
  commandGitSettings: [],
  mcpServers: {},
  memory: null,
  skills: [],
  skillBudget: null,
  preloadedSkills: [],
  writes: null,
  session: null,
  transcriptPath: null,
  artifacts: null,
  settingsHooks: {},
  history: null,
  remote: null,
};

/** A decided tool set (see `plan/tool-set-rule.ts`, which owns the rule). */
export interface EnvelopeToolSet {
  tools: string[];
  /** The spawn right: what the `task` tool may start (`[]`: no `task` tool). */
  spawns: "*" | string[];
  mcp: { patterns: string[] | "all"; declared: string[]; deny: string[]; readOnlyOnly: boolean };
}

/** A check of a part whose format another folder owns: the value, or the field and problem. */
export type PlanCheck<T> = { ok: true; value: T } | { ok: false; field: string; message: string };

/**
 * The readers of the plan's parts whose formats other folders own, passed
 * in so that the protocol imports none of them (`child/plan-readers.ts`
 * gives the real ones). Each names the field of a problem.
 */
export interface PlanReaders {
  /** The parent's merged configuration, checked like a config file (unknown keys too). */
  config(v: Record<string, unknown>): PlanCheck<XcshConfig>;
  /** One MCP server definition at `field`. */
  mcpDefinition(v: unknown, field: string): PlanCheck<McpServerDef>;
  /** A map of MCP server names to definitions at `field`. */
  mcpServers(v: unknown, field: string): PlanCheck<Record<string, McpServerDef>>;
  /** Hooks as in an agent file or settings (`field` names where). */
  hooks(v: unknown, field: string): PlanCheck<AgentHooks>;
}

export type EnvelopeResult =
  | { ok: true; value: TaskEnvelope }
  | { ok: false; id: string; error: string };

class FieldError extends Error {}

function bad(field: string, what: string): never {
  throw new FieldError(`'${field}' ${what}`);
}

/** A reader's problem, as this parser's own: `'field' what`. */
function badCheck(check: { field: string; message: string }, field = check.field): never {
  bad(field, check.message.replace(/^'[^']*' /, ""));
}

function reqString(o: Record<string, unknown>, key: string, field = key): string {
  const v = o[key];
  if (typeof v !== "string" || v.trim() === "") bad(field, "must be a non-empty string");
  return v;
}

/** A string or null (none). */
function nullString(o: Record<string, unknown>, key: string, field = key): string | undefined {
  const v = o[key];
  if (v === null) return undefined;
  if (typeof v !== "string") bad(field, "must be a string or null");
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

function reqStringList(o: Record<string, unknown>, key: string, field: string): string[] {
  const v = o[key];
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

/** A number from 0 to `max`, or null (none). */
function optNumber(v: unknown, field: string, max: number): number | undefined {
  if (v === null) return undefined;
  if (typeof v !== "number" || !Number.isFinite(v) || v < 0 || v > max) {
    bad(field, `must be a number from 0 to ${max}, or null`);
  }
  return v;
}

function posInt(v: unknown, field: string, min: number): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v < min) {
    bad(field, min === 0 ? "must be an integer ≥ 0" : "must be a positive integer");
  }
  return v;
}

function reqBool(o: Record<string, unknown>, key: string, field: string): boolean {
  const v = o[key];
  if (typeof v !== "boolean") bad(field, "must be true or false");
  return v;
}

function reqRecord(v: unknown, field: string, what: string): Record<string, unknown> {
  if (!isRecord(v)) bad(field, `must be ${what}`);
  return v;
}

/** `agent.mcpServers`: `[{name, definition?}]` as the parent resolved them. */
function parseServerRefs(v: unknown, readers: PlanReaders): McpServerRef[] {
  if (!Array.isArray(v)) bad("agent.mcpServers", "must be a list of {name, definition?}");
  return v.map((r, i) => {
    const at = `agent.mcpServers[${i}]`;
    if (!isRecord(r)) bad(at, "must be an object {name, definition?}");
    const name = reqString(r, "name", `${at}.name`);
    if (r.definition === undefined || r.definition === null) return { name };
    const def = readers.mcpDefinition(r.definition, `${at}.definition`);
    if (!def.ok) badCheck(def);
    return { name, definition: def.value };
  });
}

function parseAgent(v: unknown, readers: PlanReaders): AgentDefinition {
  if (!isRecord(v)) bad("agent", "must be an object (the effective agent definition)");
  if (v.spawns !== undefined) {
    bad("agent.spawns", "is not part of a plan: the spawn right is 'toolSet.spawns'");
  }
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
    agent.mcpServers = parseServerRefs(v.mcpServers, readers);
  } else delete agent.mcpServers;
  if (v.hooks !== undefined && v.hooks !== null) {
    const hooks = readers.hooks(v.hooks, "hooks");
    if (!hooks.ok) badCheck(hooks, `agent.${hooks.field}`);
    agent.hooks = hooks.value;
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

/** Fields of a nested object: each of `keys` present, no other. */
function exactKeys(o: Record<string, unknown>, field: string, keys: readonly string[]): void {
  for (const k of keys) if (!Object.hasOwn(o, k)) bad(`${field}.${k}`, "is missing");
  for (const k of Object.keys(o)) {
    if (!keys.includes(k)) {
      bad(`${field}.${k}`, `is not a field of a version ${ENVELOPE_VERSION} plan`);
    }
  }
}

function parseSandbox(v: unknown): SandboxSetting {
  const o = reqRecord(v, "sandbox", "an object {mode, network, reach, required}");
  exactKeys(o, "sandbox", ["mode", "network", "reach", "required"]);
  const reach = parseReach(o.reach);
  return {
    mode: mode(o.mode, "sandbox.mode"),
    network: reqBool(o, "network", "sandbox.network"),
    ...(reach ? { reach } : {}),
    required: reqBool(o, "required", "sandbox.required"),
  };
}

function parseReach(v: unknown): NetReach | undefined {
  if (v === null) return undefined;
  if (!isRecord(v)) bad("sandbox.reach", "must be an object {host?, allow?, publicOnly?} or null");
  const lists = v.allow;
  if (
    lists !== undefined &&
    !(Array.isArray(lists) &&
      lists.every((l) => Array.isArray(l) && l.every((e) => typeof e === "string")))
  ) bad("sandbox.reach.allow", "must be a list of lists of hosts");
  const flag = (key: string) => {
    const f = v[key];
    if (f !== undefined && typeof f !== "boolean") {
      bad(`sandbox.reach.${key}`, "must be true or false");
    }
    return f === true;
  };
  const host = flag("host");
  const pub = flag("publicOnly");
  return {
    ...(host ? { host } : {}),
    ...(lists ? { allow: lists as string[][] } : {}),
    ...(pub ? { publicOnly: pub } : {}),
  };
}

function parseLimits(v: unknown): TaskLimits {
  const o = reqRecord(v, "limits", "an object {maxTurns, timeoutMs, submitRetries}");
  exactKeys(o, "limits", ["maxTurns", "timeoutMs", "submitRetries"]);
  return {
    maxTurns: posInt(o.maxTurns, "limits.maxTurns", 1),
    timeoutMs: timerMs(posInt(o.timeoutMs, "limits.timeoutMs", 1)),
    submitRetries: posInt(o.submitRetries, "limits.submitRetries", 0),
  };
}

/** The parent's configuration, checked like a config file (unknown keys too). */
function parseConfig(v: unknown, readers: PlanReaders): XcshConfig {
  const o = reqRecord(v, "config", "an object (the parent's merged configuration)");
  const checked = readers.config(o);
  if (!checked.ok) bad("config", `is invalid: ${checked.message}`);
  return checked.value;
}

/** Provider keys: an object of variable names to string values. */
function parseKeys(v: unknown): Record<string, string> {
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
function parseAgentSet(v: unknown): Record<string, string> {
  if (!isRecord(v) || !Object.values(v).every((x) => typeof x === "string")) {
    bad("agentSet", "must be an object of agent names to fingerprints");
  }
  return { ...v } as Record<string, string>;
}

/** The parent's decided tool set: `{tools, spawns, mcp}`. */
function parseToolSet(v: unknown): EnvelopeToolSet {
  const o = reqRecord(v, "toolSet", "an object {tools, spawns, mcp}");
  exactKeys(o, "toolSet", ["tools", "spawns", "mcp"]);
  const tools = reqStringList(o, "tools", "toolSet.tools");
  const spawns = o.spawns === "*" ? "*" : reqStringList(o, "spawns", "toolSet.spawns");
  const m = reqRecord(o.mcp, "toolSet.mcp", "an object {patterns, declared, deny, readOnlyOnly}");
  exactKeys(m, "toolSet.mcp", ["patterns", "declared", "deny", "readOnlyOnly"]);
  return {
    tools,
    spawns,
    mcp: {
      patterns: m.patterns === "all" ? "all" : reqStringList(m, "patterns", "toolSet.mcp.patterns"),
      declared: reqStringList(m, "declared", "toolSet.mcp.declared"),
      deny: reqStringList(m, "deny", "toolSet.mcp.deny"),
      readOnlyOnly: reqBool(m, "readOnlyOnly", "toolSet.mcp.readOnlyOnly"),
    },
  };
}

function isMessage(m: unknown): boolean {
  return isRecord(m) && (m.role === "user" || m.role === "assistant" || m.role === "tool");
}

/**
 * The one line for a plan of another protocol version, naming both: an
 * old child given a new plan says the same in its own words.
 */
export function versionMismatch(theirs: unknown): string {
  const shown = typeof theirs === "number" ? String(theirs) : JSON.stringify(theirs) ?? "none";
  return `the plan is task envelope version ${shown}; this xcsh speaks version ${ENVELOPE_VERSION} ` +
    "(run the same xcsh version on both sides)";
}

/** The plan's fields that hold something, by the rules of each (null: none). */
function parseFields(
  doc: Record<string, unknown>,
  id: string,
  readers: PlanReaders,
): TaskEnvelope {
  const agent = parseAgent(doc.agent, readers);
  if (typeof doc.assignment !== "string" || doc.assignment.trim() === "") {
    bad("assignment", "must be a non-empty string");
  }
  const cwd = reqString(doc, "cwd");
  if (!isAbsolute(cwd)) bad("cwd", "must be an absolute path");
  const model = typeof doc.model === "string" && doc.model.trim() !== ""
    ? doc.model.trim()
    : bad("model", "must be the resolved 'provider/model' (the parent resolves it)");
  if (!/^[^/]+\/./.test(model)) bad("model", `must be 'provider/model', not '${model}'`);
  if (typeof doc.budget !== "boolean") bad("budget", "must be true or false");
  if (typeof doc.pace !== "boolean") bad("pace", "must be true or false");
  const envelope: TaskEnvelope = {
    version: ENVELOPE_VERSION,
    id,
    agent,
    assignment: doc.assignment,
    outputSchema: doc.outputSchema,
    model,
    cwd,
    planMode: reqBool(doc, "planMode", "planMode"),
    toolSet: parseToolSet(doc.toolSet),
    limits: parseLimits(doc.limits),
    config: parseConfig(doc.config, readers),
    promptContext: parsePromptContext(doc.promptContext) ??
      bad("promptContext", "must be an object (the gathered prompt context)"),
    keys: parseKeys(doc.keys),
    agentSet: parseAgentSet(doc.agentSet),
    sandbox: parseSandbox(doc.sandbox),
  };
  const context = nullString(doc, "context");
  if (context !== undefined) envelope.context = context;
  if (doc.budget === true) envelope.budget = true;
  if (doc.pace === true) envelope.pace = true;
  const modelNote = nullString(doc, "modelNote");
  if (modelNote !== undefined) envelope.modelNote = modelNote;
  const settings = parseModelSettings(doc.modelSettings);
  if (Object.keys(settings).length > 0) envelope.modelSettings = settings;
  const blockedAgent = nullString(doc, "blockedAgent");
  if (blockedAgent !== undefined) envelope.blockedAgent = blockedAgent;
  const list = doc.commandGitSettings;
  const pair = (p: unknown): p is [string, string] =>
    Array.isArray(p) && p.length === 2 && typeof p[0] === "string" &&
    typeof p[1] === "string" && p[0] !== "";
  if (!Array.isArray(list) || !list.every(pair)) {
    bad("commandGitSettings", "must be a list of [key, value] string pairs");
  }
  if (list.length > 0) envelope.commandGitSettings = list.map(([k, v]) => [k, v]);
  const servers = readers.mcpServers(doc.mcpServers, "mcpServers");
  if (!servers.ok) badCheck(servers);
  if (Object.keys(servers.value).length > 0) envelope.mcpServers = servers.value;
  if (doc.memory !== null) {
    const m = doc.memory;
    if (!isRecord(m) || typeof m.head !== "string") bad("memory", "must be {dir, head} or null");
    const dir = reqString(m, "dir", "memory.dir");
    if (!isAbsolute(dir)) bad("memory.dir", "must be an absolute path");
    envelope.memory = { dir, head: m.head };
  }
  if (!Array.isArray(doc.skills)) bad("skills", "must be a list of {name, description, filePath}");
  const skills = doc.skills.map((s, i) => {
    if (!isRecord(s)) bad(`skills[${i}]`, "must be an object {name, description, filePath}");
    const filePath = reqString(s, "filePath", `skills[${i}].filePath`);
    if (!isAbsolute(filePath)) bad(`skills[${i}].filePath`, "must be an absolute path");
    return {
      name: reqString(s, "name", `skills[${i}].name`),
      description: reqString(s, "description", `skills[${i}].description`),
      filePath,
    };
  });
  if (skills.length > 0) envelope.skills = skills;
  if (doc.skillBudget !== null) {
    if (
      typeof doc.skillBudget !== "number" || !Number.isInteger(doc.skillBudget) ||
      doc.skillBudget <= 0
    ) bad("skillBudget", "must be a positive whole number of characters, or null");
    envelope.skillBudget = doc.skillBudget;
  }
  if (!Array.isArray(doc.preloadedSkills)) {
    bad("preloadedSkills", "must be a list of {name, body}");
  }
  const preloaded = doc.preloadedSkills.map((s, i) => {
    if (!isRecord(s) || typeof s.body !== "string") {
      bad(`preloadedSkills[${i}]`, "must be an object {name, body}");
    }
    return { name: reqString(s, "name", `preloadedSkills[${i}].name`), body: s.body };
  });
  if (preloaded.length > 0) envelope.preloadedSkills = preloaded;
  const writes = optStringList(doc, "writes", "writes");
  if (writes !== undefined) {
    const problem = laneProblem(writes, "'writes'");
    if (problem) throw new FieldError(problem);
    envelope.writes = writes;
  }
  const session = nullString(doc, "session");
  if (session) envelope.session = session;
  const transcript = nullString(doc, "transcriptPath");
  if (transcript) envelope.transcriptPath = transcript;
  const artifacts = nullString(doc, "artifacts");
  if (artifacts !== undefined) {
    if (!isAbsolute(artifacts)) bad("artifacts", "must be an absolute path");
    envelope.artifacts = artifacts;
  }
  const hooks = readers.hooks(doc.settingsHooks, "settingsHooks");
  if (!hooks.ok) badCheck(hooks, hooks.field.replace(/^hooks/, "settingsHooks"));
  if (Object.keys(hooks.value).length > 0) envelope.settingsHooks = hooks.value;
  if (doc.history !== null) {
    if (!Array.isArray(doc.history) || !doc.history.every(isMessage)) {
      bad("history", "must be a list of messages (objects with a role), or null");
    }
    envelope.history = doc.history;
  }
  if (doc.remote !== null) envelope.remote = parseRemote(doc.remote);
  return envelope;
}

/**
 * Parses and checks a plan from its JSON text: its version first, then
 * that every field is there and no other, then each field. The parts other
 * folders own are checked by `readers`.
 */
export function parseEnvelope(text: string, readers: PlanReaders): EnvelopeResult {
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
    if (doc.version !== ENVELOPE_VERSION) throw new FieldError(versionMismatch(doc.version));
    reqString(doc, "id");
    for (const field of ENVELOPE_FIELDS) {
      if (!Object.hasOwn(doc, field)) {
        bad(
          field,
          `is missing (a version ${ENVELOPE_VERSION} plan names every field; null for none)`,
        );
      }
    }
    const known: readonly string[] = ENVELOPE_FIELDS;
    for (const field of Object.keys(doc)) {
      if (!known.includes(field)) {
        bad(field, `is not a field of a version ${ENVELOPE_VERSION} plan`);
      }
    }
    return { ok: true, value: parseFields(doc, id, readers) };
  } catch (err) {
    if (!(err instanceof FieldError) && !(err instanceof PromptContextError)) throw err;
    return { ok: false, id, error: `invalid envelope: ${err.message}` };
  }
}
